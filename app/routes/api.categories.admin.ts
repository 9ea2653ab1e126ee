import type { LoaderFunctionArgs } from "@remix-run/node";
import { listCategories } from "~/models/category.server";
import { requireUser } from "~/services/auth.server";
import { apiJson, apiRoute, listParams } from "~/utils/http.server";

/** GET /api/categories/admin → { data, total, skip, limit } (every staff role may read). */
export const loader = apiRoute(async ({ request }: LoaderFunctionArgs) => {
  await requireUser(request);
  const { skip, limit } = listParams(request, 100);
  const { categories, total } = await listCategories({ skip, limit });
  return apiJson({ data: categories, total, skip, limit });
});
