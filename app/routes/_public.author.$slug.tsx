import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { ListCard } from "~/components/public/cards";
import { PublicError } from "~/components/public/page-error";
import { Pagination } from "~/components/public/pagination";
import { getAuthorBySlug, listAuthorCards } from "~/models/listing-pages.server";
import { getSettings } from "~/models/settings.server";
import { showsArticles } from "~/page-store/page-cache.server";
import { pageParam } from "~/utils/paging";
import { buildMeta, jsonLd, siteFromMatches } from "~/utils/seo-meta";
import type { loader as layoutLoader } from "./_public";

// An author's page (issue 29, DESIGN §16): photo, name, role, bio, links, their articles paged, a feed.
export async function loader({ params, request, context }: LoaderFunctionArgs) {
  const author = await getAuthorBySlug(params.slug ?? "");
  if (!author) throw new Response("Not found", { status: 404 });
  const { posts_per_page: perPage } = await getSettings("content");
  const page = pageParam(request);
  const { cards, total } = await listAuthorCards(author, { page, perPage });
  const pages = Math.max(1, Math.ceil(total / perPage));
  if (page > pages) throw new Response("Not found", { status: 404 });
  showsArticles(context, cards);
  const { id: _id, ...shown } = author;
  return { author: shown, cards, total, page, pages };
}

export default function AuthorPage() {
  const { author, cards, total, page, pages } = useLoaderData<typeof loader>();
  const layout = useRouteLoaderData<typeof layoutLoader>("routes/_public");
  const path = `/author/${encodeURIComponent(author.slug)}`;
  const base = layout?.site.baseUrl ?? "";
  const person = {
    "@context": "https://schema.org",
    "@type": "Person",
    name: author.name,
    url: `${base}${path}`,
    jobTitle: author.role,
    description: author.bio ?? undefined,
    image: author.photo ? (author.photo.startsWith("http") ? author.photo : `${base}${author.photo}`) : undefined,
    sameAs: author.links.length ? author.links.map((l) => l.url) : undefined,
  };
  return (
    <div className="listing-page author-page">
      <header className="listing-header author-header">
        {author.photo ? <img className="author-photo" src={author.photo} alt={`Фото: ${author.name}`} width={120} height={120} /> : null}
        <div>
          <h1>{author.name}</h1>
          <p className="author-role muted">{author.role}</p>
          {author.bio ? <p className="author-bio">{author.bio}</p> : null}
          {author.links.length ? (
            <ul className="author-links" aria-label="Посилання">
              {author.links.map((l) => (
                <li key={l.url}>
                  <a href={l.url} rel="me noopener noreferrer">
                    {l.label}
                  </a>
                </li>
              ))}
            </ul>
          ) : null}
          <p className="muted">
            Статей: {total} · <a href={`${path}/rss.xml`}>RSS автора</a>
          </p>
        </div>
      </header>
      {cards.length ? (
        <div className="list-cards">
          {cards.map((c) => (
            <ListCard key={c.id} card={c} headingLevel={2} />
          ))}
        </div>
      ) : (
        <p className="muted">У цього автора ще немає опублікованих статей.</p>
      )}
      <Pagination page={page} pages={pages} href={(n) => (n === 1 ? path : `${path}?page=${n}`)} />
      <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: jsonLd(person) }} />
    </div>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data, matches, location }) => {
  const site = siteFromMatches(matches);
  if (!data) return buildMeta(site, { title: "Автора не знайдено", path: location.pathname, robots: "noindex, follow" });
  const path = `/author/${encodeURIComponent(data.author.slug)}`;
  return [
    ...buildMeta(site, {
      title: `${data.author.name}${data.page > 1 ? ` — сторінка ${data.page}` : ""}`,
      description: data.author.bio || `${data.author.role}: статті автора ${data.author.name}`,
      path: data.page > 1 ? `${path}?page=${data.page}` : path,
      image: data.author.photo,
    }),
    { tagName: "link", rel: "alternate", type: "application/rss+xml", title: `${data.author.name} — RSS`, href: `${path}/rss.xml` },
  ];
};

export function ErrorBoundary() {
  return <PublicError />;
}
