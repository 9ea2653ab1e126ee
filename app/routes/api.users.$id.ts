import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { ReassignSchema } from "~/models/user-articles.server";
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

/** PUT /api/users/{id} (email, full_name, bio, role, is_active, password) and DELETE (204; `reassign_to` when they have articles, else 409). */
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
    // Issue 31 item 4: who takes over their articles, `reassign_to` (a user id) in the query or a JSON body.
    const query = new URL(request.url).searchParams.get("reassign_to");
    const hasBody = request.headers.get("Content-Type") && (await request.clone().text()).trim() !== "";
    const body = hasBody ? await parseJsonBody(request, ReassignSchema) : {};
    const reassignTo = body.reassign_to ?? (query?.trim().slice(0, 100) || undefined);
    await deleteUser({ actor, id, reassignTo });
    return new Response(null, { status: 204, headers: { "Cache-Control": "no-store" } });
  }
  return methodNotAllowed(["GET", "PUT", "DELETE"]);
});
