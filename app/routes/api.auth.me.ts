import type { LoaderFunctionArgs } from "@remix-run/node";
import { toUserView } from "~/models/user.server";
import { requireUser } from "~/services/auth.server";
import { apiJson, apiRoute, methodNotAllowed } from "~/utils/http.server";

/** GET /api/auth/me → the signed-in user (SPEC §3 'User'); 401 without a valid token. */
export const loader = apiRoute(async ({ request }: LoaderFunctionArgs) => {
  const user = await requireUser(request);
  return apiJson(toUserView(user));
});

export const action = () => methodNotAllowed(["GET"]);
