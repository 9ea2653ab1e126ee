import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { deleteUser, getUserById, toUserView, updateUser, UserUpdateSchema } from "~/models/user.server";
import { bearerToken, requireRole } from "~/services/auth.server";
import { apiError, apiJson, apiRoute, methodNotAllowed, parseJsonBody } from "~/utils/http.server";

/** GET /api/users/{id} (admin only). */
export const loader = apiRoute(async ({ request, params }: LoaderFunctionArgs) => {
  await requireRole(request, ["admin"]);
  const user = await getUserById({ id: params.id ?? "" });
  if (!user) return apiError(404, "Користувача не знайдено");
  return apiJson(toUserView(user));
});

/** PUT /api/users/{id} (email, full_name, bio, role, is_active, password) and DELETE (204). */
export const action = apiRoute(async ({ request, params }: ActionFunctionArgs) => {
  const id = params.id ?? "";
  if (request.method === "PUT") {
    const actor = await requireRole(request, ["admin"]);
    const changes = await parseJsonBody(request, UserUpdateSchema);
    const user = await updateUser({ actor, actorToken: bearerToken(request), id, changes });
    return apiJson(toUserView(user));
  }
  if (request.method === "DELETE") {
    const actor = await requireRole(request, ["admin"]);
    await deleteUser({ actor, id });
    return new Response(null, { status: 204, headers: { "Cache-Control": "no-store" } });
  }
  return methodNotAllowed(["GET", "PUT", "DELETE"]);
});
