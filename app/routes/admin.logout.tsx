import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { LOGIN_PATH } from "~/services/auth.server";
import { endSession } from "~/services/session.server";

// Logout deletes the session on the server (DESIGN §6); GET changes nothing. Its answer also asks
// the browser to drop what this site stored in it (`Clear-Site-Data: "storage"`: the editor's
// unsaved-text copies, app/utils/local-drafts.ts), so a sign-out without JavaScript clears them too
// (issue 25). Browsers honour it only from a secure origin (https, localhost); elsewhere the copies
// are still keyed by their author and never offered to anyone else.
export async function loader() {
  return redirect("/admin/dashboard");
}

export async function action({ request }: ActionFunctionArgs) {
  const cookie = await endSession(request);
  const headers = new Headers({ "Clear-Site-Data": '"storage"' });
  if (cookie) headers.set("Set-Cookie", cookie);
  return redirect(LOGIN_PATH, { headers });
}
