import { xml } from "remix-utils/responses";
import { buildRss } from "~/services/feeds.server";

export async function loader() {
  return xml(await buildRss(), { headers: { "Content-Type": "application/rss+xml; charset=utf-8" } });
}
