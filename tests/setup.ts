import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeEach, vi } from "vitest";
import { databaseUrlFor, dropDatabaseFor } from "./pg";

// Every test file runs against a fresh SQLite file in its own temp folder, or, under
// `npm run test:pg`, a fresh PostgreSQL database of its own (tests/pg.ts).
const dir = mkdtempSync(join(tmpdir(), "news-test-"));
process.env.DATA_DIR = dir;
const databaseUrl = await databaseUrlFor(dir);
if (databaseUrl) process.env.DATABASE_URL = databaseUrl;
process.env.NODE_ENV = "test";
process.env.LOG_REQUESTS = "0";

// STYLE.md 'Tests': console.error during a unit test is a failure.
let errors: unknown[][] = [];
beforeEach(() => {
  errors = [];
  vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
    errors.push(args);
  });
});
afterEach(() => {
  vi.restoreAllMocks();
  if (errors.length) throw new Error(`console.error was called: ${errors.map((e) => e.map(String).join(" ")).join("\n")}`);
});

afterAll(async () => {
  const { stopBuild } = await import("./helpers");
  await stopBuild();
  const { closeDatabase } = await import("../db/index");
  const { stopCpuPool } = await import("../app/utils/cpu-pool.server");
  await stopCpuPool();
  await closeDatabase();
  await dropDatabaseFor(dir);
  rmSync(dir, { recursive: true, force: true });
});
