// npm run backup [-- <target folder>]: a consistent copy of DATA_DIR taken while the site runs.
// The database is copied with SQLite's online backup API (better-sqlite3 `backup`), which is safe
// against concurrent writers in WAL mode, then checked with `PRAGMA integrity_check`; on
// PostgreSQL (DATABASE_URL) with `pg_dump` (one consistent snapshot, custom format, checked by
// `pg_restore --list`). Uploads and the session secret are copied beside it. Exit code 1 (and a
// plain message) when anything fails.
// A backup holds password hashes and the session secret: its files are 0600 and its folders
// 0700 (owner only), like news.db and session-secret in DATA_DIR (SECURITY.md 'File modes').
import { execFileSync } from "node:child_process";
import { chmodSync, closeSync, cpSync, existsSync, mkdirSync, openSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import SQLite from "better-sqlite3";
import { openPostgres, redactedUrl } from "../db/engines/postgres";

export async function backup({ dataDir, target, databaseUrl }: { dataDir: string; target: string; databaseUrl?: string }) {
  const source = join(dataDir, "news.db");
  if (!databaseUrl && !existsSync(source)) throw new Error(`No database at ${source}: is DATA_DIR right?`);
  mkdirSync(target, { recursive: true, mode: 0o700 });
  if (readdirSync(target).length) throw new Error(`${target} is not empty: choose a new folder for each backup.`);
  chmodSync(target, 0o700);
  const counts = databaseUrl ? await dumpPostgres(databaseUrl, target) : await copySqlite(source, target);
  // Media from UPLOADS_DIR when it is set (a shared mount), as the site reads them.
  const uploads = process.env.UPLOADS_DIR?.trim() ? resolve(process.env.UPLOADS_DIR.trim()) : join(dataDir, "uploads");
  if (existsSync(uploads)) cpSync(uploads, join(target, "uploads"), { recursive: true });
  const secret = join(dataDir, "session-secret");
  if (existsSync(secret)) cpSync(secret, join(target, "session-secret"));
  ownerOnly(target);
  return { target, ...counts };
}

/** pg_dump: PG_DUMP, else the newest server's own (Debian: /usr/lib/postgresql/N/bin), else on PATH. */
function pgDumpCommand(): string {
  if (process.env.PG_DUMP) return process.env.PG_DUMP;
  const root = "/usr/lib/postgresql";
  const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  for (const version of versions) if (existsSync(join(root, version, "bin", "pg_dump"))) return join(root, version, "bin", "pg_dump");
  return "pg_dump";
}

async function dumpPostgres(url: string, target: string) {
  const handle = openPostgres(url, { max: 1 });
  let counts: { articles: number; users: number };
  try {
    const site = await handle.db.introspection.getTables();
    if (!site.some((t) => t.name === "articles"))
      throw new Error(`No site in the database ${redactedUrl(url)} (it has no articles table): is DATABASE_URL right?`);
    const count = async (table: "articles" | "users") =>
      Number(
        (
          await handle.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number>().as("n"))
            .executeTakeFirstOrThrow()
        ).n,
      );
    counts = { articles: await count("articles"), users: await count("users") };
  } finally {
    await handle.close();
  }
  const command = pgDumpCommand();
  const file = join(target, "news.pgdump");
  closeSync(openSync(file, "wx", 0o600));
  try {
    execFileSync(command, ["--format=custom", "--no-owner", "--file", file, "--dbname", url], { stdio: ["ignore", "ignore", "pipe"] });
    execFileSync(command.replace(/pg_dump$/, "pg_restore"), ["--list", file], { stdio: ["ignore", "ignore", "pipe"] });
  } catch (error) {
    const e = error as NodeJS.ErrnoException & { stderr?: Buffer };
    if (e.code === "ENOENT") {
      throw new Error(`pg_dump was not found (${command}): install PostgreSQL's client tools (apt-get install postgresql-client) or set PG_DUMP to its path.`);
    }
    throw new Error(`pg_dump of ${redactedUrl(url)} failed: ${(e.stderr?.toString() || e.message).trim().replaceAll(url, redactedUrl(url))}`);
  }
  return { ...counts, check: "pg_restore --list ok" };
}

async function copySqlite(source: string, target: string) {
  const db = new SQLite(source, { readonly: true, fileMustExist: true });
  db.pragma("busy_timeout = 5000");
  const copy = join(target, "news.db");
  // Created owner-only before SQLite writes into it (SQLite keeps an existing file's mode).
  closeSync(openSync(copy, "wx", 0o600));
  try {
    await db.backup(copy);
  } finally {
    db.close();
  }

  const check = new SQLite(copy, { readonly: true });
  const result = check.pragma("integrity_check", { simple: true });
  const counts = check.prepare("select (select count(*) from articles) articles, (select count(*) from users) users").get() as {
    articles: number;
    users: number;
  };
  check.close();
  if (result !== "ok") throw new Error(`The copy failed its integrity check: ${result}`);
  return { ...counts, check: "integrity ok" };
}

/** Every file under dir 0600, every folder 0700. */
function ownerOnly(dir: string) {
  chmodSync(dir, 0o700);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) ownerOnly(path);
    else chmodSync(path, 0o600);
  }
}

// Run as a command (not when imported by a test).
if (process.argv[1] && resolve(process.argv[1]).endsWith("backup.ts")) {
  const dataDir = resolve(process.env.DATA_DIR || "./data");
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  const target = resolve(process.argv[2] || join("backups", `news-${stamp}`));
  backup({ dataDir, target, databaseUrl: process.env.DATABASE_URL?.trim() || undefined })
    .then(({ articles, users, check }) => console.log(`Backup written to ${target} (${check}; ${articles} articles, ${users} users).`))
    .catch((error) => {
      console.error(`Backup failed: ${error.message}`);
      process.exit(1);
    });
}
