import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import SQLite from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { backup } from "../../scripts/backup";
import { onPostgres } from "../database-of";
import { databaseUrlFor } from "../pg";
import { startServer } from "../server-process";

const dirs: string[] = [];
const temp = (prefix: string) => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** pg_restore beside the server's own pg_dump (Debian: /usr/lib/postgresql/N/bin). */
function pgRestore(): string {
  const root = "/usr/lib/postgresql";
  const version = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a))[0] : undefined;
  return version ? join(root, version, "bin", "pg_restore") : "pg_restore";
}

describe("npm run backup", () => {
  it("copies a running site's database consistently while it is being written", async () => {
    const dataDir = temp("news-backup-src-");
    const site = await startServer({ dataDir });
    try {
      writeFileSync(join(dataDir, "uploads", "a.jpg"), "jpeg bytes");
      // Keep writing (sign-ins record attempts and sessions) while the backup runs.
      let writing = true;
      const writer = (async () => {
        while (writing) {
          await fetch(`${site.url}/api/auth/login`, {
            method: "POST",
            headers: { "Content-Type": "application/json" },
            body: JSON.stringify({ username: "admin", password: "admin123" }),
          });
        }
      })();
      const target = join(temp("news-backup-dst-"), "copy");
      const result = await backup({ dataDir, target, databaseUrl: await databaseUrlFor(dataDir) });
      writing = false;
      await writer;

      expect(result.articles).toBeGreaterThanOrEqual(24);
      expect(result.users).toBe(3);
      // SQLite: the copied file passes integrity_check; PostgreSQL: pg_dump's archive reads back.
      const copyFile = join(target, onPostgres ? "news.pgdump" : "news.db");
      if (onPostgres) expect(result.check).toBe("pg_restore --list ok");
      else {
        const copy = new SQLite(copyFile, { readonly: true });
        expect(copy.pragma("integrity_check", { simple: true })).toBe("ok");
        copy.close();
      }
      expect(readFileSync(join(target, "uploads", "a.jpg"), "utf8")).toBe("jpeg bytes");
      expect(readFileSync(join(target, "session-secret"), "utf8")).toBe(readFileSync(join(dataDir, "session-secret"), "utf8"));
      // Password hashes and the session secret: every file owner-only (0600), every folder 0700.
      const modes = (dir: string): [string, string][] =>
        readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
          const path = join(dir, e.name);
          const mode = (statSync(path).mode & 0o777).toString(8);
          return e.isDirectory() ? [[path, mode], ...modes(path)] : [[path, mode]];
        });
      const all = modes(target);
      expect(all.map(([p]) => p)).toEqual(expect.arrayContaining([copyFile, join(target, "session-secret"), join(target, "uploads", "a.jpg")]));
      for (const [path, mode] of [[target, (statSync(target).mode & 0o777).toString(8)], ...all]) {
        expect(mode, path).toBe(statSync(path).isDirectory() ? "700" : "600");
      }

      // The copy starts as a site of its own, with the same content.
      await site.stop("SIGTERM");
      // PostgreSQL: restored into a database of its own with pg_restore, as README says.
      if (onPostgres) execFileSync(pgRestore(), ["--no-owner", "--dbname", (await databaseUrlFor(target))!, copyFile]);
      const restored = await startServer({ dataDir: target });
      try {
        const login = await fetch(`${restored.url}/api/auth/login`, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ username: "admin", password: "admin123" }),
        });
        expect(login.status).toBe(200);
      } finally {
        await restored.stop("SIGKILL");
      }
    } finally {
      await site.stop("SIGKILL");
    }
    // Two server starts and a tsx process: generous under a loaded CI machine.
  }, 120_000);

  it("says plainly when there is nothing to back up, and refuses a non-empty target", () => {
    const empty = temp("news-backup-none-");
    const run = (args: string[], env: Record<string, string>) => {
      try {
        execFileSync("npx", ["tsx", "scripts/backup.ts", ...args], { env: { ...process.env, ...env }, stdio: "pipe" });
        return { code: 0, err: "" };
      } catch (error: any) {
        return { code: error.status, err: String(error.stderr) };
      }
    };
    // On PostgreSQL DATABASE_URL names this file's own database, which holds no site.
    const none = run([join(empty, "out")], { DATA_DIR: empty });
    expect(none.code).toBe(1);
    expect(none.err).toContain(onPostgres ? "Backup failed: No site in the database" : "Backup failed: No database at");
    expect(none.err).not.toMatch(/\n\s+at /);
    expect(existsSync(join(empty, "out", "news.db"))).toBe(false);
  });
});
