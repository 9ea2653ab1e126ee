import type { ActionFunctionArgs } from "@remix-run/node";
import { submitSitemap, SubmitSitemapSchema } from "~/models/seo.server";
import { requireRole } from "~/services/auth.server";
import { apiJson, apiRoute, methodNotAllowed, parseJsonBody } from "~/utils/http.server";

export const loader = () => methodNotAllowed(["POST"]);

/** POST /api/seo/search-console/submit-sitemap { sitemap_url? } (admin, editor). */
export const action = apiRoute(async ({ request }: ActionFunctionArgs) => {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const user = await requireRole(request, ["admin", "editor"]);
  const { sitemap_url } = await parseJsonBody(request, SubmitSitemapSchema);
  const url = await submitSitemap({ sitemapUrl: sitemap_url, user });
  return apiJson({ detail: "Sitemap submitted successfully!", sitemap_url: url });
});
