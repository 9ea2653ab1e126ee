import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { ListCard } from "~/components/public/cards";
import { NewsFeed } from "~/components/public/home-blocks";
import { PublicError } from "~/components/public/page-error";
import { Pagination } from "~/components/public/pagination";
import { getCategoryBySlug } from "~/models/category.server";
import { listCategoryCards, listLatestCards } from "~/models/public-article.server";
import { getSettings } from "~/models/settings.server";
import { showsArticles } from "~/page-store/page-cache.server";
import { pageParam } from "~/utils/paging";
import { buildMeta, siteFromMatches } from "~/utils/seo-meta";

// Home-style listing of one category, newest first, paged by the posts-per-page setting.
export async function loader({ params, request, context }: LoaderFunctionArgs) {
  const category = await getCategoryBySlug({ slug: params.slug ?? "" });
  if (!category) throw new Response("Not found", { status: 404 });
  const { posts_per_page: perPage } = await getSettings("content");
  const page = pageParam(request);
  const [{ cards, total }, feed] = await Promise.all([listCategoryCards({ categoryId: category.id, page, perPage }), listLatestCards({ limit: 5 })]);
  const pages = Math.max(1, Math.ceil(total / perPage));
  if (page > pages) throw new Response("Not found", { status: 404 });
  showsArticles(context, [...cards, ...feed]);
  return { category: { name: category.name, slug: category.slug, description: category.description }, cards, total, page, pages, feed };
}

export default function CategoryPage() {
  const { category, cards, page, pages, feed } = useLoaderData<typeof loader>();
  return (
    <div className="with-sidebar">
      <div className="main-column">
        <header className="listing-header">
          <h1>{category.name}</h1>
          {category.description ? <p className="muted">{category.description}</p> : null}
        </header>
        {cards.length ? (
          <div className="list-cards">
            {cards.map((c) => (
              <ListCard key={c.id} card={c} headingLevel={2} />
            ))}
          </div>
        ) : (
          <p className="muted">У цій рубриці ще немає опублікованих статей.</p>
        )}
        <Pagination page={page} pages={pages} href={(n) => (n === 1 ? `/category/${category.slug}` : `/category/${category.slug}?page=${n}`)} />
      </div>
      <aside className="sidebar">
        <NewsFeed cards={feed} />
      </aside>
    </div>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data, matches, location }) => {
  const site = siteFromMatches(matches);
  if (!data) return buildMeta(site, { title: "Сторінку не знайдено", path: location.pathname, robots: "noindex, follow" });
  const suffix = data.page > 1 ? ` — сторінка ${data.page}` : "";
  return buildMeta(site, {
    title: `${data.category.name}${suffix}`,
    description: data.category.description,
    path: data.page > 1 ? `/category/${data.category.slug}?page=${data.page}` : `/category/${data.category.slug}`,
  });
};

export function ErrorBoundary() {
  return <PublicError />;
}
