import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { CardLink, ListCard, Meta } from "~/components/public/cards";
import { MarkedText } from "~/components/public/marked-text";
import { PublicError } from "~/components/public/page-error";
import { Pagination } from "~/components/public/pagination";
import { searchArticles } from "~/models/article-search.server";
import { countPublished } from "~/models/article.server";
import { listLatestCards } from "~/models/public-article.server";
import { getSettings } from "~/models/settings.server";
import { showsArticles } from "~/page-store/page-cache.server";
import { pageParam } from "~/utils/paging";
import { buildMeta, siteFromMatches } from "~/utils/seo-meta";

// Full-text search (issue 3 'Search'). Without a query it lists all news, newest first (the
// 'ALL SCIENCE NEWS' button leads here). Any input gives a normal page: see search-text.server.ts.
export async function loader({ request, context }: LoaderFunctionArgs) {
  const q = (new URL(request.url).searchParams.get("q") ?? "").slice(0, 200);
  const { posts_per_page: perPage } = await getSettings("content");
  const page = pageParam(request);
  if (!q.trim()) {
    const [cards, total] = await Promise.all([listLatestCards({ limit: perPage, offset: (page - 1) * perPage }), countPublished()]);
    showsArticles(context, cards);
    return { q, page, pages: Math.max(1, Math.ceil(total / perPage)), total, capped: false, hits: [], latest: cards };
  }
  const { hits, total, capped } = await searchArticles({ q, page, perPage });
  showsArticles(context, hits);
  return { q, page, pages: Math.max(1, Math.ceil(total / perPage)), total, capped, hits, latest: [] };
}

export default function SearchPage() {
  const { q, page, pages, total, capped, hits, latest } = useLoaderData<typeof loader>();
  const searching = q.trim() !== "";
  return (
    <div className="search-page">
      <header className="listing-header">
        <h1>{searching ? `Пошук: «${q}»` : "Усі новини"}</h1>
        <Form method="get" action="/search" role="search" className="search-form">
          <label htmlFor="search-q" className="sr-only">
            Пошук по статтях
          </label>
          <input id="search-q" type="search" name="q" defaultValue={q} key={q} placeholder="Наприклад: вакцини, космос, штучний інтелект" maxLength={200} />
          <button type="submit" className="button button-primary">
            Шукати
          </button>
        </Form>
        {searching ? (
          <p className="muted" role="status">
            {total ? `Знайдено статей: ${capped ? `понад ${total}` : total}` : "Нічого не знайдено. Спробуйте інші слова."}
          </p>
        ) : null}
      </header>
      {searching ? (
        <ol className="search-results">
          {hits.map((hit) => (
            <li key={hit.id} className="search-hit">
              <h2 className="search-hit-title">
                <CardLink card={hit}>
                  <MarkedText text={hit.title_marked} />
                </CardLink>
              </h2>
              {hit.snippet ? (
                <p className="search-snippet">
                  <MarkedText text={hit.snippet} />
                </p>
              ) : null}
              <p className="card-meta">
                <span className="badge">{hit.category || "News"}</span>
              </p>
              <Meta card={hit} />
            </li>
          ))}
        </ol>
      ) : (
        <div className="list-cards">
          {latest.map((c) => (
            <ListCard key={c.id} card={c} headingLevel={2} />
          ))}
        </div>
      )}
      <Pagination
        page={page}
        pages={pages}
        href={(n) => `/search?${new URLSearchParams({ ...(searching ? { q } : {}), ...(n > 1 ? { page: String(n) } : {}) })}`}
      />
      {searching && !total ? (
        <p>
          <Link to="/search">Переглянути всі новини</Link>
        </p>
      ) : null}
    </div>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) =>
  buildMeta(siteFromMatches(matches), {
    title: data?.q ? `Пошук: ${data.q}` : "Усі новини",
    path: "/search",
    // Result pages are not for indexing; the listing of all news is.
    robots: data?.q ? "noindex, follow" : undefined,
  });

export function ErrorBoundary() {
  return <PublicError />;
}
