import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { getPublicArticle } from "~/models/public-article.server";
import { showsArticles } from "~/page-store/page-cache.server";
import { apiError, apiJson, apiRoute, methodNotAllowed } from "~/utils/http.server";

/**
 * GET /api/articles/slug/{slug}: one published article as its page shows it (SPEC §7), 404
 * `{detail: "Article not found"}` otherwise. An old slug answers 301 to the current one.
 */
export const loader = apiRoute(async ({ params, context }: LoaderFunctionArgs) => {
  const slug = params.slug ?? "";
  const found = slug.length <= 300 ? await getPublicArticle({ slugOrId: slug }) : undefined;
  if (!found) return apiError(404, "Article not found");
  if (!found.article) {
    return new Response(null, {
      status: 301,
      headers: { Location: `/api/articles/slug/${encodeURIComponent(found.redirectTo)}`, "Cache-Control": "no-store" },
    });
  }
  const a = found.article;
  showsArticles(context, [a]);
  return apiJson({
    id: a.id,
    slug: a.slug,
    title: a.title,
    subtitle: a.subtitle,
    content_html: a.content_html,
    category: a.category_name ? { name: a.category_name, slug: a.category_slug } : null,
    tags: a.tags,
    featured_image: a.image,
    image: a.image,
    status: "published",
    published_at: a.published_at,
    updated_at: a.updated_at,
    views: a.views,
    author: a.author,
    authors: a.authors,
    seo_title: a.seo_title,
    seo_description: a.seo_description,
    meta_keywords: a.meta_keywords,
    og_image: a.og_image,
    canonical_url: a.canonical_url,
    url: `/article/${a.slug}`,
    comment_count: a.comment_count,
    // Issue 29: added fields (DESIGN §16).
    sources: a.sources,
    corrections: a.corrections,
    updated_significantly_at: a.updated_significantly_at,
  });
});

export const action = apiRoute(async (_args: ActionFunctionArgs) => methodNotAllowed(["GET"]));
