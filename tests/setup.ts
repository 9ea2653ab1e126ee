import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeEach, vi } from "vitest";

// Every test file runs against a fresh SQLite file in its own temp folder.
const dir = mkdtempSync(join(tmpdir(), "news-test-"));
process.env.DATA_DIR = dir;
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
  rmSync(dir, { recursive: true, force: true });
});
