import { chmodSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import SQLite from "better-sqlite3";

// The page store of DESIGN §12 (docs/decisions/016-page-store.md): anonymous public responses,
// rendered once, kept compressed with their headers in a SQLite file of their own in DATA_DIR
// (`pages.db`), so they survive a restart and cost no JavaScript heap. A separate connection:
// the store never takes the content database's write lock. Bounded by bytes, least recently used
// out. This module knows nothing of HTTP or rendering: it keeps rows.

// A small in-memory front of the most recently served pages (parsed headers, both encodings and,
// once a client without compression asked, the plain body): a hot page costs no SQLite read, no
// JSON parse and no gunzip. Bounded by bytes; any change to the store empties what it touches.
const FRONT_BYTES = 24 * 1024 * 1024;

export interface StoredPage {
  key: string;
  status: number;
  headers: [string, string][];
  gzip: Buffer;
  br: Buffer | null;
  etag: string;
  tags: string[];
  size: number;
  stale: boolean;
  storedAt: number;
  /** The uncompressed body, kept in the in-memory front once made. */
  identity?: Buffer;
}

interface Row {
  key: string;
  status: number;
  headers: string;
  gzip: Buffer;
  br: Buffer | null;
  etag: string;
  tags: string;
  size: number;
  stale: number;
  stored_at: number;
}

const SCHEMA = `
create table if not exists pages (
  key text primary key,
  status integer not null,
  headers text not null,
  gzip blob not null,
  br blob,
  etag text not null,
  tags text not null,
  size integer not null,
  last_used integer not null,
  hits integer not null default 0,
  stale integer not null default 0,
  stored_at integer not null
) without rowid;
create index if not exists pages_last_used on pages (last_used);
create index if not exists pages_stale on pages (stale) where stale = 1;
create table if not exists page_tags (
  tag text not null,
  key text not null,
  primary key (tag, key)
) without rowid;
create table if not exists meta (name text primary key, value text not null) without rowid;
`;

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
    this.sqlite = new SQLite(file);
    chmodSync(file, 0o600);
    this.sqlite.pragma("journal_mode = WAL");
    // The store is a cache: losing the last writes at a power cut costs a re-render, never data.
    this.sqlite.pragma("synchronous = OFF");
    this.sqlite.pragma("cache_size = -8000");
    this.sqlite.pragma("busy_timeout = 5000");
    this.sqlite.exec(SCHEMA);
    const stored = this.sqlite.prepare("select value from meta where name = 'build'").pluck().get() as string | undefined;
    if (stored !== build) {
      this.sqlite.exec("delete from pages; delete from page_tags;");
      this.sqlite.prepare("insert or replace into meta (name, value) values ('build', ?)").run(build);
    }
    this.statements = {
      get: this.sqlite.prepare("select key, status, headers, gzip, br, etag, tags, size, stale, stored_at from pages where key = ?"),
      put: this.sqlite.prepare(
        `insert into pages (key, status, headers, gzip, br, etag, tags, size, last_used, hits, stale, stored_at)
         values (@key, @status, @headers, @gzip, @br, @etag, @tags, @size, @now, 0, @stale, @now)
         on conflict (key) do update set status = @status, headers = @headers, gzip = @gzip, br = @br, etag = @etag, tags = @tags,
           size = @size, last_used = @now, stale = @stale, stored_at = @now`,
      ),
      sizeOf: this.sqlite.prepare("select size from pages where key = ?").pluck(),
      deleteTags: this.sqlite.prepare("delete from page_tags where key = ?"),
      addTag: this.sqlite.prepare("insert or ignore into page_tags (tag, key) values (?, ?)"),
      touch: this.sqlite.prepare("update pages set last_used = max(last_used, ?), hits = hits + ? where key = ?"),
      remove: this.sqlite.prepare("delete from pages where key = ? returning size").pluck(),
      oldest: this.sqlite.prepare("select key from pages order by last_used limit ?").pluck(),
      keysOfTag: this.sqlite.prepare("select key from page_tags where tag = ?").pluck(),
      markStale: this.sqlite.prepare("update pages set stale = 1 where key = ?"),
      nextStale: this.sqlite.prepare("select key from pages where stale = 1 order by hits desc, last_used desc limit 1").pluck(),
      total: this.sqlite.prepare("select coalesce(sum(size), 0) from pages").pluck(),
      count: this.sqlite.prepare("select count(*) from pages").pluck(),
    };
    this.bytes = this.statements.total.get() as number;
  }

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
        status: row.status,
        headers: JSON.parse(row.headers) as [string, string][],
        gzip: row.gzip,
        br: row.br,
        etag: row.etag,
        tags: row.tags ? row.tags.split("\n") : [],
        size: row.size,
        stale: row.stale === 1,
        storedAt: row.stored_at,
      };
      this.remember(page, row.size);
    }
    const entry = this.touched.get(key);
    if (entry) {
      entry[0] = Date.now();
      entry[1]++;
    } else this.touched.set(key, [Date.now(), 1]);
    this.timer ??= setTimeout(() => this.flush(), 1_000).unref();
    return page;
  }

  /** Keeps a page in the in-memory front, oldest out past FRONT_BYTES. */
  private remember(page: StoredPage, bytes: number): void {
    this.forget(page.key);
    this.front.set(page.key, page);
    this.frontBytes += bytes;
    for (const [key] of this.front) {
      if (this.frontBytes <= FRONT_BYTES) break;
      this.forget(key);
    }
  }

  private forget(key: string): void {
    const page = this.front.get(key);
    if (!page) return;
    this.front.delete(key);
    this.frontBytes -= page.size + (page.identity?.length ?? 0);
  }

  /** Keeps the uncompressed body of a page beside it in the front (clients without compression). */
  rememberIdentity(page: StoredPage, body: Buffer): void {
    if (this.front.get(page.key) !== page || page.identity) return;
    page.identity = body;
    this.frontBytes += body.length;
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

  put(page: Omit<StoredPage, "storedAt">): void {
    const budget = this.maxBytes();
    // One page may not take more than an eighth of the budget (nor anything when the budget is 0).
    if (page.size > budget / 8) return;
    this.forget(page.key);
    this.sqlite.transaction(() => {
      const old = this.statements.sizeOf.get(page.key) as number | undefined;
      this.statements.put.run({
        key: page.key,
        status: page.status,
        headers: JSON.stringify(page.headers),
        gzip: page.gzip,
        br: page.br,
        etag: page.etag,
        tags: page.tags.join("\n"),
        size: page.size,
        now: Date.now(),
        stale: page.stale ? 1 : 0,
      });
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
    if (!tags) return this.sqlite.prepare("update pages set stale = 1 where stale = 0").run().changes;
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
      this.sqlite.exec("delete from pages; delete from page_tags;");
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
