import { Link, useRouteLoaderData } from "@remix-run/react";
import { useEffect, useRef } from "react";
import type { PublicArticle } from "~/models/public-article.server";
import type { loader as layoutLoader } from "~/routes/_public";
import type { PublicSite } from "~/services/public-site.server";
import { useDocumentHtml } from "~/utils/document-html";
import { responsiveImage } from "~/utils/media-url";
import { formatViews } from "~/utils/public-format";
import { jsonLd } from "~/utils/seo-meta";
import { ArticleSources, ArticleUpdates, scienceJsonLd } from "./article-science";
import { ArticleShare } from "./article-share";
import { BylineNames } from "./byline-names";
import { CategoryBadge, TileCard } from "./cards";

// The article as readers see it (SPEC §2 'Article page'): the public article route and the
// preview link page (issue 15, /preview/{token}) render this same component.

/** The body's element, where the browser finds a document's body (useDocumentHtml). */
const BODY_ID = "article-body";

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
export function latest(a: string | null | undefined, b: string | null | undefined) {
  if (!a) return b ?? undefined;
  if (!b) return a;
  return a > b ? a : b;
}

/** The article as its page's data has it: content_html is null when the served page's markup carries it (useDocumentHtml). */
type ShownArticle = Omit<PublicArticle, "content_html"> & { content_html: string | null };

function articleJsonLd(site: PublicSite, a: ShownArticle) {
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
    author: a.authors.length
      ? a.authors.map((b) => ({ "@type": "Person", name: b.name, url: `${site.baseUrl}${b.url}` }))
      : a.author
        ? { "@type": "Person", name: a.author }
        : undefined,
    ...scienceJsonLd(a), // issue 29: corrections and citations
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

/** `preview`: a draft shown by a preview link: no share buttons, no structured data. */
export function ArticleView({
  article,
  related,
  preview = false,
}: {
  article: ShownArticle;
  related: Parameters<typeof TileCard>[0]["card"][];
  preview?: boolean;
}) {
  const layout = useRouteLoaderData<typeof layoutLoader>("routes/_public");
  const html = useDocumentHtml(article.id, article.content_html, BODY_ID);
  const body = useImageErrorNotes(html);
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
          {article.authors.length || article.author ? (
            <>
              <BylineNames authors={article.authors} fallback={article.author} />
              <span aria-hidden="true"> · </span>
            </>
          ) : null}
          <span>{formatViews(article.views)} переглядів</span>
        </p>
        <ArticleUpdates article={article} />
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
      {html ? (
        // content_html was sanitised when the article was saved (DESIGN §9).
        <div ref={body} id={BODY_ID} className="article-body" dangerouslySetInnerHTML={{ __html: html }} />
      ) : (
        <p className="article-unavailable">Зміст статті недоступний: можливо, її ще не опубліковано або вже видалено.</p>
      )}
      <ArticleSources sources={article.sources} />
      {article.tags.length ? (
        <ul className="article-tags" aria-label="Теги">
          {article.tag_links.map((t) => (
            <li key={t.name}>
              <Link to={t.slug ? `/tag/${encodeURIComponent(t.slug)}` : `/search?q=${encodeURIComponent(t.name)}`}>#{t.name}</Link>
            </li>
          ))}
        </ul>
      ) : null}
      {layout && !preview ? <ArticleShare url={`${layout.site.baseUrl}/article/${article.slug}`} title={article.title} /> : null}
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
      {layout && !preview ? <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: jsonLd(articleJsonLd(layout.site, article)) }} /> : null}
    </article>
  );
}
