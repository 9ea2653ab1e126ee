import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { ListCard } from "~/components/public/cards";
import { PublicError } from "~/components/public/page-error";
import { Pagination } from "~/components/public/pagination";
import { getTagBySlug, listTagCards } from "~/models/listing-pages.server";
import { getSettings } from "~/models/settings.server";
import { showsArticles } from "~/page-store/page-cache.server";
import { pageParam } from "~/utils/paging";
import { buildMeta, siteFromMatches } from "~/utils/seo-meta";

// A tag's page (issue 29, DESIGN §16): its published articles, newest first, paged, with a feed.
export async function loader({ params, request, context }: LoaderFunctionArgs) {
  const tag = await getTagBySlug(params.slug ?? "");
  if (!tag?.slug) throw new Response("Not found", { status: 404 });
  const { posts_per_page: perPage } = await getSettings("content");
  const page = pageParam(request);
  const { cards, total } = await listTagCards(tag.id, { page, perPage });
  const pages = Math.max(1, Math.ceil(total / perPage));
  if (page > pages || total === 0) throw new Response("Not found", { status: 404 });
  showsArticles(context, cards);
  return { tag: { name: tag.name, slug: tag.slug }, cards, total, page, pages };
}

export default function TagPage() {
  const { tag, cards, total, page, pages } = useLoaderData<typeof loader>();
  const path = `/tag/${encodeURIComponent(tag.slug)}`;
  return (
    <div className="listing-page tag-page">
      <header className="listing-header">
        <h1>#{tag.name}</h1>
        <p className="muted">
          Статей: {total} · <a href={`${path}/rss.xml`}>RSS тегу</a>
        </p>
      </header>
      <div className="list-cards">
        {cards.map((c) => (
          <ListCard key={c.id} card={c} headingLevel={2} />
        ))}
      </div>
      <Pagination page={page} pages={pages} href={(n) => (n === 1 ? path : `${path}?page=${n}`)} />
    </div>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data, matches, location }) => {
  const site = siteFromMatches(matches);
  if (!data) return buildMeta(site, { title: "Тег не знайдено", path: location.pathname, robots: "noindex, follow" });
  const path = `/tag/${encodeURIComponent(data.tag.slug)}`;
  return [
    ...buildMeta(site, {
      title: `#${data.tag.name}${data.page > 1 ? ` — сторінка ${data.page}` : ""}`,
      description: `Статті з тегом «${data.tag.name}»`,
      path: data.page > 1 ? `${path}?page=${data.page}` : path,
    }),
    { tagName: "link", rel: "alternate", type: "application/rss+xml", title: `#${data.tag.name} — RSS`, href: `${path}/rss.xml` },
  ];
};

export function ErrorBoundary() {
  return <PublicError />;
}
