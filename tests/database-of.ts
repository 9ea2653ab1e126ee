import { createHash } from "node:crypto";
import { join } from "node:path";
import { sql } from "kysely";
import pg from "pg";
import { openPostgres, WRITE_LOCK } from "../db/engines/postgres";
import { openDatabase, type DB } from "../db/index";
import { databaseUrlFor } from "./pg";

// Tests that look into a running server's database: the folder's news.db on SQLite, or under
// `npm run test:pg` the folder's own PostgreSQL database (tests/pg.ts). One connection, closed after.

/** Runs fn against the database of the site in dataDir (or at `url`), then closes the connection. */
export async function withDatabaseOf<T>(dataDir: string, fn: (db: DB) => Promise<T>, { url }: { url?: string } = {}): Promise<T> {
  const databaseUrl = url ?? (await databaseUrlFor(dataDir));
  const handle = databaseUrl ? openPostgres(databaseUrl, { max: 1 }) : openDatabase(join(dataDir, "news.db"));
  try {
    return await fn(handle.db);
  } finally {
    await handle.close();
  }
}

/** "ok" when the database is whole: SQLite's integrity_check, or on PostgreSQL every table readable. */
export async function integrityOf(dataDir: string): Promise<string> {
  const databaseUrl = await databaseUrlFor(dataDir);
  if (!databaseUrl) {
    const handle = openDatabase(join(dataDir, "news.db"));
    try {
      return handle.sqlite.pragma("integrity_check", { simple: true }) as string;
    } finally {
      await handle.close();
    }
  }
  return withDatabaseOf(dataDir, async (db) => {
    for (const table of await db.introspection.getTables())
      await db
        .selectFrom(table.name as never)
        .select((eb) => eb.fn.countAll().as("n"))
        .execute();
    return "ok";
  });
}

/** True when the suite runs on PostgreSQL (`npm run test:pg`). */
export const onPostgres = Boolean(process.env.PG_ADMIN_URL);

/** The rows of one statement (`?` for each parameter, on either engine) against the site in dataDir. */
export function rowsOf<T>(dataDir: string, text: string, ...params: unknown[]): Promise<T[]> {
  const parts = text.split("?");
  const statement = sql.join(
    parts.map((part, i) => (i < params.length ? sql`${sql.raw(part)}${params[i]}` : sql.raw(part))),
    sql``,
  );
  return withDatabaseOf(dataDir, async (db) => (await statement.execute(db)).rows as T[]);
}

/** The first row of one statement, like rowsOf. */
export async function rowOf<T>(dataDir: string, text: string, ...params: unknown[]): Promise<T> {
  return (await rowsOf<T>(dataDir, text, ...params))[0];
}

/**
 * Holds the site's write lock from another connection, as a backup or another writer would, until
 * release(): SQLite `BEGIN IMMEDIATE` on news.db; PostgreSQL the advisory lock every write
 * transaction takes (db/engines/postgres.ts).
 */
export async function holdWriteLock(dataDir: string): Promise<{ release: () => Promise<void> }> {
  const databaseUrl = await databaseUrlFor(dataDir);
  if (!databaseUrl) {
    const handle = openDatabase(join(dataDir, "news.db"));
    handle.sqlite.exec("BEGIN IMMEDIATE");
    let held = true;
    return {
      release: async () => {
        if (!held) return;
        held = false;
        handle.sqlite.exec("ROLLBACK");
        await handle.close();
      },
    };
  }
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  await client.query("select pg_advisory_lock($1)", [WRITE_LOCK]);
  let held = true;
  return {
    // Called more than once (a timer and a finally): only the first releases.
    release: async () => {
      if (!held) return;
      held = false;
      await client.query("select pg_advisory_unlock($1)", [WRITE_LOCK]);
      await client.end();
    },
  };
}

/**
 * A hash per table of what a request might change (columns as listed, rows in a fixed order
 * whatever the engine returns first), so a test that expects "nothing changed" names the table.
 */
export function contentDigest(dataDir: string, tables: readonly (readonly [table: string, columns: string])[]): Promise<Record<string, string>> {
  return withDatabaseOf(dataDir, async (db) => {
    const hashes: Record<string, string> = {};
    for (const [table, columns] of tables) {
      const rows = (await sql.raw(`select ${columns} from ${table}`).execute(db)).rows.map((row) => JSON.stringify(row)).sort();
      hashes[table] = createHash("sha256").update(JSON.stringify(rows)).digest("hex").slice(0, 16);
    }
    return hashes;
  });
}
