import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { createArticle, listPublishedArticles } from "~/models/article.server";
import { requireUser } from "~/services/auth.server";
import { apiJson, apiRoute, listParams, methodNotAllowed, parseJsonBody } from "~/utils/http.server";
import { ArticleInputSchema } from "~/utils/newsroom-rules";

/** GET /api/articles/ → published articles with their public fields ({ data, total, skip, limit }). */
export const loader = apiRoute(async ({ request }: LoaderFunctionArgs) => {
  const { skip, limit } = listParams(request, 20);
  const categoryId = new URL(request.url).searchParams.get("category_id") || undefined;
  const { articles, total } = await listPublishedArticles({ skip, limit, categoryId });
  return apiJson({ data: articles, total, skip, limit });
});

/** POST /api/articles/ → 201 with the new article (any staff role; reporters draft only). */
export const action = apiRoute(async ({ request }: ActionFunctionArgs) => {
  if (request.method !== "POST") return methodNotAllowed(["GET", "POST"]);
  const actor = await requireUser(request);
  const input = await parseJsonBody(request, ArticleInputSchema);
  return apiJson(await createArticle({ actor, input }), { status: 201 });
});
