import { getEnv } from "./env.server";

// In-process cache of anonymous public responses (DESIGN §9, docs/decisions/004). Writes that
// change what readers see call invalidatePublicCache(); entries also expire after MAX_AGE_MS.
const MAX_AGE_MS = 60_000;
const MAX_ENTRIES = 5_000;
// A byte budget rather than only a count: 5,000 article pages of ~40 KB would be 200 MB, over the
// 300 MB resident budget of DESIGN §9. 48 MB holds the home, every category and over a thousand
// hot articles; colder pages are rendered again (that is the "cold" figure of npm run bench).
const maxBytes = () => getEnv().PAGE_CACHE_MB * 1024 * 1024;

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

export interface CachedResponse {
  status: number;
  headers: [string, string][];
  /** The body split where the render's CSP nonce stood; replay joins it with a fresh nonce. */
  parts: Buffer[];
  size: number;
  etag: string;
  storedAt: number;
  /** What the response shows (cacheTagsFor): invalidatePublicCache(tags) drops the entries naming one. */
  tags?: string[];
}

interface CacheState {
  entries: Map<string, CachedResponse>;
  bytes: number;
  /** Bumped by every invalidation: other in-process caches of public data compare it. */
  generation: number;
  hits: number;
  misses: number;
}

const state: CacheState = {
  entries: new Map(),
  bytes: 0,
  generation: 0,
  hits: 0,
  misses: 0,
};

/** Whether the page cache stores and serves responses (PAGE_CACHE=0 turns it off, for the bench). */
export function pageCacheEnabled(): boolean {
  return getEnv().PAGE_CACHE !== "0";
}

function drop(key: string, entry: CachedResponse) {
  state.entries.delete(key);
  state.bytes -= entry.size;
}

export function getCachedResponse(key: string): CachedResponse | undefined {
  const entry = state.entries.get(key);
  if (!entry) {
    state.misses++;
    return undefined;
  }
  if (Date.now() - entry.storedAt > MAX_AGE_MS) {
    drop(key, entry);
    state.misses++;
    return undefined;
  }
  // Least recently used goes first: a hit moves the entry to the end of the Map's order.
  state.entries.delete(key);
  state.entries.set(key, entry);
  state.hits++;
  return entry;
}

export function setCachedResponse(key: string, entry: CachedResponse): void {
  const budget = maxBytes();
  if (entry.size > budget / 8) return;
  const old = state.entries.get(key);
  if (old) drop(key, old);
  while (state.entries.size && (state.entries.size >= MAX_ENTRIES || state.bytes + entry.size > budget)) {
    const [oldestKey, oldest] = state.entries.entries().next().value!;
    drop(oldestKey, oldest);
  }
  state.entries.set(key, entry);
  state.bytes += entry.size;
}

/**
 * Drops cached public responses; call after any write readers can see. Without tags everything
 * goes (the menu, site settings: what every page shows). With tags, only the entries that carry one
 * of them (see cacheTagsFor and docs/decisions/010): e.g. `["home", "search", "article:slug"]`.
 */
export function invalidatePublicCache(tags?: readonly string[]): void {
  state.generation++;
  if (!tags) {
    state.entries.clear();
    state.bytes = 0;
    return;
  }
  if (!tags.length) return;
  const wanted = new Set(tags);
  for (const [key, entry] of state.entries) {
    // An entry stored without tags could show anything: it goes with every invalidation.
    if (!entry.tags || entry.tags.some((tag) => wanted.has(tag))) drop(key, entry);
  }
}

/** What a cached public response shows, by its path (the tags invalidations name). */
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
  /** One article's page and JSON, by the slug or id in its URL. */
  article: (ref: string) => `article:${ref}`,
} as const;

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * The tags of a public path. Every page also renders the menu and site settings, but those writes
 * clear everything, so no tag says so. A path not named here (robots.txt, other pages) gets no tag
 * and goes only when everything does.
 */
export function cacheTagsFor(pathname: string): string[] {
  const path = pathname.replace(/\.data$/, "");
  if (path === "/" || path === "/_root" || path === "/_index" || path === "/api/homepage/public") return [CACHE_TAG.home];
  let m = /^\/(?:article|api\/articles\/slug)\/([^/]+)\/?$/.exec(path);
  if (m) return [CACHE_TAG.article(decode(m[1]))];
  m = /^\/category\/([^/]+)\/?$/.exec(path);
  if (m) return [CACHE_TAG.categories, CACHE_TAG.category(decode(m[1]))];
  if (path === "/search" || path === "/search/") return [CACHE_TAG.search];
  if (/^\/(rss\.xml|sitemap\.xml|api\/seo\/sitemap\.xml)$/.test(path)) return [CACHE_TAG.feed];
  return [];
}

/** Changes whenever invalidatePublicCache() runs, so derived caches know to drop their entries. */
export function publicCacheGeneration(): number {
  return state.generation;
}
