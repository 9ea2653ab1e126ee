import type { ActionFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/services/auth.server";
import { endSession } from "~/services/session.server";
import { apiRoute, methodNotAllowed } from "~/utils/http.server";

export const loader = () => methodNotAllowed(["POST"]);

/** POST /api/auth/logout: ends the session the call was made with (bearer token or cookie); 204. */
export const action = apiRoute(async ({ request }: ActionFunctionArgs) => {
  // Also for someone the settings send to two-factor enrolment: signing out is always allowed.
  await requireUser(request, { enrolling: true });
  const headers = new Headers({ "Cache-Control": "no-store" });
  const cookie = await endSession(request);
  if (cookie) headers.set("Set-Cookie", cookie);
  return new Response(null, { status: 204, headers });
});
