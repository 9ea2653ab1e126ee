import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { deleteCategory, getCategoryById, updateCategory } from "~/models/category.server";
import { requireRole, requireUser } from "~/services/auth.server";
import { apiError, apiJson, apiRoute, methodNotAllowed, parseJsonBody } from "~/utils/http.server";
import { CategoryInputSchema } from "~/utils/newsroom-rules";

/** GET /api/categories/{id} (every staff role). */
export const loader = apiRoute(async ({ request, params }: LoaderFunctionArgs) => {
  await requireUser(request);
  const category = await getCategoryById({ id: params.id ?? "" });
  if (!category) return apiError(404, "Категорію не знайдено");
  return apiJson(category);
});

/** PUT /api/categories/{id} (name, description, slug) and DELETE (204; 409 while in use). */
export const action = apiRoute(async ({ request, params }: ActionFunctionArgs) => {
  const id = params.id ?? "";
  if (request.method === "PUT") {
    const actor = await requireRole(request, ["admin", "editor"]);
    if (!(await getCategoryById({ id }))) return apiError(404, "Категорію не знайдено");
    const input = await parseJsonBody(request, CategoryInputSchema);
    return apiJson(await updateCategory({ actor, id, input }));
  }
  if (request.method === "DELETE") {
    const actor = await requireRole(request, ["admin", "editor"]);
    await deleteCategory({ actor, id });
    return new Response(null, { status: 204, headers: { "Cache-Control": "no-store" } });
  }
  return methodNotAllowed(["GET", "PUT", "DELETE"]);
});
