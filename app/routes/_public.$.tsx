import { data, redirect, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { HomePage } from "~/components/public/home-page";
import { findRedirect } from "~/import/sources.server";
import { loadHome } from "~/services/public-home.server";
import { buildMeta, siteFromMatches } from "~/utils/seo-meta";
import type { loader as layoutLoader } from "./_public";

// Any other path (SPEC §2): the home-style fallback, but answered with 404 so search engines do
// not index junk URLs.
export async function loader({ request }: LoaderFunctionArgs) {
  // An imported site's old address (issue 27): one primary-key read, only on the way to a 404.
  const url = new URL(request.url);
  const moved = await findRedirect(url.pathname + url.search);
  if (moved) throw redirect(moved, 301);
  return data({ home: await loadHome() }, { status: 404 });
}

export default function NotFoundFallback() {
  const { home } = useLoaderData<typeof loader>();
  const layout = useRouteLoaderData<typeof layoutLoader>("routes/_public");
  if (!layout) return null;
  return (
    <HomePage
      site={layout.site}
      home={home}
      notice={
        <div className="notice" role="status">
          <h1>Сторінку не знайдено</h1>
          <p>Такої адреси на сайті немає. Ось найсвіжіші новини.</p>
        </div>
      }
    />
  );
}

export const meta: MetaFunction = ({ matches, location }) =>
  buildMeta(siteFromMatches(matches), { title: "Сторінку не знайдено", path: location.pathname, robots: "noindex, follow" });
