import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { PublicError } from "~/components/public/page-error";
import { Pagination } from "~/components/public/pagination";
import { CORRECTIONS_PER_PAGE, listSiteCorrections } from "~/models/corrections.server";
import { showsArticles } from "~/page-store/page-cache.server";
import { pageParam } from "~/utils/paging";
import { formatPublicDate } from "~/utils/public-format";
import { buildMeta, siteFromMatches } from "~/utils/seo-meta";

// Issue 29 item 3 (DESIGN §16): every correction on the site, newest first, with its RSS feed.
export async function loader({ request, context }: LoaderFunctionArgs) {
  const page = pageParam(request);
  const { data, total } = await listSiteCorrections({ skip: (page - 1) * CORRECTIONS_PER_PAGE });
  const pages = Math.max(1, Math.ceil(total / CORRECTIONS_PER_PAGE));
  if (page > pages) throw new Response("Not found", { status: 404 });
  showsArticles(
    context,
    data.map((c) => c.article),
  );
  return { corrections: data, page, pages, total };
}

export default function CorrectionsPage() {
  const { corrections, page, pages } = useLoaderData<typeof loader>();
  return (
    <div className="main-column">
      <header className="listing-header">
        <h1>Виправлення</h1>
        <p className="muted">
          Усі виправлення наших статей, від найновішого. <a href="/corrections/rss.xml">RSS-стрічка виправлень</a>
        </p>
      </header>
      {corrections.length ? (
        <ol className="corrections-list">
          {corrections.map((c) => (
            <li key={c.id}>
              <Link to={`/article/${c.article.slug}`}>{c.article.title}</Link>
              <p>
                Виправлено <time dateTime={c.created_at}>{formatPublicDate(c.created_at)}</time>: {c.note}
              </p>
            </li>
          ))}
        </ol>
      ) : (
        <p className="muted">Виправлень поки немає.</p>
      )}
      <Pagination page={page} pages={pages} href={(n) => (n === 1 ? "/corrections" : `/corrections?page=${n}`)} />
    </div>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data, matches, location }) => {
  const site = siteFromMatches(matches);
  if (!data) return buildMeta(site, { title: "Сторінку не знайдено", path: location.pathname, robots: "noindex, follow" });
  return buildMeta(site, {
    title: data.page > 1 ? `Виправлення — сторінка ${data.page}` : "Виправлення",
    description: "Усі виправлення статей сайту, від найновішого",
    path: data.page > 1 ? `/corrections?page=${data.page}` : "/corrections",
  });
};

export function ErrorBoundary() {
  return <PublicError />;
}
