import { chmodSync, closeSync, mkdirSync, openSync } from "node:fs";
import { join, resolve } from "node:path";
import SQLite from "better-sqlite3";
import { Kysely, SqliteDialect, sql, type SqliteDatabase, type SqliteStatement } from "kysely";
import type { Database } from "./schema";

export type DB = Kysely<Database>;

interface Handle {
  path: string;
  sqlite: SQLite.Database;
  db: DB;
}

/** Every commit waits for the disk, but those writeTransaction is told need not. */
const SYNCHRONOUS = "FULL";

/** Opens (creating if needed) the SQLite file with the pragmas SECURITY.md 'Data' asks for. */
export function openDatabase(file: string): Handle {
  // SECURITY.md 'Data': the database holds password hashes, so it is the owner's alone (0600);
  // SQLite gives its -wal and -shm files the database file's mode. An older 0644 file is tightened.
  closeSync(openSync(file, "a", 0o600));
  chmodSync(file, 0o600);
  const sqlite = new SQLite(file);
  sqlite.pragma("journal_mode = WAL");
  // better-sqlite3 defaults to NORMAL, which can lose the last commits on power loss.
  sqlite.pragma(`synchronous = ${SYNCHRONOUS}`);
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("busy_timeout = 5000");
  sqlite.function("uk_sort_key", { deterministic: true }, (text: unknown) => (typeof text === "string" ? ukSortKey(text) : text));
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: cachingStatements(sqlite) }) });
  return { path: file, sqlite, db };
}

const UK_ALPHABET = "абвгґдеєжзиіїйклмнопрстуфхцчшщьюя";
const LATIN = "abcdefghijklmnopqrstuvwxyz";

/**
 * A key that sorts titles as a Ukrainian reader expects when compared byte by byte (SQLite's
 * own NOCASE folds only ASCII and puts ґ, є, і, ї after я): case and punctuation ignored, the
 * Ukrainian alphabet in its order, then Latin letters (Cyrillic first, as CLDR's uk collation).
 * Registered as the SQL function uk_sort_key(text).
 */
export function ukSortKey(text: string): string {
  let key = "";
  for (const c of text.toLocaleLowerCase("uk").replace(/[^\p{L}\p{N}\s]/gu, "")) {
    const uk = UK_ALPHABET.indexOf(c);
    const latin = LATIN.indexOf(c);
    key += uk >= 0 ? String.fromCharCode(0x3000 + uk) : latin >= 0 ? String.fromCharCode(0x3100 + latin) : c;
  }
  return key;
}

const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely prepares every query's SQL afresh; preparing costs more than running most of our
 * indexed reads (docs/decisions/009). This keeps the last 500 prepared statements by SQL text
 * (least recently used first out). Streamed queries get a statement of their own, so a cached
 * one is never left mid-iteration; a schema change re-prepares inside SQLite by itself.
 */
function cachingStatements(sqlite: SQLite.Database): SqliteDatabase {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string): SqliteStatement {
      let statement = statements.get(sql);
      if (statement) {
        statements.delete(sql);
      } else {
        statement = sqlite.prepare(sql);
        if (statements.size >= STATEMENT_CACHE_SIZE) statements.delete(statements.keys().next().value!);
      }
      statements.set(sql, statement);
      const cached = statement;
      return {
        reader: cached.reader,
        all: (parameters) => cached.all(parameters),
        run: (parameters) => cached.run(parameters),
        iterate: (parameters) => sqlite.prepare(sql).iterate(parameters),
      };
    },
  };
}

/** The data folder: DATA_DIR, or ./data (the one place that default lives). */
export function dataDir(): string {
  return resolve(process.env.DATA_DIR || "./data");
}

// One connection per data folder in this module graph (docs/decisions/012: server.ts carries no
// copy of this module; a `remix dev` rebuild closes the old build's connection before the new one
// opens its own).
const handles = new Map<string, Handle>();

/** The process-wide database handle for DATA_DIR (opened on first use). */
export function getHandle(): Handle {
  const dir = dataDir();
  let handle = handles.get(dir);
  if (!handle) {
    mkdirSync(dir, { recursive: true });
    handle = openDatabase(join(dir, "news.db"));
    handles.set(dir, handle);
  }
  return handle;
}

/** The Kysely instance every model uses. */
export const db: DB = new Proxy({} as DB, {
  get(_target, property) {
    const instance = getHandle().db;
    const value = Reflect.get(instance, property);
    return typeof value === "function" ? value.bind(instance) : value;
  },
});

/** Closes the process's database (shutdown, tests). */
export async function closeDatabase(): Promise<void> {
  const dir = dataDir();
  const handle = handles.get(dir);
  if (!handle) return;
  handles.delete(dir);
  await handle.db.destroy();
}

/**
 * Runs fn in a `BEGIN IMMEDIATE` transaction: the write lock is taken up front, so a
 * read-modify-write never fails half way with SQLITE_BUSY when another process (a backup, the
 * sqlite3 shell) wrote in between; it waits up to the busy timeout instead.
 * fn must use the executor it is given, not `db`, for every query.
 *
 * `durable: false` commits without waiting for the disk (`synchronous = NORMAL` for this one
 * transaction): for writes that may lose their last second at a power cut, and only those — the
 * batched view counts, which wait up to a second in memory anyway. The database stays consistent,
 * and the next ordinary (FULL) commit makes everything before it durable too.
 */
export async function writeTransaction<T>(fn: (trx: DB) => Promise<T>, { durable = true }: { durable?: boolean } = {}): Promise<T> {
  return db.connection().execute(async (connection) => {
    if (!durable) await sql`pragma synchronous = NORMAL`.execute(connection);
    try {
      await sql`begin immediate`.execute(connection);
      try {
        const result = await fn(connection);
        await sql`commit`.execute(connection);
        return result;
      } catch (error) {
        await sql`rollback`.execute(connection);
        throw error;
      }
    } finally {
      if (!durable) await sql.raw(`pragma synchronous = ${SYNCHRONOUS}`).execute(connection);
    }
  });
}
