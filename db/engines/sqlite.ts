import { chmodSync, closeSync, openSync } from "node:fs";
import SQLite from "better-sqlite3";
import { Kysely, SqliteDialect, sql, type SqliteDatabase, type SqliteStatement } from "kysely";
import type { Database } from "../schema";
import { ukSortKey } from "../uk-sort-key";
import type { DB, EngineHandle, TransactionOptions } from "./types";

// The default engine (DESIGN §13): one SQLite file in DATA_DIR, WAL, opened with the pragmas
// SECURITY.md 'Data' asks for. Everything SQLite-only about connections, transactions, busy
// errors and upkeep lives here; the SQL that differs per engine is in db/sql/.

/** Every commit waits for the disk, but those writeTransaction is told need not. */
const SYNCHRONOUS = "FULL";

export interface SqliteHandle extends EngineHandle {
  engine: "sqlite";
  path: string;
  sqlite: SQLite.Database;
}

/** Opens (creating if needed) the SQLite file with the pragmas SECURITY.md 'Data' asks for. */
export function openSqlite(file: string): SqliteHandle {
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
  // SQLite's LOWER() folds ASCII only; unicode_lower folds Cyrillic too (db/sql/text.ts).
  sqlite.function("unicode_lower", { deterministic: true }, (value: unknown) => String(value ?? "").toLowerCase());
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: cachingStatements(sqlite) }) });
  const dataVersion = sqlite.prepare("pragma data_version").pluck();

  return {
    engine: "sqlite",
    path: file,
    sqlite,
    db,
    transaction: (fn, options) => sqliteTransaction(db, fn, options),
    // One prepared statement: better-sqlite3's pragma() prepares anew on every call (0.04 ms).
    changeVersion: () => dataVersion.get() as number,
    // Opening the file above already proved it (faults are told apart by server/start.ts).
    ready: () => Promise.resolve(),
    async probe() {
      // Page 1 is read, not just `select 1` on the connection; a short busy timeout for this probe
      // only, so an outside process holding an exclusive lock gives a 503 within a second.
      const timeout = sqlite.pragma("busy_timeout", { simple: true }) as number;
      sqlite.pragma("busy_timeout = 1000");
      try {
        sqlite.prepare("select count(*) from sqlite_master").get();
      } finally {
        sqlite.pragma(`busy_timeout = ${timeout}`);
      }
    },
    // Planner statistics (docs/decisions/004): without sqlite_stat1, SQLite takes `status = ?` for
    // a selective index and walks every published article to find a handful by id. A bounded
    // ANALYZE costs milliseconds at start; PRAGMA optimize keeps the figures fresh.
    async analyze() {
      sqlite.exec("PRAGMA analysis_limit = 1000; ANALYZE;");
    },
    async optimize() {
      sqlite.exec("PRAGMA optimize");
    },
    close: () => db.destroy(),
  };
}

/**
 * Runs fn in a `BEGIN IMMEDIATE` transaction: the write lock is taken up front, so a
 * read-modify-write never fails half way with SQLITE_BUSY when another process wrote in between;
 * it waits up to the busy timeout instead. `durable: false` commits without waiting for the disk
 * (`synchronous = NORMAL` for this one transaction).
 */
async function sqliteTransaction<T>(db: DB, fn: (trx: DB) => Promise<T>, { durable = true }: TransactionOptions = {}): Promise<T> {
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

/** SQLITE_BUSY / SQLITE_LOCKED (and their extended codes): another writer held the lock too long. */
export function isSqliteBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return (
    typeof code === "string" && (code === "SQLITE_BUSY" || code.startsWith("SQLITE_BUSY_") || code === "SQLITE_LOCKED" || code.startsWith("SQLITE_LOCKED_"))
  );
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
