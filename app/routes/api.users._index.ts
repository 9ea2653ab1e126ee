import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { addUser, listUsers, toUserView, UserCreateSchema } from "~/models/user.server";
import { requireRole } from "~/services/auth.server";
import { apiJson, apiRoute, listParams, methodNotAllowed, parseJsonBody } from "~/utils/http.server";

/** GET /api/users/ → { data, total, skip, limit } (admin only). */
export const loader = apiRoute(async ({ request }: LoaderFunctionArgs) => {
  await requireRole(request, ["admin"]);
  const { skip, limit } = listParams(request, 100);
  const { users, total } = await listUsers({ skip, limit });
  return apiJson({ data: users.map(toUserView), total, skip, limit });
});

/** POST /api/users/ → 201 with the new user. */
export const action = apiRoute(async ({ request }: ActionFunctionArgs) => {
  if (request.method !== "POST") return methodNotAllowed(["GET", "POST"]);
  const actor = await requireRole(request, ["admin"]);
  const input = await parseJsonBody(request, UserCreateSchema);
  return apiJson(toUserView(await addUser(input, actor)), { status: 201 });
});
