import type { Request, RequestHandler } from "express";
import { isbot } from "isbot";
import { isPrefetch } from "remix-utils/is-prefetch";
import { findViewedArticle, recordPageViews, type PageViewCount } from "../models/page-view.server";
import { publicCacheGeneration } from "../page-store/page-cache.server";
import { utcDay } from "../utils/dates";
import { firstViewInWindow } from "../utils/rate-limit.server";

// Page-view counting (DESIGN §8, §9; docs/decisions/004). A view costs a Map update in memory;
// the counts are written in one transaction per FLUSH_MS (and at shutdown), so a cached page
// costs no database write. server.ts's middleware (through the build's runtime export) and
// POST /api/analytics/track-view add to the same batch: one module graph, docs/decisions/012.

const FLUSH_MS = 1_000;
// A failing database must not make the batch grow without end: past this many distinct
// (day, path) keys further views are dropped until a flush succeeds.
const MAX_PENDING_KEYS = 100_000;
const MAX_REFS = 50_000;

interface Pending {
  day: string;
  /** The page path, or undefined for an article (its path is /article/{current slug}). */
  path?: string;
  /** What the reader used to reach an article: slug, id or old slug. */
  ref?: string;
  views: number;
}

interface CounterState {
  pending: Map<string, Pending>;
  /** Reader views still being checked against the repeat window (flushViews waits for them). */
  checking: Set<Promise<void>>;
  timer: ReturnType<typeof setTimeout> | undefined;
  flushing: Promise<void> | undefined;
  /** ref → article (null: no such published article), valid for one cache generation. */
  refs: Map<string, { id: string; slug: string } | null>;
  refsGeneration: number;
  dropped: number;
}

const state: CounterState = {
  pending: new Map(),
  checking: new Set(),
  timer: undefined,
  flushing: undefined,
  refs: new Map(),
  refsGeneration: -1,
  dropped: 0,
};

// The UTC day (utcDay), made once a day rather than on every view.
let currentDay = { text: "", from: 0, until: 0 };
function today(): string {
  const now = Date.now();
  if (now < currentDay.from || now >= currentDay.until) {
    const text = utcDay(now);
    const from = Date.parse(`${text}T00:00:00.000Z`);
    currentDay = { text, from, until: from + 86_400_000 };
  }
  return currentDay.text;
}

/** The article a ref resolves to when the cache already knows (null: none), else undefined. */
function knownArticle(ref: string): { id: string; slug: string } | null | undefined {
  if (state.refsGeneration !== publicCacheGeneration()) return undefined;
  return state.refs.get(ref);
}

/**
 * The article a reader reached by slug, id or old slug, from a small cache. The cache is emptied
 * whenever the public page cache is (every article write calls invalidatePublicCache), so a
 * renamed slug, or a slug another article took over, resolves afresh.
 */
export async function resolveArticle(ref: string): Promise<{ id: string; slug: string } | undefined> {
  const known = knownArticle(ref);
  if (known !== undefined) return known ?? undefined;
  if (state.refsGeneration !== publicCacheGeneration()) {
    state.refs.clear();
    state.refsGeneration = publicCacheGeneration();
  }
  const found = (await findViewedArticle({ ref })) ?? null;
  if (state.refs.size >= MAX_REFS) state.refs.delete(state.refs.keys().next().value!);
  state.refs.set(ref, found);
  return found ?? undefined;
}

function add(key: string, entry: Omit<Pending, "views">) {
  const pending = state.pending.get(key);
  if (pending) pending.views++;
  else if (state.pending.size >= MAX_PENDING_KEYS) state.dropped++;
  else state.pending.set(key, { ...entry, views: 1 });
  state.timer ??= setTimeout(() => void flushViews(), FLUSH_MS);
  // The timer must not keep a finished process (a test, a script) alive.
  state.timer.unref?.();
}

/** Counts one view of a public page that is not an article (home, a category, search). */
export function countPageView({ path }: { path: string }): void {
  const day = today();
  add(`${day}\u0000p\u0000${path}`, { day, path });
}

/**
 * Counts one view of the article reached by `ref` (slug, id or old slug). With `reader` (the
 * client address as the app resolves it, trust-proxy honoured) the view counts only if that
 * reader has had no counted view of the same article within VIEW_REPEAT_MINUTES, whether by
 * slug, id, `.data` or POST /api/analytics/track-view (one bounded seen-set,
 * app/utils/rate-limit.server.ts firstViewInWindow). Without `reader` the caller has decided.
 */
export function countArticleView({ ref, reader }: { ref: string; reader?: string }): void {
  const day = today();
  if (reader === undefined) return add(`${day}\u0000a\u0000${ref}`, { day, ref });
  const countFirst = (article: { id: string } | null | undefined) => {
    if (article && firstViewInWindow({ ip: reader, articleId: article.id })) add(`${day}\u0000a\u0000${ref}`, { day, ref });
  };
  // A reader walking the site meets articles the cache knows: counted at once, no promise chain.
  const known = knownArticle(ref);
  if (known !== undefined) return countFirst(known);
  const check = resolveArticle(ref)
    .then(countFirst)
    .catch((error: unknown) => console.error("A page view could not be checked:", error))
    .finally(() => state.checking.delete(check));
  state.checking.add(check);
}

/** Writes every pending count now, in one transaction. Safe to call at any time, e.g. at shutdown. */
export async function flushViews(): Promise<void> {
  // Views still being checked join this batch (at shutdown nothing counted is left behind).
  if (state.checking.size) await Promise.all([...state.checking]);
  // One flush at a time: a shutdown flush waits for a timer flush in progress, then writes the rest.
  while (state.flushing) await state.flushing;
  if (state.timer) clearTimeout(state.timer);
  state.timer = undefined;
  if (!state.pending.size) return;
  const batch = state.pending;
  state.pending = new Map();
  state.flushing = (async () => {
    try {
      const merged = new Map<string, PageViewCount>();
      for (const item of batch.values()) {
        let path = item.path;
        let articleId: string | null = null;
        if (item.ref !== undefined) {
          const article = await resolveArticle(item.ref);
          if (!article) continue; // unpublished or deleted since it was served
          path = `/article/${article.slug}`;
          articleId = article.id;
        }
        const key = `${item.day}\u0000${path}`;
        const count = merged.get(key);
        if (count) count.views += item.views;
        else merged.set(key, { day: item.day, path: path!, articleId, views: item.views });
      }
      await recordPageViews({ counts: [...merged.values()] });
    } catch (error) {
      console.error("Page views could not be written; they stay pending for the next flush:", error);
      for (const [key, item] of batch) {
        const pending = state.pending.get(key);
        if (pending) pending.views += item.views;
        else if (state.pending.size < MAX_PENDING_KEYS) state.pending.set(key, item);
      }
      state.timer ??= setTimeout(() => void flushViews(), FLUSH_MS * 5);
      state.timer.unref?.();
    }
  })();
  try {
    await state.flushing;
  } finally {
    state.flushing = undefined;
  }
}

/** Views counted but not yet written (tests, diagnostics). */
export function pendingViews(): number {
  let n = 0;
  for (const item of state.pending.values()) n += item.views;
  return n;
}

/** Header access shared by Express requests and Fetch requests. */
export interface HeaderSource {
  get(name: string): string | null | undefined;
}

/**
 * Whether a request was made by a person's browser for a person to read: not a crawler or
 * script (isbot; an empty User-Agent is a script too) and not a speculative prefetch or
 * prerender (Purpose / Sec-Purpose headers, remix-utils isPrefetch).
 */
// isbot's pattern costs ~15 µs a test; a site sees few distinct agents, so answers are kept.
const BOT_ANSWERS = 1_000;
const botAnswers = new Map<string, boolean>();

function isBotAgent(ua: string): boolean {
  let bot = botAnswers.get(ua);
  if (bot === undefined) {
    bot = isbot(ua);
    if (botAnswers.size >= BOT_ANSWERS) botAnswers.delete(botAnswers.keys().next().value!);
    botAnswers.set(ua, bot);
  }
  return bot;
}

export function isReaderRequest(headers: HeaderSource): boolean {
  const ua = headers.get("user-agent") ?? "";
  if (!ua || isBotAgent(ua)) return false;
  const asHeaders = { get: (name: string) => headers.get(name) ?? null } as unknown as Headers;
  if (isPrefetch(asHeaders)) return false;
  // Chrome's speculation rules send "Sec-Purpose: prefetch;prerender", which isPrefetch misses.
  return !/prefetch/i.test(headers.get("sec-purpose") ?? "");
}

/**
 * Which counted page a GET path is, or undefined for paths that are not counted. Single-fetch
 * data requests (`/article/x.data`, `/_root.data` for the home) are client-side navigations:
 * one request per page shown, so they count like the document.
 */
export function countedPage(pathname: string): { path: string; articleRef?: string } | undefined {
  let path = pathname;
  if (path.endsWith(".data")) path = path === "/_root.data" ? "/" : path.slice(0, -".data".length);
  if (path === "/" || path === "/search") return { path };
  let match = path.match(/^\/article\/([^/]+)$/);
  if (match) {
    let ref: string;
    try {
      ref = decodeURIComponent(match[1]);
    } catch {
      return undefined;
    }
    return { path, articleRef: ref };
  }
  match = path.match(/^\/category\/([^/]+)$/);
  if (match) return { path };
  return undefined;
}

/** Staff carry a session cookie or a bearer token; everyone else sees the same public site. */
export function isAnonymous(req: Request): boolean {
  return !req.headers.authorization && !(req.headers.cookie ?? "").includes("__session=");
}

/**
 * Counts a view of each public page served with 200 (or 304: the browser showed its copy) to a
 * reader: GET only (not HEAD), not bots or scripts, not prefetches, not signed-in staff.
 */
export function countViews(): RequestHandler {
  return (req, res, next) => {
    if (req.method !== "GET") return next();
    const page = countedPage(req.path);
    if (!page || !isAnonymous(req) || !isReaderRequest({ get: (name) => req.get(name) })) return next();
    res.once("finish", () => {
      if (res.statusCode !== 200 && res.statusCode !== 304) return;
      // One view per reader (address) and article per VIEW_REPEAT_MINUTES (view-counter.server.ts).
      if (page.articleRef !== undefined) countArticleView({ ref: page.articleRef, reader: req.ip ?? "unknown" });
      else countPageView({ path: page.path });
    });
    next();
  };
}
