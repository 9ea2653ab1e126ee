import { xml } from "remix-utils/responses";
import { buildSitemap } from "~/services/feeds.server";

// SPEC §7: the sitemap submitted to Search Console; the same document as /sitemap.xml (the index
// once the site outgrows one file, whose files are at the root).
export async function loader() {
  return xml(await buildSitemap());
}
