import type { LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { getArticleAnalytics } from "~/models/analytics.server";
import { requireUser } from "~/services/auth.server";
import { fieldErrors } from "~/utils/forms.server";
import { apiError, apiJson, apiRoute, methodNotAllowed } from "~/utils/http.server";

const QuerySchema = z.object({ days: z.coerce.number().int("Ціле число від 1 до 365").min(1).max(365).default(30) });

/** GET /api/analytics/articles/{id}?days=30 → daily views of one article. */
export const loader = apiRoute(async ({ request, params }: LoaderFunctionArgs) => {
  const reader = await requireUser(request);
  const query = QuerySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!query.success) return apiError(422, "Перевірте параметри запиту", { errors: fieldErrors(query.error) });
  const analytics = await getArticleAnalytics({ id: params.id ?? "", days: query.data.days, reader });
  if (!analytics) return apiError(404, "Статтю не знайдено");
  return apiJson(analytics);
});

export const action = () => methodNotAllowed(["GET"]);
