import { performance } from "node:perf_hooks";
import type { Request, RequestHandler, Response } from "express";
import pLimit from "p-limit";
import { CACHE_CONTROL, CACHE_TAG, closePageStore, openPageStore, pageStore, publicCacheGeneration } from "../page-store/page-cache.server";
import { PageKeeper } from "../page-store/page-keeper.server";
import { publicPage, type PublicPage } from "../page-store/page-key.server";
import type { PageStore } from "../page-store/page-store.server";
import { etagOf, inlineScriptHashes, sendBuilt, sendStored, type Built } from "../page-store/stored-response.server";
import { LEASED_ELSEWHERE, WALK_DONE, WarmWalk } from "../page-store/warm-list.server";
import { getEnv } from "../utils/env.server";
import { isAnonymous } from "./view-counter.server";

// The Express middleware of DESIGN §12 for public responses: the page store of rendered pages with
// Cache-Control and ETag, and its background renders (docs/decisions/016, 032). View counting runs
// before it (countViews, ./view-counter.server.ts); what a kept response is made of and how it is
// sent is ../page-store/stored-response.server.ts; the warm-up walk, ../page-store/warm-list.server.ts.

/**
 * Renders a public path as an anonymous reader would get it (an internal GET through the Remix build),
 * its loaders adding the ids of the articles the page shows to `shownArticles` (the load context's).
 */
export type PageRenderer = (path: string, shownArticles: Set<string>) => Promise<globalThis.Response>;

export interface PageStoreOptions {
  render: PageRenderer;
  /** The Content-Security-Policy of a stored page, given the hash sources of its inline scripts. */
  csp: (scriptSources: string[]) => string;
  /** The build's asset version: pages of another build are dropped when the store opens. */
  build: string;
  /**
   * Whether the previous build's fingerprinted assets are still served (server/old-assets.ts): then
   * its pages are kept after a deploy, stale, and served until re-rendered (docs/decisions/032).
   */
  keepPrevious?: (storedBuild: string) => boolean;
}

// Headers that belong to one response, not to the stored representation.
const PER_RESPONSE = new Set([
  "content-length",
  "content-encoding",
  "etag",
  "x-cache",
  "date",
  "connection",
  "transfer-encoding",
  "vary",
  "content-security-policy",
]);
// A stored page is re-rendered in the background once it is served this old (view counts on cards).
// An hour, not ten minutes: in the 10,000-article bench the walk took 12 minutes (cold article
// renders ~60 ms each), so the rotation after it re-rendered half the store while being measured.
const MAX_AGE_MS = 60 * 60_000;
const STALE_KICK_MS = 1_000;
// Renders of public pages under way at once; the rest wait their turn. A render is CPU on the one
// main thread, so more at once only interleave: 50 crawler connections rendering together held
// 50 pages' data in memory and made every one of them as slow as all of them.
// Measured on the cold rotation over 10,000 articles: 50 at once 166 req/s, p99 1,754 ms, 310 MB
// resident; 4 at once 167 req/s, p99 525 ms, 259 MB.
export const RENDERS_AT_ONCE = 4;
// Issue 30: pages rendered for readers waiting to be compressed and stored after their response; past
// this many (a crawler walking cold pages faster than the keeper's thread keeps them) a miss is sent
// and not kept: the warm-up or the next reader keeps it.
const KEEPS_PENDING = 64;
// While readers are in flight, the background renders (stale pages, the warm-up) take at most this
// share of the main thread: after a render of d ms they wait d × (1 − share) / share before the next.
const BACKGROUND_SHARE = 0.5;

/** A render not made: the reader it was for left while it waited for its turn. */
class ReaderGone extends Error {}

/** The page store middleware and its background re-render (one per app, see server/app.ts). */
class PublicPages {
  /** Renders under way by key; `shared` once a second request (or a background render) waits for it too. */
  private readonly inflight = new Map<string, { built: Promise<Built>; shared: boolean }>();
  /** Pages rendered for a reader and sent, being compressed and stored after the response (issue 30 item 0). */
  private readonly keeping = new Map<string, Promise<void>>();
  /** Pages a write made visible, rendered before the stale ones (renderSoon, issue 30). */
  private readonly wanted = new Set<string>();
  /** The warm list, walked while this process holds the box's warm-up lease. */
  private readonly warmer = new WarmWalk();
  private retry: ReturnType<typeof setTimeout> | undefined;
  /** Requests of any kind this process is answering now (the background renders yield to them). */
  private readers = 0;
  /** Counted for the bench and the tests (GET /healthz does not show them; pageStoreStats does). */
  readonly counts = { warmed: 0, kept: 0, keepsDropped: 0 };
  private readonly renders = pLimit(RENDERS_AT_ONCE);
  /**
   * Compresses and stores the pages on a worker thread of its own (issue 30 item 0): on the request
   * thread a keep cost ~0.65 ms of each ~6.5 ms miss. Decision 032's amendments: keeps one, then two at
   * a time on the thread pool, then this.
   */
  private readonly keeper: PageKeeper | undefined;
  private refreshing = false;
  private stopped = false;
  private staleKickAt = 0;
  /** The background re-render under way, awaited at shutdown before the store closes. */
  private running: Promise<void> = Promise.resolve();

  constructor(
    private readonly options: PageStoreOptions,
    private readonly store: PageStore | undefined,
    /** PAGE_STORE_WARM: the warm-up at start and the renders after a publish (issue 30). */
    private readonly warm: boolean,
  ) {
    this.keeper = store && new PageKeeper({ file: store.file, maxBytes: store.maxBytes() });
  }

  /** Renders a page for the store: status, headers (with its own CSP), body, tags. */
  async build({ key, kind, tags }: PublicPage, gone?: () => boolean): Promise<Built> {
    const shown = new Set<string>();
    const [response, body] = await this.renders(async () => {
      // A reader who left while this waited for its turn (a client's timeout) costs no render: on a
      // saturated box, renders nobody waits for would push every later reader past its timeout too.
      if (gone?.()) throw new ReaderGone();
      const rendered = await this.options.render(key, shown);
      return [rendered, Buffer.from(await rendered.arrayBuffer())] as const;
    });
    const headers: [string, string][] = [];
    const cookies = response.headers.getSetCookie();
    let privateRoute = false;
    for (const [name, value] of response.headers) {
      if (name === "set-cookie" || PER_RESPONSE.has(name)) continue;
      if (name === "cache-control") {
        privateRoute = /\bprivate\b/.test(value);
        if (!privateRoute && response.status === 200) continue;
      }
      headers.push([name, value]);
    }
    // The server names the policy of every public response (a route's no-store default of the
    // JSON helpers included); a route that must not be shared says `private`.
    if (response.status === 200 && !privateRoute) headers.push(["cache-control", CACHE_CONTROL[kind]]);
    const html = /text\/html/i.test(response.headers.get("content-type") ?? "");
    headers.push(["content-security-policy", this.options.csp(html ? inlineScriptHashes(body.toString("utf8")) : [])]);
    return {
      status: response.status,
      headers,
      body,
      storable: response.status === 200 && !cookies.length && !privateRoute,
      etag: etagOf(body),
      // What its route shows, and every article its loaders reported (app/page-store/page-key.server.ts).
      tags: [...new Set([...tags, ...[...shown].map(CACHE_TAG.article)])],
      cookies,
    };
  }

  /**
   * Renders and, when the content did not change meanwhile, stores the page. With the store on,
   * requests for a page being rendered wait for that render (one render per key at a time).
   */
  render(page: PublicPage, { background = false, gone }: { background?: boolean; gone?: () => boolean } = {}): Promise<Built> {
    // With the store off every request renders on its own (the bench's cold figures).
    if (!this.store) return this.build(page, gone);
    const { key } = page;
    const running = this.inflight.get(key);
    if (running) {
      running.shared = true;
      return running.built;
    }
    const generation = publicCacheGeneration();
    const entry = { built: undefined as unknown as Promise<Built>, shared: background };
    entry.built = this.build(page, () => !entry.shared && Boolean(gone?.()))
      .then((built) => {
        // A write during the render (in this process or another) may have changed what it read:
        // such a page is not kept (put() checks again inside its transaction). Kept after the
        // response (issue 30 item 0): the reader does not wait for the compression and the write.
        if (this.store && built.storable && publicCacheGeneration() === generation) built.kept = this.keepAfter(key, built, generation, background);
        return built;
      })
      .finally(() => this.inflight.delete(key));
    this.inflight.set(key, entry);
    return entry.built;
  }

  /**
   * Compresses and stores a page once its response is on its way (setImmediate: the reader's bytes
   * are written first). Until then, requests for its key wait for it and are answered from the store.
   */
  private keepAfter(key: string, built: Built, generation: number, background: boolean): Promise<void> {
    // A background render is always kept (it was made for that); a reader's miss only while few wait.
    if (!background && this.keeping.size >= KEEPS_PENDING) {
      this.counts.keepsDropped++;
      return Promise.resolve();
    }
    const kept: Promise<void> = new Promise((resolve) => setImmediate(resolve))
      .then(() =>
        // put() (in the worker) stores it only if no invalidation came meanwhile (generation), checked in its transaction.
        this.keeper!.keep({ key, status: built.status, headers: built.headers, body: built.body, etag: built.etag, tags: built.tags, generation }),
      )
      .then((stored) => {
        if (stored) this.counts.kept++;
      })
      .catch((error) => {
        // The store closed under it (shutdown) or the disk failed: the page renders again next time.
        if (!this.stopped) console.error(`Page store: keeping ${key} failed: ${(error as Error)?.message ?? error}`);
      })
      .finally(() => {
        if (this.keeping.get(key) === kept) this.keeping.delete(key);
      });
    this.keeping.set(key, kept);
    return kept;
  }

  /** Starts re-rendering stale pages in the background, one at a time, if not already at it. */
  kick(): void {
    if (this.refreshing || this.stopped || !this.store) return;
    this.refreshing = true;
    // refresh() answers its own failures; nothing of the background may end the process.
    this.running = new Promise((resolve) => setImmediate(resolve))
      .then(() => this.refresh())
      .catch((error) => console.error(`Page store: background renders failed: ${(error as Error)?.message ?? error}`));
  }

  /** Pages to render before the stale ones (a publish, issue 30); ignored with PAGE_STORE_WARM=0. */
  want(keys: string[]): void {
    if (!this.warm || this.stopped) return;
    for (const key of keys) this.wanted.add(key);
    this.kick();
  }

  /**
   * The background renders, one at a time: pages a write made visible (want), then stale pages
   * (the most read first: after a deploy that is every page of the previous build), then, in the one
   * process of the box that holds the warm-up lease, the warm list's pages the store lacks
   * (./page-store/warm-list.server.ts). Between renders every waiting request runs (setImmediate),
   * and while readers are in flight the renders take at most BACKGROUND_SHARE of the main thread.
   */
  private async refresh(): Promise<void> {
    const store = this.store!;
    try {
      while (!this.stopped) {
        let job: { key: string; stale: boolean } | undefined;
        try {
          job = await this.nextJob(store);
        } catch (error) {
          // The database could not be read (an outage): readers are not touched by it; the
          // background stops and tries again later (the warm list from its start, kept pages skipped).
          console.error(`Page store: background renders paused: ${(error as Error)?.message ?? error}`);
          this.warmer.reset();
          this.retryLater();
          break;
        }
        if (!job || this.stopped) break;
        const { key, stale } = job;
        // Keys are made by publicPage, which gives a key back unchanged.
        const page = publicPage(key);
        const started = performance.now();
        try {
          const built = page ? await this.render(page, { background: true }) : undefined;
          await built?.kept;
          // Shutdown came during the render: the store is about to close; the page stays stale.
          if (this.stopped) break;
          if (!stale) this.counts.warmed++;
          // A page that is no longer a 200 (gone, moved) is dropped; a write during the render
          // leaves it stale (unclaimed) and it comes round again.
          else if (!built?.storable) store.remove(key);
          else store.unclaim(key);
        } catch (error) {
          if (this.stopped) break;
          if (error instanceof ReaderGone) continue;
          console.error(`Page store: re-rendering ${key} failed: ${(error as Error)?.message ?? error}`);
          if (stale) store.remove(key);
        }
        await new Promise((resolve) => setImmediate(resolve));
        if (this.readers > 0) {
          const ms = Math.min(1_000, ((performance.now() - started) * (1 - BACKGROUND_SHARE)) / BACKGROUND_SHARE);
          await new Promise((resolve) => setTimeout(resolve, ms));
        }
      }
    } finally {
      this.refreshing = false;
    }
  }

  private async nextJob(store: PageStore): Promise<{ key: string; stale: boolean } | undefined> {
    for (const key of this.wanted) {
      this.wanted.delete(key);
      if (!store.holds(key)) return { key, stale: false };
    }
    const stale = store.nextStale();
    if (stale) return { key: stale, stale: true };
    const key = await this.nextToWarm(store);
    return key ? { key, stale: false } : undefined;
  }

  /** The next page of the warm list the store lacks, if this process holds (or takes) the warm-up lease. */
  private async nextToWarm(store: PageStore): Promise<string | undefined> {
    if (!this.warm) return undefined;
    const step = await this.warmer.next(store, () => this.stopped);
    // Another process of the box warms; if it ends before it is done, this one takes over.
    if (step === LEASED_ELSEWHERE) this.retryLater();
    else if (step === WALK_DONE) console.log(`Page store: warm (${this.counts.warmed} pages rendered in the background)`);
    else return step;
    return undefined;
  }

  /** Kicks the background again in 30 s (another process held the warm-up lease, or the database failed). */
  private retryLater(): void {
    if (this.retry || this.stopped) return;
    this.retry = setTimeout(() => {
      this.retry = undefined;
      this.kick();
    }, 30_000);
    this.retry.unref();
  }

  /** Ends the background re-render, waiting for the page being rendered and the pages being kept. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retry) clearTimeout(this.retry);
    await this.running;
    await Promise.all(this.keeping.values());
    await this.keeper?.stop();
    await this.warmer.stop(this.store);
  }

  middleware(): RequestHandler {
    return (req, res, next) => {
      this.readers++;
      res.once("close", () => {
        this.readers--;
        res.locals.pageStoreGone = true;
      });
      if (req.method !== "GET" && req.method !== "HEAD") return next();
      // Only the pages the store keeps (one key per page, whatever the spelling of its path and the
      // rest of its query); the admin, the private API, previews and unknown paths go to Remix.
      // req.url: a sitemap file's name is already the sitemap route's address (server/app.ts).
      const target = publicPage(req.url);
      if (!target) return next();

      // A reader who commented in the last 15 minutes sees their own comments (and may delete them):
      // their pages are rendered for them, never kept or served from the store (issue 28).
      if (!isAnonymous(req) || /(^|;\s*)comment_token=/.test(req.headers.cookie ?? "")) {
        const writeHead = res.writeHead;
        res.writeHead = function (this: Response, ...args: unknown[]) {
          res.setHeader("Cache-Control", CACHE_CONTROL.private);
          res.setHeader("X-Cache", "BYPASS");
          return (writeHead as (...a: unknown[]) => Response).apply(this, args);
        } as Response["writeHead"];
        return next();
      }

      // A page rendered a moment ago and being kept: answered from the store once it is there.
      const keeping = this.keeping.get(target.key);
      if (keeping && !this.inflight.has(target.key)) return void keeping.then(() => this.answer(req, res, next, target));
      this.answer(req, res, next, target);
    };
  }

  /** An anonymous request for a page the store keeps: from the store, else rendered (and kept after the response). */
  private answer(req: Request, res: Response, next: (error?: unknown) => void, target: PublicPage): void {
    // Anonymous: the page is what any reader gets for its key, never shaped by this request's
    // headers (Host, X-Forwarded-*, cookies of other sites, Accept-Encoding) or spelling.
    const page = this.store?.get(target.key);
    if (page) {
      const now = Date.now();
      if (!page.stale && now - page.storedAt > MAX_AGE_MS) {
        this.store!.markStaleKey(target.key);
        this.kick();
      } else if (page.stale && now - this.staleKickAt > STALE_KICK_MS) {
        // Marked stale by another process (or left by one that ended): whichever process is free
        // claims the re-render (PageStore.nextStale); at most one try a second from here.
        this.staleKickAt = now;
        this.kick();
      }
      if (sendStored(req, res, page, this.store!)) return;
    }
    this.render(target, { gone: () => res.locals.pageStoreGone === true }).then(
      (built) => {
        if (!res.headersSent) sendBuilt(req, res, built);
      },
      (error) => {
        if (!(error instanceof ReaderGone)) next(error);
      },
    );
  }
}

let current: PublicPages | undefined;

/**
 * The page store of anonymous public responses (DESIGN §12): anonymous GET/HEAD of public pages,
 * feeds and public JSON are answered from DATA_DIR/pages.db as stored (compressed, with their
 * headers and a CSP listing the hashes of their inline scripts), else rendered through the Remix
 * build as an anonymous reader gets them, stored when a 200 without cookies, and sent. Staff bypass
 * it and get `private, no-store`. PAGE_CACHE=0 keeps the headers but stores nothing.
 */
export function publicPageCache(options: PageStoreOptions): RequestHandler {
  current?.stop();
  const store = openPageStore({
    build: options.build,
    keepPrevious: options.keepPrevious,
    onStale: () => current?.kick(),
    onWant: (keys) => current?.want(keys),
  });
  current = new PublicPages(options, store, getEnv().PAGE_STORE_WARM === "1");
  // Pages left stale by the last run (a write just before a stop, a deploy) are re-rendered now, then
  // the warm-up renders what the store lacks (issue 30).
  current.kick();
  return current.middleware();
}

/** Stops the background re-render and closes the store (shutdown, a dev rebuild). */
export async function stopPublicPages(): Promise<void> {
  const pages = current;
  current = undefined;
  await pages?.stop();
  closePageStore();
}

/** What the store holds (bytes, pages), for the bench. */
export function pageStoreStats() {
  const stats = pageStore()?.stats();
  return stats && { ...stats, ...current?.counts };
}
