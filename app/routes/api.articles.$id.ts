import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { canReadArticle, deleteArticle, getArticleById, updateArticle } from "~/models/article.server";
import { requireUser } from "~/services/auth.server";
import { apiError, apiJson, apiRoute, methodNotAllowed, parseJsonBody } from "~/utils/http.server";
import { ArticleInputSchema } from "~/utils/newsroom-rules";

/**
 * GET /api/articles/{id}: one article in any status, for staff who may read it (load for editing);
 * a reporter reads another author's article only once it has passed the desk (docs/decisions/019).
 */
export const loader = apiRoute(async ({ request, params }: LoaderFunctionArgs) => {
  const reader = await requireUser(request);
  const article = await getArticleById({ id: params.id ?? "" });
  if (!article) return apiError(404, "Статтю не знайдено");
  if (!canReadArticle(reader, article)) return apiError(403, "Недостатньо прав для цієї статті");
  return apiJson(article);
});

/** PUT /api/articles/{id} (the create body, plus an optional `version`) and DELETE (204). */
export const action = apiRoute(async ({ request, params }: ActionFunctionArgs) => {
  const id = params.id ?? "";
  if (request.method === "PUT") {
    const actor = await requireUser(request);
    if (!(await getArticleById({ id }))) return apiError(404, "Статтю не знайдено");
    const input = await parseJsonBody(request, ArticleInputSchema);
    return apiJson(await updateArticle({ actor, id, input }));
  }
  if (request.method === "DELETE") {
    const actor = await requireUser(request);
    await deleteArticle({ actor, id });
    return new Response(null, { status: 204, headers: { "Cache-Control": "no-store" } });
  }
  return methodNotAllowed(["GET", "PUT", "DELETE"]);
});
