import { existsSync, mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineConfig, devices } from "@playwright/test";
import { START_ENV, START_FLAGS } from "./tests/start-flags";

// One fresh DATA_DIR for the whole run. The config is evaluated again in each worker; workers
// inherit the runner's environment, so the first value sticks.
process.env.E2E_DATA_DIR ??= mkdtempSync(join(tmpdir(), "news-e2e-"));
process.env.E2E_PORT ??= String(3100 + Math.floor(Math.random() * 800));
// Issue 28: the site's mail goes to a real SMTP server started beside it (tests/e2e/mail-sink.mjs).
process.env.E2E_MAIL_DIR ??= join(process.env.E2E_DATA_DIR, "mail-sink");
const smtpPort = Number(process.env.E2E_PORT) + 1000;

const port = Number(process.env.E2E_PORT);
export const baseURL = `http://127.0.0.1:${port}`;

// DESIGN §2: Debian's Chromium; Playwright's own download cannot work here.
const chromium = process.env.CHROMIUM_PATH ?? (existsSync("/usr/bin/chromium") ? "/usr/bin/chromium" : undefined);

const GLOBAL_SPECS = readdirSync("tests/e2e")
  .filter((f) => f.endsWith(".global.spec.ts"))
  .sort();

const browser = {
  ...devices["Desktop Chrome"],
  launchOptions: {
    executablePath: chromium,
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  },
};

export default defineConfig({
  testDir: "tests/e2e",
  globalSetup: "./tests/e2e/global-setup.ts",
  fullyParallel: true,
  forbidOnly: Boolean(process.env.CI),
  retries: process.env.CI ? 1 : 0,
  workers: 2,
  reporter: process.env.CI ? [["list"]] : [["list"]],
  timeout: 30_000,
  expect: { timeout: 7_000 },
  use: {
    baseURL,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    locale: "uk-UA",
    timezoneId: "Europe/Kyiv",
  },
  // Specs that change site-wide state (settings, maintenance mode, the homepage layout) are named
  // *.global.spec.ts and run after all the others, one file at a time (each file is a project that
  // depends on the one before), so they never pull the rug from under another test.
  projects: [
    { name: "chromium", testIgnore: /\.global\.spec\.ts$/, use: browser },
    ...GLOBAL_SPECS.map((file, i) => ({
      name: `site-wide: ${file}`,
      testMatch: new RegExp(`(^|/)${file.replace(/\./g, "\\.")}$`),
      dependencies: [i === 0 ? "chromium" : `site-wide: ${GLOBAL_SPECS[i - 1]}`],
      fullyParallel: false,
      use: browser,
    })),
  ],
  webServer: [
    {
      command: "node tests/e2e/mail-sink.mjs",
      port: smtpPort,
      reuseExistingServer: false,
      env: { MAIL_SINK_DIR: process.env.E2E_MAIL_DIR, MAIL_SINK_PORT: String(smtpPort) },
    },
    {
      command: `node scripts/ensure-build.mjs && node ${START_FLAGS.join(" ")} build/server.js`,
      url: `${baseURL}/healthz`,
      reuseExistingServer: false,
      timeout: 180_000,
      env: {
        ...START_ENV,
        NODE_ENV: "production",
        PORT: String(port),
        DATA_DIR: process.env.E2E_DATA_DIR,
        // `npm run test:pg` (scripts/test-pg.mjs) runs the same specs on PostgreSQL.
        ...(process.env.E2E_DATABASE_URL ? { DATABASE_URL: process.env.E2E_DATABASE_URL } : {}),
        PUBLIC_URL: baseURL,
        SEED_DEMO: "1",
        LOG_REQUESTS: "0",
        // Every spec signs in and writes from 127.0.0.1; the limits have their own tests.
        RATE_LIMIT: "0",
        // The specs read public pages right after staff writes, as the store kept them before issue 30:
        // only what a reader asked for. The store's own warm-up (at start, after a publish) is
        // tested in tests/integration/store-warm.test.ts, on both engines.
        PAGE_STORE_WARM: "0",
        SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
        MAIL_RATE_PER_MINUTE: "600",
        // Issue 29: the editor's Crossref button asks a stand-in that tests/e2e/science-desk.spec.ts runs.
        CROSSREF_LOOKUP: "1",
        CROSSREF_URL: `http://127.0.0.1:${port + 2000}`,
      },
    },
  ],
});
