import { resolve } from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "~": resolve("app") } },
  test: {
    include: ["tests/unit/**/*.test.ts", "tests/integration/**/*.test.ts"],
    setupFiles: ["tests/setup.ts"],
    globalSetup: ["tests/vitest-global-setup.ts"],
    // Each file gets its own process and temp DATA_DIR (tests/setup.ts): real SQLite, no mocks.
    pool: "forks",
    testTimeout: 30_000,
    // As Playwright (playwright.config.ts): in CI a failed test runs once more, and the run says so.
    retry: process.env.CI ? 1 : 0,
    hookTimeout: 60_000,
  },
});
