import type { LoaderFunctionArgs } from "@remix-run/node";
import { xml } from "remix-utils/responses";
import { showsArticles } from "~/page-store/page-cache.server";
import { buildTagRss } from "~/services/listing-feeds.server";

// GET /tag/{slug}/rss.xml (issue 29): the tag's newest indexable articles.
export async function loader({ params, context }: LoaderFunctionArgs) {
  const rss = await buildTagRss(params.slug ?? "");
  if (!rss) throw new Response("Not found", { status: 404 });
  showsArticles(context, rss.articles);
  return xml(rss.xml, { headers: { "Content-Type": "application/rss+xml; charset=utf-8" } });
}
