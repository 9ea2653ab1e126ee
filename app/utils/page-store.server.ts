import { chmodSync, mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import SQLite from "better-sqlite3";

// The page store of DESIGN §12 (docs/decisions/016-page-store.md): anonymous public responses,
// rendered once, kept compressed with their headers in a SQLite file of their own in DATA_DIR
// (`pages.db`), so they survive a restart and cost no JavaScript heap. A separate connection:
// the store never takes the content database's write lock. Bounded by bytes, least recently used
// out. This module knows nothing of HTTP or rendering: it keeps rows.

// A small in-memory front of the most recently served pages (parsed headers and the bodies asked
// for): a hot page costs no SQLite read and no JSON parse. Bounded by bytes; any change to the
// store empties what it touches.
const FRONT_BYTES = 24 * 1024 * 1024;

// The file's layout; another one (an older release) is deleted and made anew: it is a cache.
const FORMAT = "3";

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

// Measured on the rotation over 9,744 stored articles (docs/perf/016-page-store.md): a hit that
// missed the front cost a 25 KB read with the blobs before the small columns, and every hit
// rewrote its whole row a second later (last used, hits). So:
// - what a hit changes (last used, hits, stale) lives in `page_state`, a small row of its own;
// - in `pages` the small columns come first and the bodies last, each read only when asked for;
// - 16 KB database pages hold a whole article's bodies in one or two pages (4 KB pages took six).
const SCHEMA = `
create table if not exists pages (
  key text not null unique,
  status integer not null,
  headers text not null,
  etag text not null,
  tags text not null,
  size integer not null,
  has_br integer not null,
  stored_at integer not null,
  gzip blob not null,
  br blob
);
-- The plain body (clients without compression), three times the gzip one: a table of its own, so
-- reading gzip or brotli never walks its overflow pages, nor reading it theirs. id = pages.rowid.
create table if not exists page_plain (
  id integer primary key,
  key text not null,
  body blob not null
);
create trigger if not exists pages_plain_out after delete on pages begin
  delete from page_plain where id = old.rowid;
end;
create table if not exists page_state (
  key text primary key,
  last_used integer not null,
  hits integer not null default 0,
  stale integer not null default 0
) without rowid;
create index if not exists page_state_last_used on page_state (last_used);
create index if not exists page_state_stale on page_state (stale) where stale = 1;
create table if not exists page_tags (
  tag text not null,
  key text not null,
  primary key (tag, key)
) without rowid;
create table if not exists meta (name text primary key, value text not null) without rowid;
`;

/** Opens pages.db in the current layout; a file in another layout is removed first (a cache). */
function openFile(file: string): SQLite.Database {
  let sqlite = new SQLite(file);
  const tables = sqlite.prepare("select name from sqlite_master where type = 'table'").pluck().all() as string[];
  const format = tables.includes("meta") ? sqlite.prepare("select value from meta where name = 'format'").pluck().get() : undefined;
  if (tables.length && format !== FORMAT) {
    sqlite.close();
    for (const suffix of ["", "-wal", "-shm"]) rmSync(file + suffix, { force: true });
    sqlite = new SQLite(file);
  }
  // Before the first table: a new file takes 16 KB pages (an existing one keeps its own).
  sqlite.pragma("page_size = 16384");
  return sqlite;
}

// What a page in the front costs besides its bodies (parsed headers, tags, the Map entry).
const FRONT_OVERHEAD = 1_000;

export class PageStore {
  private readonly sqlite: SQLite.Database;
  private bytes: number;
  /** Hits since the last flush: key → [last used, hits]; written in one transaction a second. */
  private touched = new Map<string, [number, number]>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly statements;
  private front = new Map<string, StoredPage>();
  private frontBytes = 0;

  constructor(
    dir: string,
    private readonly maxBytes: () => number,
    /** The build the pages were rendered by: another build (new asset names) empties the store. */
    build: string,
  ) {
    mkdirSync(dir, { recursive: true });
    const file = join(dir, "pages.db");
    this.sqlite = openFile(file);
    chmodSync(file, 0o600);
    this.sqlite.pragma("journal_mode = WAL");
    // The store is a cache: losing the last writes at a power cut costs a re-render, never data.
    this.sqlite.pragma("synchronous = OFF");
    this.sqlite.pragma("cache_size = -8000");
    this.sqlite.pragma("busy_timeout = 5000");
    this.sqlite.exec(SCHEMA);
    this.sqlite.prepare("insert or replace into meta (name, value) values ('format', ?)").run(FORMAT);
    const stored = this.sqlite.prepare("select value from meta where name = 'build'").pluck().get() as string | undefined;
    if (stored !== build) {
      this.sqlite.exec("delete from pages; delete from page_state; delete from page_tags;");
      this.sqlite.prepare("insert or replace into meta (name, value) values ('build', ?)").run(build);
    }
    this.statements = {
      get: this.sqlite.prepare(
        `select p.rowid, p.key, p.status, p.headers, p.etag, p.tags, p.size, p.has_br, p.stored_at, s.stale
         from pages p join page_state s on s.key = p.key where p.key = ?`,
      ),
      gzip: this.sqlite.prepare("select gzip from pages where rowid = ? and key = ?").pluck(),
      br: this.sqlite.prepare("select br from pages where rowid = ? and key = ?").pluck(),
      identity: this.sqlite.prepare("select body from page_plain where id = ? and key = ?").pluck(),
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
      markStale: this.sqlite.prepare("update page_state set stale = 1 where key = ? and stale = 0"),
      nextStale: this.sqlite.prepare("select key from page_state where stale = 1 order by hits desc, last_used desc limit 1").pluck(),
      total: this.sqlite.prepare("select coalesce(sum(size), 0) from pages").pluck(),
      count: this.sqlite.prepare("select count(*) from pages").pluck(),
    };
    this.bytes = this.statements.total.get() as number;
  }

  /** The page stored under a key (its headers and metadata; bodies come from body()). */
  get(key: string): StoredPage | undefined {
    let page = this.front.get(key);
    if (page) {
      // Most recently used last in the Map's order.
      this.front.delete(key);
      this.front.set(key, page);
    } else {
      const row = this.statements.get.get(key) as Row | undefined;
      if (!row) return undefined;
      page = {
        key: row.key,
        rowid: row.rowid,
        status: row.status,
        headers: JSON.parse(row.headers) as [string, string][],
        etag: row.etag,
        tags: row.tags ? row.tags.split("\n") : [],
        size: row.size,
        hasBr: row.has_br === 1,
        stale: row.stale === 1,
        storedAt: row.stored_at,
      };
      this.remember(page);
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
    const body = this.statements[encoding].get(page.rowid, page.key) as Buffer | undefined;
    if (body) this.keepInFront(page, encoding, body);
    return body;
  }

  /** Keeps a page in the in-memory front, oldest out past FRONT_BYTES. */
  private remember(page: StoredPage): void {
    this.forget(page.key);
    this.front.set(page.key, page);
    this.frontBytes += FRONT_OVERHEAD;
    this.trimFront();
  }

  private trimFront(): void {
    for (const [key] of this.front) {
      if (this.frontBytes <= FRONT_BYTES) break;
      this.forget(key);
    }
  }

  private forget(key: string): void {
    const page = this.front.get(key);
    if (!page) return;
    this.front.delete(key);
    this.frontBytes -= FRONT_OVERHEAD + (page.gzip?.length ?? 0) + (page.br?.length ?? 0) + (page.identity?.length ?? 0);
  }

  /** Keeps a body of a page beside it in the front. */
  private keepInFront(page: StoredPage, encoding: Encoding, body: Buffer): void {
    if (this.front.get(page.key) !== page || page[encoding]) return;
    page[encoding] = body;
    this.frontBytes += body.length;
    this.trimFront();
  }

  private clearFront(): void {
    this.front.clear();
    this.frontBytes = 0;
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

  put(page: NewPage): void {
    const budget = this.maxBytes();
    // One page may not take more than an eighth of the budget (nor anything when the budget is 0).
    if (page.size > budget / 8) return;
    this.forget(page.key);
    const now = Date.now();
    this.sqlite.transaction(() => {
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
      this.bytes += page.size - (old ?? 0);
    })();
    if (this.bytes > budget) this.evict(budget);
  }

  /** Least recently used out until the store is back under 90% of its budget. */
  private evict(budget: number): void {
    this.flush();
    this.sqlite.transaction(() => {
      while (this.bytes > budget * 0.9) {
        const keys = this.statements.oldest.all(64) as string[];
        if (!keys.length) break;
        for (const key of keys) {
          this.removeKey(key);
          if (this.bytes <= budget * 0.9) break;
        }
      }
    })();
  }

  private removeKey(key: string): void {
    this.forget(key);
    const size = this.statements.remove.get(key) as number | undefined;
    this.statements.removeState.run(key);
    this.statements.deleteTags.run(key);
    if (size !== undefined) this.bytes -= size;
  }

  remove(key: string): void {
    this.removeKey(key);
  }

  /** The keys of every page carrying one of the tags, or of every page. */
  private keys(tags: readonly string[] | undefined): string[] {
    if (!tags) return this.sqlite.prepare("select key from pages").pluck().all() as string[];
    const keys = new Set<string>();
    for (const tag of tags) for (const key of this.statements.keysOfTag.all(tag) as string[]) keys.add(key);
    return [...keys];
  }

  /** Marks pages stale (served until re-rendered); without tags, every page. Returns how many. */
  markStale(tags?: readonly string[]): number {
    this.clearFront();
    if (!tags) return this.sqlite.prepare("update page_state set stale = 1 where stale = 0").run().changes;
    let n = 0;
    this.sqlite.transaction(() => {
      for (const key of this.keys(tags)) n += this.statements.markStale.run(key).changes;
    })();
    return n;
  }

  markStaleKey(key: string): void {
    this.forget(key);
    this.statements.markStale.run(key);
  }

  /** Removes the pages carrying one of the tags (without tags, every page) at once. */
  removeTagged(tags?: readonly string[]): void {
    if (!tags) {
      this.clearFront();
      this.sqlite.exec("delete from pages; delete from page_state; delete from page_tags;");
      this.bytes = 0;
      return;
    }
    this.sqlite.transaction(() => {
      for (const key of this.keys(tags)) this.removeKey(key);
    })();
  }

  /** The stale page to re-render first: the most read, then the most recently read. */
  nextStale(): string | undefined {
    this.flush();
    return this.statements.nextStale.get() as string | undefined;
  }

  stats(): { bytes: number; pages: number } {
    return { bytes: this.bytes, pages: this.statements.count.get() as number };
  }

  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.flush();
    this.sqlite.close();
  }
}
