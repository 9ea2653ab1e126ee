import type { PublicArticle } from "~/models/public-article.server";
import { formatPublicDate, formatPublicDateTime } from "~/utils/public-format";
import { SOURCE_KIND_LABELS } from "~/utils/science-rules";

// Issue 29 items 3–5 (DESIGN §16) on the article page (article-view.tsx): "Оновлено" and the
// corrections ("Виправлено {date}: {note}", newest first), the "Джерела" box, the structured data
// they add (`correction`, `citation`) and the preview's embargo banner.

type Science = Pick<PublicArticle, "updated_significantly_at" | "corrections" | "sources">;

/** "Оновлено …" and every correction, newest first; nothing when there is neither. */
export function ArticleUpdates({ article }: { article: Science }) {
  if (!article.updated_significantly_at && !article.corrections.length) return null;
  return (
    <div className="article-updates" data-testid="article-updates">
      {article.updated_significantly_at ? (
        <p className="article-updated">
          Оновлено <time dateTime={article.updated_significantly_at}>{formatPublicDateTime(article.updated_significantly_at)}</time>
        </p>
      ) : null}
      {article.corrections.length ? (
        <ul className="article-corrections" aria-label="Виправлення">
          {article.corrections.map((c) => (
            <li key={`${c.created_at}-${c.note}`}>
              Виправлено <time dateTime={c.created_at}>{formatPublicDate(c.created_at)}</time>: {c.note}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

const doiUrl = (doi: string) => `https://doi.org/${doi.split("/").map(encodeURIComponent).join("/")}`;

/** The "Джерела" box; a preprint is marked "без рецензування". */
export function ArticleSources({ sources }: { sources: Science["sources"] }) {
  if (!sources.length) return null;
  return (
    <aside className="article-sources" aria-labelledby="sources-title" data-testid="article-sources">
      <h2 id="sources-title">Джерела</h2>
      <ol>
        {sources.map((s, i) => {
          const href = s.url ?? (s.doi ? doiUrl(s.doi) : null);
          return (
            <li key={i}>
              {href ? (
                <a href={href} rel="noopener noreferrer nofollow" target="_blank">
                  {s.title}
                </a>
              ) : (
                s.title
              )}
              {s.publisher ? <span>, {s.publisher}</span> : null}
              {s.year ? <span>, {s.year}</span> : null}
              <span className="source-kind"> · {SOURCE_KIND_LABELS[s.kind]}</span>
              {s.peer_reviewed === false ? <strong className="source-preprint"> · без рецензування</strong> : null}
              {s.doi ? (
                <span className="source-doi">
                  {" "}
                  · DOI: <a href={doiUrl(s.doi)}>{s.doi}</a>
                </span>
              ) : null}
            </li>
          );
        })}
      </ol>
    </aside>
  );
}

/** The structured data issue 29 adds to the NewsArticle: its corrections and its sources. */
export function scienceJsonLd(article: Science) {
  return {
    correction: article.corrections.length
      ? article.corrections.map((c) => ({ "@type": "CorrectionComment", text: c.note, datePublished: c.created_at }))
      : undefined,
    citation: article.sources.length
      ? article.sources.map((s) => ({
          "@type": s.kind === "dataset" ? "Dataset" : s.kind === "study" ? "ScholarlyArticle" : "CreativeWork",
          name: s.title,
          ...(s.doi && { identifier: `https://doi.org/${s.doi}`, sameAs: `https://doi.org/${s.doi}` }),
          ...(s.url && { url: s.url }),
          ...(s.publisher && { publisher: { "@type": "Organization", name: s.publisher } }),
          ...(s.year && { datePublished: String(s.year) }),
        }))
      : undefined,
  };
}

/** The preview link's banner for an article under embargo (`until`: null once it has lifted). */
export function EmbargoBanner({ until }: { until: string | null }) {
  if (!until) return null;
  return (
    <p className="preview-banner embargo-banner" role="alert" data-testid="embargo-banner">
      ПІД ЕМБАРГО до {formatPublicDateTime(until)} (за київським часом): не публікуйте й не поширюйте до цього часу.
    </p>
  );
}
