import type { LoaderFunctionArgs } from "@remix-run/node";
import { xml } from "remix-utils/responses";
import { buildSitemap, buildSitemapFile } from "~/services/feeds.server";

// The sitemap, or its index once the site outgrows one file; `?file=` is one of the index's files,
// which go by their own names at the root (/sitemap-articles-2.xml: sitemapFileUrl, server/app.ts).
export async function loader({ request }: LoaderFunctionArgs) {
  const file = new URL(request.url).searchParams.get("file");
  if (file === null) return xml(await buildSitemap());
  const sitemap = await buildSitemapFile(file);
  if (sitemap === undefined) throw new Response("Not found", { status: 404 });
  return xml(sitemap);
}
