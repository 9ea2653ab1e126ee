import { db } from "../../db/index";
import { getPublicMenus } from "../models/menu.server";

// What the page store renders by itself at start and after a deploy (issue 30, docs/decisions/032),
// in the order readers need it: the home and its feed, the pages the menus link to (categories,
// static pages), the 1,000 most read
// and the 1,000 newest articles, then every other published article, newest first. Keys as
// publicPage (./page-key.server.ts) makes them; the store skips those it already holds.

/** The articles taken first by reads and by date (issue 30 item 1). */
export const WARM_FIRST = 1_000;
/** Articles read from the database per query while walking the rest. */
const BATCH = 1_000;

const articleKey = (slug: string) => `/article/${encodeURIComponent(slug)}`;

/** The keys to warm, most wanted first; each at most once. Reads the database in batches as it is walked. */
export async function* warmKeys(): AsyncGenerator<string> {
  const seen = new Set<string>();
  const fresh = function* (keys: Iterable<string>) {
    for (const key of keys) {
      if (seen.has(key)) continue;
      seen.add(key);
      yield key;
    }
  };
  yield* fresh(["/", "/rss.xml"]);
  const menus = await getPublicMenus();
  yield* fresh([...menus.header, ...menus.footer].filter((link) => !link.external && link.href.startsWith("/")).map((link) => link.href));
  const published = () => db.selectFrom("articles").select("slug").where("status", "=", "published");
  const mostRead = await published().orderBy("views", "desc").orderBy("published_at", "desc").limit(WARM_FIRST).execute();
  yield* fresh(mostRead.map((r) => articleKey(r.slug)));
  for (let offset = 0; ; offset += BATCH) {
    // Newest first over the (status, published_at) index; the first batch is the newest 1,000.
    const rows = await published().orderBy("published_at", "desc").orderBy("id", "desc").offset(offset).limit(BATCH).execute();
    yield* fresh(rows.map((r) => articleKey(r.slug)));
    if (rows.length < BATCH) return;
  }
}
