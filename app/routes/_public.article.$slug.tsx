import { redirect, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { isRouteErrorResponse, Link, useLoaderData, useRouteError, useRouteLoaderData } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { ArticleShare } from "~/components/public/article-share";
import { CategoryBadge, TileCard } from "~/components/public/cards";
import { getPublicArticle, listRelatedArticles, type PublicArticle } from "~/models/public-article.server";
import type { PublicSite } from "~/services/public-site.server";
import { responsiveImage } from "~/utils/media-url";
import { formatViews } from "~/utils/public-format";
import { buildMeta, jsonLd, siteFromMatches } from "~/utils/seo-meta";
import type { loader as layoutLoader } from "./_public";

// SPEC §2 'Article page'. The body is the HTML sanitised when the article was saved (DESIGN §9):
// nothing is parsed or sanitised here. Views are counted by the server middleware, not here.
export async function loader({ params }: LoaderFunctionArgs) {
  const slug = params.slug ?? "";
  const found = await getPublicArticle({ slugOrId: slug });
  if (!found) throw new Response("Article not found", { status: 404 });
  if (!found.article) throw redirect(`/article/${encodeURIComponent(found.redirectTo)}`, 301);
  const related = await listRelatedArticles({ id: found.article.id, categoryId: found.article.category_id });
  return { article: found.article, related };
}

/** SPEC §5: a failed article image is replaced by the note 'Failed to load image: {alt}'. */
function useImageErrorNotes(html: string) {
  const body = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const root = body.current;
    if (!root) return;
    const fail = (img: HTMLImageElement) => {
      if (img.dataset.failed) return;
      img.dataset.failed = "1";
      // A span, not a <p>: the image usually sits inside a paragraph, and <p> cannot nest.
      const note = document.createElement("span");
      note.className = "image-error";
      note.setAttribute("role", "note");
      note.textContent = `Failed to load image: ${img.alt || "Image in article"}`;
      img.replaceWith(note);
    };
    const images = Array.from(root.querySelectorAll("img"));
    const listeners = images.map((img) => {
      const onError = () => fail(img);
      // An image that failed before hydration has already fired its error event.
      if (img.complete && img.naturalWidth === 0 && img.getAttribute("src")) fail(img);
      else img.addEventListener("error", onError);
      return () => img.removeEventListener("error", onError);
    });
    return () => listeners.forEach((remove) => remove());
  }, [html]);
  return body;
}

/** The later of two ISO times (UTC strings compare in time order): dateModified never precedes datePublished. */
function latest(a: string | null | undefined, b: string | null | undefined) {
  if (!a) return b ?? undefined;
  if (!b) return a;
  return a > b ? a : b;
}

function articleJsonLd(site: PublicSite, a: PublicArticle) {
  const url = `${site.baseUrl}/article/${a.slug}`;
  const image = a.image ? (a.image.startsWith("http") ? a.image : `${site.baseUrl}${a.image}`) : site.ogImage;
  return {
    "@context": "https://schema.org",
    "@type": "NewsArticle",
    headline: a.seo_title || a.title,
    description: a.seo_description || a.subtitle || undefined,
    image: [image],
    datePublished: a.published_at ?? undefined,
    dateModified: latest(a.updated_at, a.published_at),
    author: { "@type": "Person", name: a.author },
    articleSection: a.category_name ?? undefined,
    keywords: a.tags.length ? a.tags.join(", ") : undefined,
    mainEntityOfPage: url,
    url,
    publisher: {
      "@type": "NewsMediaOrganization",
      name: site.title,
      url: `${site.baseUrl}/`,
      logo: { "@type": "ImageObject", url: `${site.baseUrl}/favicon.ico` },
    },
  };
}

export default function ArticlePage() {
  const { article, related } = useLoaderData<typeof loader>();
  const layout = useRouteLoaderData<typeof layoutLoader>("routes/_public");
  const body = useImageErrorNotes(article.content_html);
  const card = { category: article.category_name, category_slug: article.category_slug } as Parameters<typeof CategoryBadge>[0]["card"];
  return (
    <article className="article">
      <header className="article-header">
        <p className="article-badges">
          <CategoryBadge card={card} />
          <time dateTime={article.published_at ?? undefined}>{article.published_time ?? article.time}</time>
          <span className="reading-time">{article.reading_minutes} хв читання</span>
        </p>
        <h1 className="article-title">{article.title}</h1>
        {article.subtitle ? <p className="article-subtitle">{article.subtitle}</p> : null}
        <p className="card-meta">
          <span>{article.author}</span>
          <span aria-hidden="true"> · </span>
          <span>{formatViews(article.views)} переглядів</span>
        </p>
      </header>
      {article.image ? (
        <figure className="article-image">
          <img
            {...responsiveImage(article.image, "(max-width: 900px) 100vw, 860px")}
            alt={article.image_alt || article.title}
            width={1200}
            height={675}
            // The hero is the page's largest paint (Lighthouse LCP): fetched first, never lazily.
            loading="eager"
            {...{ fetchpriority: "high" }}
            decoding="async"
          />
          {article.image_caption ? <figcaption>{article.image_caption}</figcaption> : null}
        </figure>
      ) : null}
      {article.content_html ? (
        // content_html was sanitised when the article was saved (DESIGN §9).
        <div ref={body} className="article-body" dangerouslySetInnerHTML={{ __html: article.content_html }} />
      ) : (
        <p className="article-unavailable">Зміст статті недоступний: можливо, її ще не опубліковано або вже видалено.</p>
      )}
      {article.tags.length ? (
        <ul className="article-tags" aria-label="Теги">
          {article.tags.map((t) => (
            <li key={t}>
              <Link to={`/search?q=${encodeURIComponent(t)}`}>#{t}</Link>
            </li>
          ))}
        </ul>
      ) : null}
      {layout ? <ArticleShare url={`${layout.site.baseUrl}/article/${article.slug}`} title={article.title} /> : null}
      {related.length ? (
        <section className="article-related" aria-labelledby="related-title">
          <h2 id="related-title">Читайте також</h2>
          <div className="related-grid">
            {related.map((card) => (
              <TileCard key={card.id} card={card} />
            ))}
          </div>
        </section>
      ) : null}
      {layout ? <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: jsonLd(articleJsonLd(layout.site, article)) }} /> : null}
    </article>
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
