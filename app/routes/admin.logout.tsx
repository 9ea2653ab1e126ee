import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { LOGIN_PATH } from "~/services/auth.server";
import { endSession } from "~/services/session.server";

// Logout deletes the session on the server (DESIGN §6); GET changes nothing.
export async function loader() {
  return redirect("/admin/dashboard");
}

export async function action({ request }: ActionFunctionArgs) {
  const cookie = await endSession(request);
  return redirect(LOGIN_PATH, cookie ? { headers: { "Set-Cookie": cookie } } : undefined);
}
