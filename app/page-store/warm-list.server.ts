import { randomUUID } from "node:crypto";
import { db } from "../../db/index";
import { getPublicMenus } from "../models/menu.server";
import type { PageStore } from "./page-store.server";

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
  // Only the head of the list (home, menus, the most read) is remembered: the walk over every
  // article meets each slug once, so at 100,000 articles it holds 1,000 keys, not 100,000.
  const seen = new Set<string>();
  const fresh = function* (keys: Iterable<string>, remember = true) {
    for (const key of keys) {
      if (seen.has(key)) continue;
      if (remember) seen.add(key);
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
    yield* fresh(
      rows.map((r) => articleKey(r.slug)),
      false,
    );
    if (rows.length < BATCH) return;
  }
}

// The warm-up lease is renewed this often while the walk goes on (it lasts 30 s, page-store.server.ts).
const LEASE_RENEW_MS = 10_000;

/** WarmWalk.next: another process of the box holds the lease. */
export const LEASED_ELSEWHERE = Symbol("leased elsewhere");
/** WarmWalk.next: the walk has just ended (said once). */
export const WALK_DONE = Symbol("walk done");

/**
 * The box's warm-up as one process walks it (docs/decisions/032): the lease in pages.db first
 * (renewed while walking), then the warm list's keys the store does not hold yet.
 */
export class WarmWalk {
  private walk: AsyncGenerator<string> | undefined;
  private done = false;
  private leaseAt = 0;
  private readonly owner = `${process.pid}.${randomUUID().slice(0, 8)}`;

  /** The next key to render, or why there is none; undefined once the walk is over. */
  async next(store: PageStore, stopped: () => boolean): Promise<string | typeof LEASED_ELSEWHERE | typeof WALK_DONE | undefined> {
    if (this.done) return undefined;
    const now = Date.now();
    if (now - this.leaseAt > LEASE_RENEW_MS) {
      if (!store.warmLease(this.owner)) {
        this.leaseAt = 0;
        return LEASED_ELSEWHERE;
      }
      this.leaseAt = now;
    }
    this.walk ??= warmKeys();
    for (let checked = 1; ; checked++) {
      const next = await this.walk.next();
      if (stopped()) return undefined;
      if (next.done) {
        this.done = true;
        this.walk = undefined;
        store.endWarmLease(this.owner);
        return WALK_DONE;
      }
      if (!store.holds(next.value)) return next.value;
      // Checking thousands of kept pages in a row: let requests in now and then.
      if (checked % 200 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /** After a failed read: the next walk starts from the top (kept pages are skipped) and asks for the lease again. */
  reset(): void {
    this.walk = undefined;
    this.leaseAt = 0;
  }

  /** At shutdown: the lease is given back for another process. */
  async stop(store: PageStore | undefined): Promise<void> {
    if (this.leaseAt) store?.endWarmLease(this.owner);
    await this.walk?.return(undefined);
  }
}
