import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { PublicError } from "~/components/public/page-error";
import { getPublishedPage } from "~/models/page.server";
import { buildMeta, siteFromMatches } from "~/utils/seo-meta";

// A static page (issue 31 item 5, DESIGN §17): About, Contact, … while published; a draft is 404.
// Kept in the page store (app/page-store/page-key.server.ts); any page change empties the store.
export async function loader({ params }: LoaderFunctionArgs) {
  const page = await getPublishedPage({ slug: params.slug ?? "" });
  if (!page) throw new Response("Not found", { status: 404 });
  return { page: { title: page.title, slug: page.slug, html: page.body_html, seo_title: page.seo_title, seo_description: page.seo_description } };
}

export default function StaticPage() {
  const { page } = useLoaderData<typeof loader>();
  return (
    <article className="static-page">
      <header className="listing-header">
        <h1>{page.title}</h1>
      </header>
      <div className="article-body" dangerouslySetInnerHTML={{ __html: page.html }} />
    </article>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data, matches, location }) => {
  const site = siteFromMatches(matches);
  if (!data) return buildMeta(site, { title: "Сторінку не знайдено", path: location.pathname, robots: "noindex, follow" });
  return buildMeta(site, { title: data.page.seo_title || data.page.title, description: data.page.seo_description, path: `/page/${data.page.slug}` });
};

export function ErrorBoundary() {
  return <PublicError />;
}
