import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { freePort } from "../server-process";

// Issue 12: one environment schema (app/utils/env.server.ts); a bad value stops the start with one
// plain paragraph naming the variable, exit 1, before anything listens.
const dir = mkdtempSync(join(tmpdir(), "news-env-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function startWith(env: Record<string, string>) {
  const child = spawn(process.execPath, ["build/server.js"], {
    env: { ...process.env, NODE_ENV: "production", PORT: String(await freePort()), DATA_DIR: dir, LOG_REQUESTS: "0", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => (stdout += d));
  child.stderr.on("data", (d) => (stderr += d));
  const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
  const code = await new Promise<number | null>((resolve) => child.once("exit", (c) => resolve(c)));
  clearTimeout(timer);
  return { code, stdout, stderr };
}

describe("a bad environment variable", () => {
  for (const [name, value] of [
    ["PAGE_CACHE_MB", "abc"],
    ["RATE_LIMIT_WINDOW", "-1"],
    ["TRUST_PROXY", "10.0.0.300"],
    ["LOG_REQUESTS", "yes"],
    ["WORKERS", "0"],
    ["WORKERS", "65"],
  ]) {
    it(`${name}=${value} stops the start, naming the variable`, async () => {
      const result = await startWith({ [name]: value });
      expect(result.code, result.stderr).toBe(1);
      expect(result.stderr).toContain(`${name}="${value}"`);
      expect(result.stderr).not.toMatch(/\n\s+at /);
      expect(result.stderr.trim().split("\n")).toHaveLength(1);
      expect(result.stdout).not.toMatch(/Наука UA: http/);
    });
  }

  it("with WORKERS=2 a bad variable stops the start too: every worker ends and the primary exits 1", async () => {
    const result = await startWith({ WORKERS: "2", LOG_REQUESTS: "yes" });
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toContain(`LOG_REQUESTS="yes"`);
    expect(result.stderr).toMatch(/Worker \d+ could not start \(exit code 1\): stopping the site/);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(result.stdout).not.toMatch(/Наука UA: http/);
  });
});

// DESIGN §13: a DATABASE_URL that cannot be used stops the start with one line naming the
// problem, and never the password.
describe("a DATABASE_URL the site cannot use", () => {
  const secret = "s3cret-pa55";
  it("not a PostgreSQL URL: named, value hidden", async () => {
    const result = await startWith({ DATABASE_URL: `mysql://news:${secret}@127.0.0.1/news` });
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toContain("DATABASE_URL=(hidden): must be postgres://user:password@host:port/database");
    expect(result.stderr).not.toContain(secret);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
  });

  it("nothing listens at the address: one plain line, no password, no stack", async () => {
    const port = await freePort();
    const result = await startWith({ DATABASE_URL: `postgres://news:${secret}@127.0.0.1:${port}/news` });
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toContain(`Cannot reach PostgreSQL at postgres://news:***@127.0.0.1:${port}/news (ECONNREFUSED)`);
    expect(result.stderr).not.toContain(secret);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(result.stdout).not.toMatch(/Наука UA: http/);
  });

  it.runIf(Boolean(process.env.PG_ADMIN_URL))("a database that does not exist is named, with the command that makes it", async () => {
    const admin = new URL(process.env.PG_ADMIN_URL!);
    const missing = new URL(admin);
    missing.pathname = "/no_such_database";
    const noDb = await startWith({ DATABASE_URL: missing.toString() });
    expect(noDb.code, noDb.stderr).toBe(1);
    expect(noDb.stderr).toContain('has no database "no_such_database": create it (createdb no_such_database)');
    expect(noDb.stderr.trim().split("\n")).toHaveLength(1);
  });
});
