import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { clientAddress } from "~/services/auth.server";
import { countArticleView, isReaderRequest, resolveArticle } from "~/services/view-counter.server";
import { apiError, apiJson, apiRoute, methodNotAllowed, parseJsonBody } from "~/utils/http.server";
import { firstViewInWindow } from "~/utils/rate-limit.server";

// SPEC §7: `article_id` plus extra fields, which are ignored (zod strips them).
const TrackViewSchema = z.object({
  article_id: z.string({ required_error: "Обов'язкове поле", invalid_type_error: "Має бути рядком" }).trim().min(1, "Обов'язкове поле").max(200),
});

export const loader = () => methodNotAllowed(["POST"]);

/**
 * POST /api/analytics/track-view { article_id } (no sign-in): adds one view of a published
 * article to the same in-memory batch as the server-side counting (DESIGN §9), so it costs no
 * database write of its own. 202 `{counted}`: false for bots and prefetches, which are not counted,
 * and for a repeat from the same address within VIEW_REPEAT_MINUTES (app/utils/rate-limit.server.ts),
 * so the open endpoint cannot inflate an article's count; server.ts also rate-limits it.
 */
export const action = apiRoute(async ({ request }: ActionFunctionArgs) => {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const { article_id } = await parseJsonBody(request, TrackViewSchema);
  const article = await resolveArticle(article_id);
  if (!article) return apiError(404, "Article not found");
  const counted = isReaderRequest(request.headers) && firstViewInWindow({ ip: clientAddress(request), articleId: article.id });
  if (counted) countArticleView({ ref: article.id });
  return apiJson({ article_id: article.id, counted }, { status: 202 });
});
