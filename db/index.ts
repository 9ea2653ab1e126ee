import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { openPostgres, isPostgresBusy, redactedUrl, type PostgresHandle } from "./engines/postgres";
import { isSqliteBusy, openSqlite, type SqliteHandle } from "./engines/sqlite";
import type { DB, EngineName, TransactionOptions } from "./engines/types";

export type { DB, EngineName } from "./engines/types";
export { ukSortKey } from "./uk-sort-key";
export { BROADCAST_MAX_BYTES, redactedUrl } from "./engines/postgres";

// DESIGN §13: SQLite in DATA_DIR by default; PostgreSQL when DATABASE_URL is set. This module
// picks the engine and hands out the one Kysely instance; each engine's own ways (pragmas, pool,
// transactions, busy errors, change notifications) are in db/engines/, and the few statements
// whose SQL differs are in db/sql/. Models never ask which engine runs.

type Handle = SqliteHandle | PostgresHandle;

/** Opens a SQLite file with the pragmas SECURITY.md 'Data' asks for (scripts and tests). */
export const openDatabase = openSqlite;

/** The data folder: DATA_DIR, or ./data (the one place that default lives). */
export function dataDir(): string {
  return resolve(process.env.DATA_DIR || "./data");
}

/** Where media files live: UPLOADS_DIR (a shared mount when several boxes serve one site), or DATA_DIR/uploads. */
export function uploadsDir(): string {
  return process.env.UPLOADS_DIR?.trim() ? resolve(process.env.UPLOADS_DIR.trim()) : join(dataDir(), "uploads");
}

/** DATABASE_URL when set (PostgreSQL), else undefined (SQLite in DATA_DIR). */
export function databaseUrl(): string | undefined {
  return process.env.DATABASE_URL?.trim() || undefined;
}

/** Which engine this process runs on. */
export function engine(): EngineName {
  return databaseUrl() ? "postgres" : "sqlite";
}

/** Where the data lives, for messages: the SQLite file, or the PostgreSQL URL without its password. */
export function databaseLabel(): string {
  const url = databaseUrl();
  return url ? redactedUrl(url) : join(dataDir(), "news.db");
}

// One connection (SQLite) or pool (PostgreSQL) per database in this module graph
// (docs/decisions/012: server.ts carries no copy of this module; a `remix dev` rebuild closes the
// old build's connection before the new one opens its own).
const handles = new Map<string, Handle>();
const handleKey = () => databaseUrl() ?? dataDir();

/** The process-wide database handle (opened on first use). */
export function getHandle(): Handle {
  const key = handleKey();
  let handle = handles.get(key);
  if (!handle) {
    const url = databaseUrl();
    if (url) {
      handle = openPostgres(url);
    } else {
      mkdirSync(dataDir(), { recursive: true });
      handle = openSqlite(join(dataDir(), "news.db"));
    }
    handles.set(key, handle);
  }
  return handle;
}

/** The SQLite connection itself, for the few SQLite-only tools (backup, generator, tests). */
export function getSqlite() {
  const handle = getHandle();
  if (handle.engine !== "sqlite") throw new Error("This needs the SQLite engine (DATABASE_URL is set)");
  return handle.sqlite;
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
  const key = handleKey();
  const handle = handles.get(key);
  if (!handle) return;
  handles.delete(key);
  await handle.close();
}

/**
 * Runs fn as one atomic write, one writer at a time: on SQLite a `BEGIN IMMEDIATE` transaction
 * (the write lock taken up front, so a read-modify-write never fails half way when another
 * process wrote in between); on PostgreSQL a transaction holding a site-wide advisory lock
 * (db/engines/postgres.ts). fn must use the executor it is given, not `db`, for every query, and
 * may run more than once (a deadlock is retried).
 *
 * `durable: false` commits without waiting for the disk, for writes that may lose their last
 * second at a power cut, and only those (the batched view counts).
 */
export function writeTransaction<T>(fn: (trx: DB) => Promise<T>, options: TransactionOptions = {}): Promise<T> {
  return getHandle().transaction((trx) => {
    writing.add(trx);
    return fn(trx);
  }, options);
}

// The executors writeTransaction has handed out, so that a write which must share its change's
// transaction (the audit log's recordAudit) can refuse any other executor.
const writing = new WeakSet<DB>();

/** Whether executor is the one a writeTransaction gave its function. */
export function isWriteTransaction(executor: DB): boolean {
  return writing.has(executor);
}

/** An error that means the database is busy (locked, a lost serialisation race): 503, not 500. */
export function isDatabaseBusy(error: unknown): boolean {
  return isSqliteBusy(error) || isPostgresBusy(error);
}

/** Changes when another connection or process committed something in-process caches must see. */
export function databaseChangeVersion(): number {
  return getHandle().changeVersion();
}

/** Sends a message to every process of the site, on every box (PostgreSQL); nothing on SQLite (one box). */
export async function broadcast(message: string): Promise<void> {
  await getHandle().broadcast?.(message);
}

/** Calls fn with every broadcast message (PostgreSQL); answers the unsubscribe. */
export function onBroadcast(fn: (message: string) => void): () => void {
  return getHandle().onBroadcast?.(fn) ?? (() => undefined);
}

/** After a write that other processes' caches must see (settings, menu): PostgreSQL NOTIFY; SQLite sees it by itself. */
export async function announceChange(executor: DB): Promise<void> {
  await getHandle().announceChange?.(executor);
}
