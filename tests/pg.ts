import { createHash } from "node:crypto";
import pg from "pg";

// The PostgreSQL half of the suite (DESIGN §13): `npm run test:pg` (scripts/test-pg.mjs) starts a
// throwaway PostgreSQL on 127.0.0.1 and sets PG_ADMIN_URL. Every DATA_DIR a test uses then gets a
// database of its own, named after the folder, so a server restarted on the same folder (or two
// servers sharing one) meet the same data, as they would share news.db on SQLite.

/** The database URL for a data folder when the suite runs on PostgreSQL, else undefined (SQLite). */
export async function databaseUrlFor(dataDir: string): Promise<string | undefined> {
  const admin = process.env.PG_ADMIN_URL;
  if (!admin) return undefined;
  const name = `news_${createHash("sha1").update(dataDir).digest("hex").slice(0, 16)}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  try {
    await client.query(`create database ${name}`);
  } catch (error) {
    // 42P04: it exists already (a restart on the same folder); 23505: another server on the same
    // folder made it at this very moment.
    if (!["42P04", "23505"].includes(String((error as { code?: string }).code))) throw error;
  } finally {
    await client.end();
  }
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Drops a data folder's database (after its test file). */
export async function dropDatabaseFor(dataDir: string): Promise<void> {
  const admin = process.env.PG_ADMIN_URL;
  if (!admin) return;
  const name = `news_${createHash("sha1").update(dataDir).digest("hex").slice(0, 16)}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  try {
    await client.query(`drop database if exists ${name} with (force)`);
  } finally {
    await client.end();
  }
}
