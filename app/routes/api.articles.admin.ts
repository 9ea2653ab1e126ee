import type { LoaderFunctionArgs } from "@remix-run/node";
import { listAdminArticles } from "~/models/article.server";
import { requireUser } from "~/services/auth.server";
import { apiError, apiJson, apiRoute, listParams } from "~/utils/http.server";
import { ARTICLE_STATUSES, type ArticleStatus } from "~/utils/newsroom-rules";

/**
 * GET /api/articles/admin?status&search&category_id&skip&limit → every status, for staff; a
 * reporter gets what they may read (docs/decisions/019).
 */
export const loader = apiRoute(async ({ request }: LoaderFunctionArgs) => {
  const reader = await requireUser(request);
  const { skip, limit } = listParams(request, 20);
  const params = new URL(request.url).searchParams;
  const status = params.get("status") || undefined;
  if (status && !ARTICLE_STATUSES.includes(status as ArticleStatus)) {
    return apiError(422, "Перевірте параметри запиту", { errors: { status: "draft, published або archived" } });
  }
  const { articles, total, capped } = await listAdminArticles({
    status: status as ArticleStatus | undefined,
    search: params.get("search")?.slice(0, 200) || undefined,
    categoryId: params.get("category_id") || undefined,
    skip,
    limit,
    reader,
  });
  // total_capped (issue 30): a search counts at most 1,000 matches; true when there are more.
  return apiJson({ data: articles, total, skip, limit, ...(capped && { total_capped: true }) });
});
