// npm run backup [-- <target folder>]: a consistent copy of DATA_DIR taken while the site runs.
// The database is copied with SQLite's online backup API (better-sqlite3 `backup`), which is safe
// against concurrent writers in WAL mode, then checked with `PRAGMA integrity_check`; uploads and
// the session secret are copied beside it. Exit code 1 (and a plain message) when anything fails.
// A backup holds password hashes and the session secret: its files are 0600 and its folders
// 0700 (owner only), like news.db and session-secret in DATA_DIR (SECURITY.md 'File modes').
import { chmodSync, closeSync, cpSync, existsSync, mkdirSync, openSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import SQLite from "better-sqlite3";

export async function backup({ dataDir, target }: { dataDir: string; target: string }) {
  const source = join(dataDir, "news.db");
  if (!existsSync(source)) throw new Error(`No database at ${source}: is DATA_DIR right?`);
  mkdirSync(target, { recursive: true, mode: 0o700 });
  if (readdirSync(target).length) throw new Error(`${target} is not empty: choose a new folder for each backup.`);
  chmodSync(target, 0o700);

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

  for (const name of ["uploads", "session-secret"]) {
    const from = join(dataDir, name);
    if (existsSync(from)) cpSync(from, join(target, name), { recursive: true });
  }
  ownerOnly(target);
  return { target, ...counts };
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
  backup({ dataDir, target })
    .then(({ articles, users }) => console.log(`Backup written to ${target} (integrity ok; ${articles} articles, ${users} users).`))
    .catch((error) => {
      console.error(`Backup failed: ${error.message}`);
      process.exit(1);
    });
}
