import type { ActionFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/services/auth.server";
import { revokeSessionToken } from "~/services/session.server";
import { apiRoute, methodNotAllowed } from "~/utils/http.server";

export const loader = () => methodNotAllowed(["POST"]);

/** POST /api/auth/logout: revokes the bearer token that made the call; 204. */
export const action = apiRoute(async ({ request }: ActionFunctionArgs) => {
  await requireUser(request);
  const token = request.headers.get("Authorization")?.replace(/^Bearer\s+/i, "");
  if (token) await revokeSessionToken(token);
  return new Response(null, { status: 204, headers: { "Cache-Control": "no-store" } });
});
