import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { createCategory, listCategories } from "~/models/category.server";
import { requireRole, requireUser } from "~/services/auth.server";
import { apiJson, apiRoute, listParams, methodNotAllowed, parseJsonBody } from "~/utils/http.server";
import { CategoryInputSchema } from "~/utils/newsroom-rules";

/** GET /api/categories/ → the same list as /api/categories/admin. */
export const loader = apiRoute(async ({ request }: LoaderFunctionArgs) => {
  await requireUser(request);
  const { skip, limit } = listParams(request, 100);
  const { categories, total } = await listCategories({ skip, limit });
  return apiJson({ data: categories, total, skip, limit });
});

/** POST /api/categories/ (name, description, optional slug) → 201; admins and editors. */
export const action = apiRoute(async ({ request }: ActionFunctionArgs) => {
  if (request.method !== "POST") return methodNotAllowed(["GET", "POST"]);
  const actor = await requireRole(request, ["admin", "editor"]);
  const input = await parseJsonBody(request, CategoryInputSchema);
  return apiJson(await createCategory({ actor, input }), { status: 201 });
});
