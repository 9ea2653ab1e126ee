import { randomInt } from "node:crypto";
import { chmodSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import type SQLite from "better-sqlite3";
import { PageFront } from "./page-front.server";
import { createLayout, openFile, takeOverBuild } from "./page-store-file.server";
import { type NewPage, PageWriter, tunePagesConnection } from "./page-writer.server";

export type { NewPage } from "./page-writer.server";

// The page store of DESIGN §12 (docs/decisions/016-page-store.md): anonymous public responses,
// rendered once, kept compressed with their headers in a SQLite file of their own in DATA_DIR
// (`pages.db`), so they survive a restart and cost no JavaScript heap. A separate connection:
// the store never takes the content database's write lock. Bounded by bytes, least recently used
// out. This module knows nothing of HTTP or rendering: it keeps rows.
// Every process on the box shares the file (WORKERS=N, docs/decisions/020): what must agree between
// them lives in it (the `counters` table, the stale marks and re-render claims), never only here.

/** The bodies kept of a page: gzip, brotli where it pays, and the plain bytes (`identity`). */
export type Encoding = "br" | "gzip" | "identity";

export interface StoredPage {
  key: string;
  status: number;
  headers: [string, string][];
  etag: string;
  tags: string[];
  size: number;
  stale: boolean;
  storedAt: number;
  /** Whether a brotli body is kept (only where it pays). */
  hasBr: boolean;
  /** The row the bodies are read from, each only when a client asks for it. */
  rowid: number;
  gzip?: Buffer;
  br?: Buffer;
  identity?: Buffer;
}

interface Row {
  rowid: number;
  key: string;
  status: number;
  headers: string;
  etag: string;
  tags: string;
  size: number;
  has_br: number;
  stored_at: number;
  stale: number;
}

/** How long pages of the previous build are served after a deploy: within the hour its assets are kept (server/old-assets.ts). */
export const KEEP_PREVIOUS_MS = 55 * 60_000;
// The warm-up lease (issue 30): one process of the box walks the warm list; it renews the lease as it goes.
const WARM_LEASE_MS = 30_000;

// A re-render claimed by a process that has not stored it within this long (it died) is free again.
const CLAIM_MS = 60_000;

export class PageStore {
  private readonly sqlite: SQLite.Database;
  /** Hits since the last flush: key → [last used, hits]; written in one transaction a second. */
  private touched = new Map<string, [number, number]>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** This box's id, shared by its processes (see the constructor). */
  readonly box: number;
  private readonly statements;
  /** Stores pages and keeps the file within its budget (shared with the page keeper's worker). */
  private readonly writer: PageWriter;
  /** The most recently served pages in memory (page-front.server.ts). */
  private readonly front = new PageFront();
  /** The shared 'changes' counter when a front page was last read or checked against its row. */
  private checked = new WeakMap<StoredPage, number>();

  /**
   * When this build took the store over (ms): a page stored before it is the previous build's, served
   * (stale, until re-rendered) only within KEEP_PREVIOUS_MS, while that build's assets are kept.
   */
  readonly buildSince: number;
  /** DATA_DIR/pages.db (the page keeper's worker opens it too). */
  readonly file: string;

  constructor(
    dir: string,
    /** The budget of stored bodies in bytes (PAGE_CACHE_MB), for every process's pages together. */
    readonly maxBytes: () => number,
    /** The build the pages were rendered by: another build (new asset names) empties the store. */
    build: string,
    /**
     * Issue 30 (docs/decisions/032): the previous build's fingerprinted assets stay served for an
     * hour (server/old-assets.ts), so its pages are kept, marked stale, and served until re-rendered.
     */
    { keepPrevious }: { keepPrevious?: (storedBuild: string) => boolean } = {},
  ) {
    mkdirSync(dir, { recursive: true });
    this.file = join(dir, "pages.db");
    this.sqlite = openFile(this.file);
    chmodSync(this.file, 0o600);
    // SQLite's own default, 2 MB (8 MB before issue 30 item 4): hot pages are served from the front
    // and the rest are read through the operating system's file cache, so a bigger page cache of
    // their bodies was resident memory kept twice.
    tunePagesConnection(this.sqlite, 2000);
    createLayout(this.sqlite);
    this.sqlite.exec(`insert or ignore into counters (name, n) values ('generation', 0), ('changes', 0);
      insert or ignore into counters (name, n) select 'bytes', coalesce(sum(size), 0) from pages;`);
    // Which box this store belongs to (every process on the box shares it): an invalidation that
    // another box announces (PostgreSQL, page-cache.server.ts) is applied here once, not by the
    // box that already applied it.
    this.sqlite.prepare("insert or ignore into counters (name, n) values ('box', ?)").run(randomInt(1, 2 ** 47));
    this.box = this.sqlite.prepare("select n from counters where name = 'box'").pluck().get() as number;
    takeOverBuild(this.sqlite, build, keepPrevious);
    this.buildSince = Number(this.sqlite.prepare("select value from meta where name = 'build_since'").pluck().get() ?? 0);
    this.statements = {
      get: this.sqlite.prepare(
        `select p.rowid, p.key, p.status, p.headers, p.etag, p.tags, p.size, p.has_br, p.stored_at, s.stale
         from pages p join page_state s on s.key = p.key where p.key = ?`,
      ),
      // A body is read only while its row still holds the page get() answered (same ETag): another
      // process may have replaced or removed it in between.
      gzip: this.sqlite.prepare("select gzip from pages where rowid = ? and key = ? and etag = ?").pluck(),
      br: this.sqlite.prepare("select br from pages where rowid = ? and key = ? and etag = ?").pluck(),
      identity: this.sqlite.prepare("select pp.body from page_plain pp join pages p on p.rowid = pp.id where pp.id = ? and p.key = ? and p.etag = ?").pluck(),
      touch: this.sqlite.prepare("update page_state set last_used = max(last_used, ?), hits = hits + ? where key = ?"),
      keysOfTag: this.sqlite.prepare("select key from page_tags where tag = ?").pluck(),
      // A write marks a page stale again even while a re-render is claimed: that render read
      // what the write changed and is not stored (generation), so the page must come round again.
      markStale: this.sqlite.prepare("update page_state set stale = 1 where key = ? and stale <> 1"),
      markOld: this.sqlite.prepare("update page_state set stale = 1 where key = ? and stale = 0"),
      nextStale: this.sqlite.prepare("select key from page_state where stale = 1 order by hits desc, last_used desc limit 1").pluck(),
      abandoned: this.sqlite.prepare("select key from page_state where stale > 1 and stale < ? limit 1").pluck(),
      claim: this.sqlite.prepare("update page_state set stale = ? where key = ? and (stale = 1 or (stale > 1 and stale < ?))"),
      unclaim: this.sqlite.prepare("update page_state set stale = 1 where key = ? and stale > 1"),
      check: this.sqlite.prepare("select p.rowid, p.etag, p.stored_at, s.stale from pages p join page_state s on s.key = p.key where p.key = ?"),
      counter: this.sqlite.prepare("select n from counters where name = ?").pluck(),
      bump: this.sqlite.prepare("update counters set n = n + ? where name = ? returning n").pluck(),
      count: this.sqlite.prepare("select count(*) from pages").pluck(),
      current: this.sqlite.prepare("select p.stored_at, s.stale from pages p join page_state s on s.key = p.key where p.key = ?"),
      lease: this.sqlite.prepare("select value from meta where name = 'warmer'").pluck(),
      setLease: this.sqlite.prepare("insert or replace into meta (name, value) values ('warmer', ?)"),
    };
    this.writer = new PageWriter(this.sqlite, maxBytes, { removed: (key) => this.front.forget(key), beforeEvict: () => this.flush() });
  }

  /** Invalidations so far, by any process: a render begun before another one is not stored. */
  generation(): number {
    return this.writer.generation();
  }

  /** Records a change to what a key serves, inside the write's transaction (see get()). */
  private changed(): void {
    this.writer.changed();
  }

  /** The page stored under a key (its headers and metadata; bodies come from body()). */
  get(key: string): StoredPage | undefined {
    // The front may hold what another process has since replaced, removed or marked stale: after
    // any change to the store (the shared counter moved), a front page is checked against its row
    // once (ETag, stale mark, time stored) before it is served; its bodies stay if it still holds.
    const changes = this.statements.counter.get("changes") as number;
    let page = this.front.peek(key);
    const previousGone = Date.now() - this.buildSince >= KEEP_PREVIOUS_MS;
    if (page && this.checked.get(page) !== changes) {
      const row = this.statements.check.get(key) as Pick<Row, "rowid" | "etag" | "stale" | "stored_at"> | undefined;
      if (row && row.rowid === page.rowid && row.etag === page.etag) {
        page.stale = row.stale !== 0;
        page.storedAt = row.stored_at;
        this.checked.set(page, changes);
      } else {
        this.front.forget(key);
        page = undefined;
      }
    }
    if (page && previousGone && page.storedAt < this.buildSince) {
      this.front.forget(key);
      return undefined;
    }
    if (page) this.front.take(key);
    else {
      const row = this.statements.get.get(key) as Row | undefined;
      // A page of the previous build past the hour its assets are kept: never served (the miss
      // renders it again and replaces it).
      if (!row || (previousGone && row.stored_at < this.buildSince)) return undefined;
      page = {
        key: row.key,
        rowid: row.rowid,
        status: row.status,
        headers: JSON.parse(row.headers) as [string, string][],
        etag: row.etag,
        tags: row.tags ? row.tags.split("\n") : [],
        size: row.size,
        hasBr: row.has_br === 1,
        stale: row.stale !== 0,
        storedAt: row.stored_at,
      };
      this.front.remember(page);
      this.checked.set(page, changes);
    }
    const entry = this.touched.get(key);
    if (entry) {
      entry[0] = Date.now();
      entry[1]++;
    } else this.touched.set(key, [Date.now(), 1]);
    this.timer ??= setTimeout(() => this.flush(), 1_000).unref();
    return page;
  }

  /** A stored body of a page got from get(), read from the file the first time it is asked for. */
  body(page: StoredPage, encoding: Encoding): Buffer | undefined {
    if (encoding === "br" && !page.hasBr) return undefined;
    const kept = page[encoding];
    if (kept) return kept;
    const body = this.statements[encoding].get(page.rowid, page.key, page.etag) as Buffer | undefined;
    if (body) this.front.keepBody(page, encoding, body);
    return body;
  }

  /** Writes the pending last-used times and hit counts (LRU order, re-render priority). */
  flush(): void {
    this.timer = undefined;
    if (!this.touched.size) return;
    const touched = this.touched;
    this.touched = new Map();
    this.sqlite.transaction(() => {
      for (const [key, [at, hits]] of touched) this.statements.touch.run(at, hits, key);
    })();
  }

  /** Stores a page (with `generation`, only if no invalidation came since: it may show what that write changed). */
  put(page: NewPage): boolean {
    this.front.forget(page.key);
    return this.writer.put(page);
  }

  /** Removes one page (inside a transaction); answers the store's size after. */
  private removeKey(key: string): number {
    return this.writer.removeKey(key);
  }

  remove(key: string): void {
    this.sqlite.transaction(() => void this.removeKey(key)).immediate();
  }

  /** The keys of every page carrying one of the tags, or of every page. */
  private keys(tags: readonly string[] | undefined): string[] {
    if (!tags) return this.sqlite.prepare("select key from pages").pluck().all() as string[];
    const keys = new Set<string>();
    for (const tag of tags) for (const key of this.statements.keysOfTag.all(tag) as string[]) keys.add(key);
    return [...keys];
  }

  /**
   * An invalidation, in one transaction seen by every process: pages carrying a `remove` tag go at
   * once, pages carrying a `tags` tag are marked stale (without `tags`, every page goes), and a
   * render begun before it is not stored. Answers how many pages were marked stale.
   */
  invalidate({ tags, remove }: { tags?: readonly string[]; remove?: readonly string[] }): number {
    let n = 0;
    this.sqlite
      .transaction(() => {
        this.statements.bump.get(1, "generation");
        if (!tags) return this.removeTagged();
        if (remove?.length) this.removeTagged(remove);
        if (tags.length) n = this.markStale(tags);
      })
      .immediate();
    return n;
  }

  /** Marks pages stale (served until re-rendered); without tags, every page. Returns how many. */
  markStale(tags?: readonly string[]): number {
    let n = 0;
    this.sqlite
      .transaction(() => {
        this.front.clear();
        if (!tags) n = this.sqlite.prepare("update page_state set stale = 1 where stale <> 1").run().changes;
        else for (const key of this.keys(tags)) n += this.statements.markStale.run(key).changes;
        if (n) this.changed();
      })
      .immediate();
    return n;
  }

  /** Marks a page stale that was served too long (never one already stale or being re-rendered). */
  markStaleKey(key: string): void {
    this.front.forget(key);
    this.sqlite
      .transaction(() => {
        if (this.statements.markOld.run(key).changes) this.changed();
      })
      .immediate();
  }

  /** Removes the pages carrying one of the tags (without tags, every page) at once. */
  removeTagged(tags?: readonly string[]): void {
    this.sqlite
      .transaction(() => {
        if (!tags) {
          this.front.clear();
          this.sqlite.exec("delete from pages; delete from page_state; delete from page_tags; update counters set n = 0 where name = 'bytes';");
          this.changed();
          return;
        }
        for (const key of this.keys(tags)) this.removeKey(key);
      })
      .immediate();
  }

  /**
   * Claims the stale page to re-render first (the most read, then the most recently read), or one
   * whose claim was abandoned: each stale page is re-rendered by one process of the box. The claim
   * ends when the page is stored (fresh), marked stale again, or removed.
   */
  nextStale(): string | undefined {
    this.flush();
    const now = Date.now();
    for (let tries = 0; tries < 8; tries++) {
      // Read first: claiming takes the write lock, finding nothing should not.
      const key = (this.statements.nextStale.get() ?? this.statements.abandoned.get(now - CLAIM_MS)) as string | undefined;
      if (!key) return undefined;
      // Another process may claim it between the read and here: then try the next one.
      if (this.statements.claim.run(now, key, now - CLAIM_MS).changes) return key;
    }
    return undefined;
  }

  /** Ends this process's claim on a page it re-rendered but did not store: it comes round again. */
  unclaim(key: string): void {
    this.statements.unclaim.run(key);
  }

  /**
   * Whether the store holds a page for the key that the warm-up need not render: one of this build,
   * or one of the previous build that is marked stale (the stale re-render replaces it).
   */
  holds(key: string): boolean {
    if (this.front.has(key)) return true;
    const row = this.statements.current.get(key) as { stored_at: number; stale: number } | undefined;
    if (!row) return false;
    return row.stored_at >= this.buildSince || Date.now() - this.buildSince < KEEP_PREVIOUS_MS;
  }

  /**
   * Takes or renews the warm-up lease for `owner` (one process of the box walks the warm list):
   * true while this owner holds it; a lease its holder stopped renewing (it ended) is free again.
   */
  warmLease(owner: string): boolean {
    const now = Date.now();
    return this.sqlite
      .transaction(() => {
        const [holder, until] = String(this.statements.lease.get() ?? ":0").split(":");
        if (holder !== owner && Number(until) > now) return false;
        this.statements.setLease.run(`${owner}:${now + WARM_LEASE_MS}`);
        return true;
      })
      .immediate();
  }

  /** Gives the warm-up lease back (the walk ended, or this process stops). */
  endWarmLease(owner: string): void {
    this.sqlite
      .transaction(() => {
        if (String(this.statements.lease.get() ?? "").split(":")[0] === owner) this.statements.setLease.run(":0");
      })
      .immediate();
  }

  stats(): { bytes: number; pages: number } {
    return { bytes: this.statements.counter.get("bytes") as number, pages: this.statements.count.get() as number };
  }

  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.flush();
    this.sqlite.close();
  }
}
