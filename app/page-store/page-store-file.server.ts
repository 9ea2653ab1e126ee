import { rmSync } from "node:fs";
import SQLite from "better-sqlite3";

// pages.db's layout and what a new build does to it (the page store, ./page-store.server.ts;
// docs/decisions/016, 032): a file in another layout is deleted and made anew, since it is a cache.

/** The file's layout: a file in another one (an older release) is deleted and made anew. */
const FORMAT = "3";

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
-- Shared by the processes of the box (docs/decisions/020): 'generation' counts invalidations (a
-- render begun before one is not stored), 'changes' counts changes to what any key serves (a
-- process empties its in-memory front when another made one), 'bytes' is the size of all pages.
create table if not exists counters (name text primary key, n integer not null) without rowid;
-- page_state.stale: 0 fresh, 1 stale, else the time (ms) a process claimed its re-render.
create index if not exists page_state_claimed on page_state (stale) where stale > 1;
`;

/** Opens pages.db in the current layout; a file in another layout is removed first (a cache). */
export function openFile(file: string): SQLite.Database {
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

/** Makes the tables (an existing file keeps its rows) and records the layout. */
export function createLayout(sqlite: SQLite.Database): void {
  sqlite.exec(SCHEMA);
  sqlite.prepare("insert or replace into meta (name, value) values ('format', ?)").run(FORMAT);
}

/**
 * A store opened by another build than the one that filled it: empties it, or, after a deploy whose
 * previous build's assets are still served (`keepPrevious`), keeps its pages stale (issue 30).
 */
export function takeOverBuild(sqlite: SQLite.Database, build: string, keepPrevious?: (storedBuild: string) => boolean): void {
  const stored = sqlite.prepare("select value from meta where name = 'build'").pluck().get() as string | undefined;
  if (stored !== build) {
    sqlite.transaction(() => {
      if (stored !== undefined && keepPrevious?.(stored)) {
        // A deploy: the previous build's pages stay, stale (re-rendered most read first), and are
        // served only while its assets are (KEEP_PREVIOUS_MS). Its `.data` answers go: a new
        // build's scripts read the new loaders' data.
        sqlite.exec(`update page_state set stale = 1 where stale <> 1;
          delete from page_state where key in (select key from pages where key like '%.data' or key like '%.data?%');
          delete from page_tags where key in (select key from pages where key like '%.data' or key like '%.data?%');
          delete from pages where key like '%.data' or key like '%.data?%';
          update counters set n = (select coalesce(sum(size), 0) from pages) where name = 'bytes';`);
      } else {
        sqlite.exec(`delete from pages; delete from page_state; delete from page_tags;
          update counters set n = 0 where name = 'bytes';`);
      }
      sqlite.exec("update counters set n = n + 1 where name in ('changes', 'generation');");
      sqlite.prepare("insert or replace into meta (name, value) values ('build', ?)").run(build);
      sqlite.prepare("insert or replace into meta (name, value) values ('build_since', ?)").run(String(Date.now()));
    })();
  }
}
