import { randomInt } from "node:crypto";
import { chmodSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import type SQLite from "better-sqlite3";
import { PageFront } from "./page-front.server";
import { createLayout, openFile, takeOverBuild } from "./page-store-file.server";

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

export interface NewPage {
  key: string;
  status: number;
  headers: [string, string][];
  gzip: Buffer;
  br: Buffer | null;
  /** The uncompressed body, for clients that take no compression. */
  identity: Buffer;
  etag: string;
  tags: string[];
  size: number;
  stale: boolean;
  /** Store only if no invalidation (by any process) came since this generation (PageStore.generation). */
  generation?: number;
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
  /** The most recently served pages in memory (page-front.server.ts). */
  private readonly front = new PageFront();
  /** The shared 'changes' counter when a front page was last read or checked against its row. */
  private checked = new WeakMap<StoredPage, number>();

  /**
   * When this build took the store over (ms): a page stored before it is the previous build's, served
   * (stale, until re-rendered) only within KEEP_PREVIOUS_MS, while that build's assets are kept.
   */
  readonly buildSince: number;

  constructor(
    dir: string,
    private readonly maxBytes: () => number,
    /** The build the pages were rendered by: another build (new asset names) empties the store. */
    build: string,
    /**
     * Issue 30 (docs/decisions/032): the previous build's fingerprinted assets stay served for an
     * hour (server/old-assets.ts), so its pages are kept, marked stale, and served until re-rendered.
     */
    { keepPrevious }: { keepPrevious?: (storedBuild: string) => boolean } = {},
  ) {
    mkdirSync(dir, { recursive: true });
    const file = join(dir, "pages.db");
    this.sqlite = openFile(file);
    chmodSync(file, 0o600);
    this.sqlite.pragma("journal_mode = WAL");
    // The store is a cache: losing the last writes at a power cut costs a re-render, never data.
    this.sqlite.pragma("synchronous = OFF");
    // SQLite's own default, 2 MB (8 MB before issue 30 item 4): hot pages are served from the front
    // and the rest are read through the operating system's file cache, so a bigger page cache of
    // their bodies was resident memory kept twice.
    this.sqlite.pragma("cache_size = -2000");
    this.sqlite.pragma("busy_timeout = 5000");
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
      put: this.sqlite
        .prepare(
          `insert into pages (key, status, headers, etag, tags, size, has_br, stored_at, gzip, br)
         values (@key, @status, @headers, @etag, @tags, @size, @hasBr, @now, @gzip, @br)
         on conflict (key) do update set status = @status, headers = @headers, etag = @etag, tags = @tags, size = @size,
           has_br = @hasBr, stored_at = @now, gzip = @gzip, br = @br
         returning rowid`,
        )
        .pluck(),
      putPlain: this.sqlite.prepare(
        `insert into page_plain (id, key, body) values (?, ?, ?) on conflict (id) do update set key = excluded.key, body = excluded.body`,
      ),
      putState: this.sqlite.prepare(
        `insert into page_state (key, last_used, hits, stale) values (@key, @now, 0, @stale)
         on conflict (key) do update set last_used = @now, stale = @stale`,
      ),
      sizeOf: this.sqlite.prepare("select size from pages where key = ?").pluck(),
      deleteTags: this.sqlite.prepare("delete from page_tags where key = ?"),
      addTag: this.sqlite.prepare("insert or ignore into page_tags (tag, key) values (?, ?)"),
      touch: this.sqlite.prepare("update page_state set last_used = max(last_used, ?), hits = hits + ? where key = ?"),
      remove: this.sqlite.prepare("delete from pages where key = ? returning size").pluck(),
      removeState: this.sqlite.prepare("delete from page_state where key = ?"),
      oldest: this.sqlite.prepare("select key from page_state order by last_used limit ?").pluck(),
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
  }

  /** Invalidations so far, by any process: a render begun before another one is not stored. */
  generation(): number {
    return this.statements.counter.get("generation") as number;
  }

  /** Records a change to what a key serves, inside the write's transaction (see get()). */
  private changed(): void {
    this.statements.bump.run(1, "changes");
  }

  private addBytes(delta: number): number {
    return this.statements.bump.get(delta, "bytes") as number;
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
  put(page: NewPage): void {
    const budget = this.maxBytes();
    // One page may not take more than an eighth of the budget (nor anything when the budget is 0).
    if (page.size > budget / 8) return;
    this.front.forget(page.key);
    const now = Date.now();
    let bytes = 0;
    // IMMEDIATE: a read then a write in a deferred transaction fails at once (SQLITE_BUSY) when
    // another process wrote in between; this one waits for the lock instead.
    this.sqlite
      .transaction(() => {
        if (page.generation !== undefined && this.generation() !== page.generation) return;
        const old = this.statements.sizeOf.get(page.key) as number | undefined;
        const rowid = this.statements.put.get({
          key: page.key,
          status: page.status,
          headers: JSON.stringify(page.headers),
          gzip: page.gzip,
          br: page.br,
          etag: page.etag,
          tags: page.tags.join("\n"),
          size: page.size,
          hasBr: page.br ? 1 : 0,
          now,
        }) as number;
        this.statements.putPlain.run(rowid, page.key, page.identity);
        this.statements.putState.run({ key: page.key, now, stale: page.stale ? 1 : 0 });
        this.statements.deleteTags.run(page.key);
        for (const tag of page.tags) this.statements.addTag.run(tag, page.key);
        bytes = this.addBytes(page.size - (old ?? 0));
        this.changed();
      })
      .immediate();
    if (bytes > budget) this.evict(budget);
  }

  /** Least recently used out until the store (every process's pages) is back under 90% of its budget. */
  private evict(budget: number): void {
    this.flush();
    this.sqlite
      .transaction(() => {
        let bytes = this.statements.counter.get("bytes") as number;
        while (bytes > budget * 0.9) {
          const keys = this.statements.oldest.all(64) as string[];
          if (!keys.length) break;
          for (const key of keys) {
            bytes = this.removeKey(key);
            if (bytes <= budget * 0.9) break;
          }
        }
      })
      .immediate();
  }

  /** Removes one page (inside a transaction); answers the store's size after. */
  private removeKey(key: string): number {
    this.front.forget(key);
    const size = this.statements.remove.get(key) as number | undefined;
    this.statements.removeState.run(key);
    this.statements.deleteTags.run(key);
    if (size === undefined) return this.statements.counter.get("bytes") as number;
    this.changed();
    return this.addBytes(-size);
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
