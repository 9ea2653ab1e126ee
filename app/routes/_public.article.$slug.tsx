import { redirect, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { isRouteErrorResponse, Link, useActionData, useLoaderData, useRouteError } from "@remix-run/react";
import { ArticleView, latest } from "~/components/public/article-view";
import { CommentsSection } from "~/components/public/comments-section";
import { getPublicArticle, listRelatedArticles } from "~/models/public-article.server";
import { showsArticles } from "~/page-store/page-cache.server";
import { commentAction } from "~/services/comment-action.server";
import { commentSection } from "~/services/comment-post.server";
import { staffEditUrl } from "~/services/staff-bar.server";
import { keepInDocument } from "~/utils/document-html";
import { buildMeta, siteFromMatches } from "~/utils/seo-meta";

// SPEC §2 'Article page'. The body is the HTML sanitised when the article was saved (DESIGN §9):
// nothing is parsed or sanitised here. Views are counted by the server middleware, not here.
// Issue 28: a reader's comment (or the deletion of their own) is posted to the article's page.
export const action = commentAction;

/** A refused comment's Retry-After (the per-address limit) reaches the browser. */
export const headers: HeadersFunction = ({ actionHeaders, parentHeaders }) => {
  const headers = new Headers(parentHeaders);
  const retry = actionHeaders.get("Retry-After");
  if (retry) headers.set("Retry-After", retry);
  return headers;
};

export async function loader({ params, context, request }: LoaderFunctionArgs) {
  const slug = params.slug ?? "";
  const found = await getPublicArticle({ slugOrId: slug });
  if (!found) throw new Response("Article not found", { status: 404 });
  if (!found.article) throw redirect(`/article/${encodeURIComponent(found.redirectTo)}`, 301);
  const related = await listRelatedArticles({ id: found.article.id, categoryId: found.article.category_id });
  // The related row shows other articles' headlines: withdrawing one of them removes this page too.
  showsArticles(context, [found.article, ...related]);
  // The body is in a document once: in its markup, not also in the loader data (document-html.ts).
  const article = { ...found.article, content_html: keepInDocument(context, found.article.id, found.article.content_html) };
  // Issue 28: the comments (the reader's own recent ones only when the page is rendered for them).
  const comments = await commentSection({ article: found.article, cookieHeader: request.headers.get("Cookie") });
  // Issue 31 item 19: the staff bar's "Редагувати", for a signed-in reader who may edit it (null for everyone else).
  const editUrl = await staffEditUrl(request, found.article.id);
  return { article, related, comments, editUrl };
}

export default function ArticlePage() {
  const { article, related, comments } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  return (
    <>
      <ArticleView article={article} related={related} />
      {comments ? <CommentsSection section={comments} result={result} /> : null}
    </>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data, matches, location }) => {
  const site = siteFromMatches(matches);
  if (!data) return buildMeta(site, { title: "Article not found", path: location.pathname, robots: "noindex, follow" });
  const a = data.article;
  return buildMeta(site, {
    title: a.seo_title || a.title,
    description: a.seo_description || a.subtitle,
    path: a.canonical_url || `/article/${a.slug}`,
    image: a.og_image || a.image,
    type: "article",
    publishedTime: a.published_at,
    modifiedTime: latest(a.updated_at, a.published_at),
    section: a.category_name,
    tags: a.tags,
    keywords: a.meta_keywords,
    // Issue 29: the article's own "не індексувати" switch.
    ...(a.noindex && { robots: "noindex, follow" }),
  });
};

export function ErrorBoundary() {
  const error = useRouteError();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return (
    <section className="page-error">
      <h1>{notFound ? "Статтю не знайдено" : "Помилка"}</h1>
      <p>{notFound ? "Можливо, її перенесли або видалили." : "Не вдалося завантажити статтю. Спробуйте оновити сторінку."}</p>
      {/* SPEC's error texts stay on the page, in small print and marked as English. */}
      <p className="page-error-code" lang="en">
        {notFound ? "Article not found" : "Error loading article"}
      </p>
      <p>
        <Link to="/" className="button button-primary">
          На головну
        </Link>
      </p>
    </section>
  );
}
