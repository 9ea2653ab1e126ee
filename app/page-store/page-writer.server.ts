import type SQLite from "better-sqlite3";

// What writes a page into pages.db and keeps the file within its budget: one connection's
// statements, used by the store (./page-store.server.ts) and by the page keeper's worker thread
// (app/workers/page-keeper.ts, issue 30 item 0), each on its own connection to the same file.

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

/** Sets a connection to pages.db up as every one of them is (the store's and the keeper's). */
export function tunePagesConnection(sqlite: SQLite.Database, cacheKb: number): void {
  sqlite.pragma("journal_mode = WAL");
  // The store is a cache: losing the last writes at a power cut costs a re-render, never data.
  sqlite.pragma("synchronous = OFF");
  sqlite.pragma(`cache_size = -${cacheKb}`);
  sqlite.pragma("busy_timeout = 5000");
}

export class PageWriter {
  private readonly statements;

  constructor(
    private readonly sqlite: SQLite.Database,
    private readonly maxBytes: () => number,
    private readonly hooks: {
      /** A page left the file (the store forgets its in-memory copy). */
      removed?: (key: string) => void;
      /** Before eviction picks the least recently used (the store writes its pending hits). */
      beforeEvict?: () => void;
    } = {},
  ) {
    this.statements = {
      put: sqlite
        .prepare(
          `insert into pages (key, status, headers, etag, tags, size, has_br, stored_at, gzip, br)
         values (@key, @status, @headers, @etag, @tags, @size, @hasBr, @now, @gzip, @br)
         on conflict (key) do update set status = @status, headers = @headers, etag = @etag, tags = @tags, size = @size,
           has_br = @hasBr, stored_at = @now, gzip = @gzip, br = @br
         returning rowid`,
        )
        .pluck(),
      putPlain: sqlite.prepare(
        `insert into page_plain (id, key, body) values (?, ?, ?) on conflict (id) do update set key = excluded.key, body = excluded.body`,
      ),
      putState: sqlite.prepare(
        `insert into page_state (key, last_used, hits, stale) values (@key, @now, 0, @stale)
         on conflict (key) do update set last_used = @now, stale = @stale`,
      ),
      sizeOf: sqlite.prepare("select size from pages where key = ?").pluck(),
      deleteTags: sqlite.prepare("delete from page_tags where key = ?"),
      addTag: sqlite.prepare("insert or ignore into page_tags (tag, key) values (?, ?)"),
      remove: sqlite.prepare("delete from pages where key = ? returning size").pluck(),
      removeState: sqlite.prepare("delete from page_state where key = ?"),
      oldest: sqlite.prepare("select key from page_state order by last_used limit ?").pluck(),
      counter: sqlite.prepare("select n from counters where name = ?").pluck(),
      bump: sqlite.prepare("update counters set n = n + ? where name = ? returning n").pluck(),
    };
  }

  /** Invalidations so far, by any process: a render begun before another one is not stored. */
  generation(): number {
    return this.statements.counter.get("generation") as number;
  }

  /** Records a change to what a key serves, inside the write's transaction (PageStore.get). */
  changed(): void {
    this.statements.bump.run(1, "changes");
  }

  addBytes(delta: number): number {
    return this.statements.bump.get(delta, "bytes") as number;
  }

  /**
   * Stores a page (with `generation`, only if no invalidation came since: it may show what that
   * write changed). Answers whether it was stored.
   */
  put(page: NewPage): boolean {
    const budget = this.maxBytes();
    // One page may not take more than an eighth of the budget (nor anything when the budget is 0).
    if (page.size > budget / 8) return false;
    const now = Date.now();
    let bytes: number | undefined;
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
    if (bytes === undefined) return false;
    if (bytes > budget) this.evict(budget);
    return true;
  }

  /** Least recently used out until the store (every process's pages) is back under 90% of its budget. */
  private evict(budget: number): void {
    this.hooks.beforeEvict?.();
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
  removeKey(key: string): number {
    this.hooks.removed?.(key);
    const size = this.statements.remove.get(key) as number | undefined;
    this.statements.removeState.run(key);
    this.statements.deleteTags.run(key);
    if (size === undefined) return this.statements.counter.get("bytes") as number;
    this.changed();
    return this.addBytes(-size);
  }
}
