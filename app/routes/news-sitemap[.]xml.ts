import { xml } from "remix-utils/responses";
import { CACHE_CONTROL } from "~/page-store/page-cache.server";
import { buildNewsSitemap } from "~/services/listing-feeds.server";

// GET /news-sitemap.xml (issue 29, DESIGN §16): the Google News sitemap of the last 48 hours. Not
// kept in the page store: its window moves with the clock, not with a write (at most 1,000 rows).
export async function loader() {
  return xml(await buildNewsSitemap(), { headers: { "Cache-Control": CACHE_CONTROL.feed } });
}
