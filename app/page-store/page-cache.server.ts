import type { AppLoadContext } from "@remix-run/node";
import { BROADCAST_MAX_BYTES, broadcast, engine, onBroadcast } from "../../db/index";
import { getEnv } from "../utils/env.server";
import { PageStore } from "./page-store.server";

// The page store's door for the rest of the app (DESIGN §12, docs/decisions/016-page-store.md):
// the Cache-Control policies, the tags a public path shows, and the invalidation every write calls.
// The rows themselves live in ./page-store.server.ts (DATA_DIR/pages.db).
/**
 * Cache-Control policies of public responses, named once (STYLE.md 'Server').
 * Browsers always revalidate pages (max-age=0): the ETag makes that a cheap 304, and a correction
 * or an unpublished article shows at once. A shared cache (nginx, a CDN) may serve a copy up to
 * 60 s old, and a stale one for 5 more minutes while it refetches, like our own cache's 60 s.
 * Note a view served by a CDN never reaches our counter: a deployment behind one either keeps
 * s-maxage short or posts to /api/analytics/track-view from the page.
 */
export const CACHE_CONTROL = {
  page: "public, max-age=0, s-maxage=60, stale-while-revalidate=300",
  // Feed readers and crawlers poll; five minutes in any cache is what they expect and is harmless.
  feed: "public, max-age=300, s-maxage=300, stale-while-revalidate=600",
  // Public JSON (homepage, article by slug) follows the pages it mirrors.
  json: "public, max-age=0, s-maxage=60, stale-while-revalidate=300",
  // Anything rendered for a signed-in person: no shared or browser copy.
  private: "private, no-store",
} as const;

interface State {
  store: PageStore | undefined;
  /**
   * Bumped by every invalidation in this process; with the store open, the store's own counter
   * (shared by every process of the box, docs/decisions/020) is the one that counts.
   */
  generation: number;
  /** Called after pages were marked stale (the background re-render). */
  onStale: (() => void) | undefined;
  /** Called with pages a write made that the store should hold before a reader asks (issue 30). */
  onWant?: (keys: string[]) => void;
  /** Ends this store's subscription to other boxes' invalidations (PostgreSQL). */
  unsubscribe?: () => void;
}

const state: State = { store: undefined, generation: 0, onStale: undefined };

/** Whether the page store stores and serves responses (PAGE_CACHE=0 turns it off, for the bench). */
export function pageCacheEnabled(): boolean {
  return getEnv().PAGE_CACHE !== "0";
}

/** Opens DATA_DIR/pages.db (at start-up, by the runtime); `build` names the build the pages belong to. */
export function openPageStore({
  build,
  onStale,
  onWant,
  keepPrevious,
}: {
  build: string;
  onStale?: () => void;
  onWant?: (keys: string[]) => void;
  /** The previous build's assets are still served (server/old-assets.ts): keep its pages, stale. */
  keepPrevious?: (storedBuild: string) => boolean;
}): PageStore | undefined {
  closePageStore();
  if (!pageCacheEnabled()) return undefined;
  state.store = new PageStore(getEnv().DATA_DIR, () => getEnv().PAGE_CACHE_MB * 1024 * 1024, build, { keepPrevious });
  state.onStale = onStale;
  state.onWant = onWant;
  // Several boxes on one PostgreSQL: the others' invalidations arrive as broadcasts.
  if (engine() === "postgres") state.unsubscribe = onBroadcast(applyRemoteInvalidation);
  return state.store;
}

/** The open store, if any (never in tests that call models without the server). */
export function pageStore(): PageStore | undefined {
  return state.store;
}

export function closePageStore(): void {
  state.unsubscribe?.();
  state.unsubscribe = undefined;
  state.store?.close();
  state.store = undefined;
  state.onStale = undefined;
  state.onWant = undefined;
}

/**
 * Asks the store to render pages a write just made visible (a published article's own page) in the
 * background, before the pages marked stale (issue 30: its first reader gets a kept page; within a
 * second of the write, docs/decisions/032). Keys as publicPage makes them, e.g. `/article/slug`.
 */
export function renderSoon(keys: readonly string[]): void {
  if (keys.length) state.onWant?.([...keys]);
}

/**
 * Call after any write readers can see. With tags, the pages that carry one of them (see
 * CACHE_TAG and docs/decisions/010), e.g. `["home", "search", "article:slug"]`, are marked stale:
 * still served while a background re-render replaces them (a correction reaches readers within
 * seconds). `remove` names tags whose pages must go at once because what they show must no longer
 * be shown (a withdrawn article, a slug it left): never served stale. Without tags (site settings,
 * the menu: a site-wide change to every page, its SEO tags, robots.txt and feeds included) every
 * stored page goes at once and is rendered again on its next request (docs/decisions/016).
 */
export function invalidatePublicCache(tags?: readonly string[], { remove }: { remove?: readonly string[] } = {}): void {
  state.generation++;
  const store = state.store;
  if (store && store.invalidate({ tags, remove }) > 0) state.onStale?.();
  if (engine() === "postgres") relayInvalidation(store?.box ?? 0, tags, remove);
}

/**
 * Several boxes on one PostgreSQL (DESIGN §13): each keeps its own store, so an invalidation is
 * announced to all of them (NOTIFY, delivered at once to every process that listens). The
 * processes of the announcing box share its pages.db, which already has it; every other box
 * applies it once (its processes share one pages.db too, so applying twice is harmless). A
 * message too long for NOTIFY becomes "everything": dropping more than needed is safe.
 */
function relayInvalidation(box: number, tags: readonly string[] | undefined, remove: readonly string[] | undefined): void {
  let message = JSON.stringify({ box, tags, remove });
  if (Buffer.byteLength(message) > BROADCAST_MAX_BYTES) message = JSON.stringify({ box });
  broadcast(message).catch((error) => console.error(`Page store: other boxes were not told of an invalidation: ${(error as Error)?.message ?? error}`));
}

function applyRemoteInvalidation(message: string): void {
  const store = state.store;
  if (!store) return;
  // An empty message: the listener was away and may have missed some, so nothing kept is trusted.
  const { box, tags, remove } = message
    ? (JSON.parse(message) as { box: number; tags?: string[]; remove?: string[] })
    : { box: 0, tags: undefined, remove: undefined };
  if (box === store.box) return;
  state.generation++;
  if (store.invalidate({ tags, remove }) > 0) state.onStale?.();
}

/** What a stored public response shows (the tags invalidations name): from its route (app/page-store/page-key.server.ts) and the articles its loaders reported (showsArticles). */
export const CACHE_TAG = {
  /** The home page and its JSON (GET /api/homepage/public). */
  home: "home",
  /** Every search page, with or without a query (the listing of all news). */
  search: "search",
  /** RSS and sitemaps. */
  feed: "feed",
  /** Every category page: each shows the newest articles beside its own list. */
  categories: "categories",
  /** One category's pages, by slug. */
  category: (slug: string) => `category:${slug}`,
  /** Every page that shows the article: its own page and JSON (by the slug or id in the URL), and each page whose loaders reported it (by id). */
  article: (ref: string) => `article:${ref}`,
  /** Issue 29: one author's page (every page of it) and feed, by slug. */
  author: (slug: string) => `author:${slug}`,
  /** Issue 29: one tag's page and feed, by slug. */
  tag: (slug: string) => `tag:${slug}`,
} as const;

/**
 * Tells the page store which articles a page shows, while it renders the page to keep it (the load
 * context then carries `shownArticles`; any other request's context does not, and this does nothing).
 * Each becomes a tag of the stored page, `article:<id>`, so withdrawing any of them removes the page at
 * once and correcting one re-renders it: the home, lists, feeds, and every article page whose related
 * row shows it (issue 25). Call it in each public loader with every article its data shows.
 */
export function showsArticles(context: AppLoadContext, articles: Iterable<{ id: string }>): void {
  const shown = context.shownArticles;
  if (!shown) return;
  for (const article of articles) shown.add(article.id);
}

/**
 * Changes whenever invalidatePublicCache() runs, in this process or (with the page store open)
 * any other on the box, so derived caches know to drop their entries.
 */
export function publicCacheGeneration(): number {
  return state.store ? state.store.generation() : state.generation;
}
