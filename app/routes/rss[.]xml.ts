import type { LoaderFunctionArgs } from "@remix-run/node";
import { xml } from "remix-utils/responses";
import { showsArticles } from "~/page-store/page-cache.server";
import { buildRss } from "~/services/feeds.server";

export async function loader({ context }: LoaderFunctionArgs) {
  const rss = await buildRss();
  showsArticles(context, rss.articles);
  return xml(rss.xml, { headers: { "Content-Type": "application/rss+xml; charset=utf-8" } });
}
