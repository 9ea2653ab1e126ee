import { accessSync, chmodSync, closeSync, constants, mkdirSync, openSync } from "node:fs";
import { join } from "node:path";
import SQLite from "better-sqlite3";
import { closeDatabase, dataDir, db, engine, getHandle, uploadsDir } from "../../db/index";
import { migrateToLatest } from "../../db/migrate";
import { seedDatabase } from "../../db/seed";
import { IMPORT_BODY_BYTES } from "../import/limits.server";
import { mayBeOldPath, oldPathRedirect } from "../import/old-paths.server";
import { startScheduler, stopScheduler } from "../models/article-desk.server";
import { pruneAuditLog } from "../models/audit.server";
import { pruneLoginAttempts } from "../models/login-attempt.server";
import { pruneUnconfirmedSubscribers } from "../models/newsletter.server";
import { prunePasswordResets } from "../models/password-reset.server";
import { pruneExpiredSessions } from "../models/session.server";
import { pruneSignInChallenges } from "../models/sign-in-challenge.server";
import { cpuPoolStats, stopCpuPool } from "../utils/cpu-pool.server";
import { getEnv } from "../utils/env.server";
import { databaseBusyResponse, DATABASE_BUSY_MESSAGE, DATABASE_BUSY_RETRY_AFTER, isDatabaseBusy, isSameOrigin, MAX_BODY_BYTES } from "../utils/http.server";
import { rateLimiters } from "../utils/rate-limit.server";
import { MAX_UPLOAD_BODY_BYTES, UPLOAD_PATHS } from "../utils/upload-limits";
import { sitemapFileUrl } from "./feeds.server";
import { maintenanceResponse } from "./maintenance.server";
import { startNewsletterSender, stopNewsletterSender } from "./newsletter.server";
import { pageStoreStats, publicPageCache, stopPublicPages } from "./public-middleware.server";
import { countViews, flushViews } from "./view-counter.server";

// What server.ts needs of the app, exported by app/entry.server.tsx as `runtime` and reached as
// `build.entry.module.runtime` (docs/decisions/012): server.ts imports nothing from app/, db/ or
// migrations/, so the process holds one copy of every module and its state (the database handle,
// the page cache, the view counter, the sanitiser worker, the settings cache).

const OPTIMIZE_EVERY_MS = 6 * 3_600_000;
// Expired sessions and old sign-in attempts are useless rows: both tables would grow forever. The
// audit log keeps a year (SECURITY.md 'Audit log'); this prune is its only deletion.
const PRUNE_EVERY_MS = 3_600_000;

let jobs: ReturnType<typeof setInterval>[] = [];

/** The settings server.ts acts on; a bad variable throws an EnvError naming it. */
function config() {
  const env = getEnv();
  return {
    port: env.PORT,
    publicUrl: env.PUBLIC_URL,
    dev: env.NODE_ENV === "development",
    mode: env.NODE_ENV,
    trustProxy: env.TRUST_PROXY,
    logRequests: env.LOG_REQUESTS === "1",
    uploads: uploadsDir(),
    workers: env.WORKERS,
  };
}

// How long a starting process waits for another one on the same data folder to finish its start
// (a long migration included) before it gives up with a plain message.
const START_LOCK_WAIT_MS = 5 * 60_000;

/**
 * Takes the data folder's start lock (an exclusive SQLite lock on DATA_DIR/start.lock) and answers
 * its release. Processes sharing DATA_DIR (WORKERS=N, or several `npm start`s) start one at a time,
 * so the session secret, migrations, the demo seed and pages.db's layout are each made once: Kysely's
 * migrator takes no lock on SQLite. The operating system drops the lock of a process that dies.
 */
function holdStartLock(): () => void {
  const file = join(dataDir(), "start.lock");
  mkdirSync(dataDir(), { recursive: true });
  closeSync(openSync(file, "a", 0o600));
  chmodSync(file, 0o600);
  const lock = new SQLite(file, { timeout: START_LOCK_WAIT_MS });
  try {
    lock.exec("BEGIN EXCLUSIVE");
  } catch (error) {
    lock.close();
    if ((error as { code?: string }).code !== "SQLITE_BUSY") throw error;
    throw Object.assign(new Error(`another process on ${dataDir()} held its start lock (start.lock) for ${START_LOCK_WAIT_MS / 60_000} minutes`), {
      code: "START_LOCKED",
    });
  }
  return () => {
    if (!lock.open) return;
    lock.exec("COMMIT");
    lock.close();
  };
}

/** Creates the data folder, migrates, seeds an empty database and gathers planner statistics. */
async function startDatabase(): Promise<void> {
  const env = getEnv();
  // The database comes first: a folder we cannot write to stops here with a plain message.
  mkdirSync(dataDir(), { recursive: true });
  mkdirSync(uploadsDir(), { recursive: true });
  await getHandle().ready();
  await migrateToLatest(db);
  await seedDatabase({
    demo: env.SEED_DEMO === "1",
    admin: env.ADMIN_USERNAME && env.ADMIN_PASSWORD ? { username: env.ADMIN_USERNAME, password: env.ADMIN_PASSWORD } : undefined,
  });
  // Planner statistics (docs/decisions/004): without them SQLite takes `status = ?` for a selective
  // index and walks every published article to find a handful by id (40 ms a home page at 10,000
  // articles, ten times that at 100,000). Each engine knows how (db/engines/).
  await getHandle().analyze();
}

/** Deletes expired sessions, sign-ins left half-way (docs/decisions/023), sign-in attempts older than a day and audit entries older than a year. */
async function prune(): Promise<void> {
  await pruneExpiredSessions();
  await pruneSignInChallenges();
  await pruneLoginAttempts();
  await pruneAuditLog();
  await pruneUnconfirmedSubscribers();
  await prunePasswordResets();
}

/**
 * The periodic jobs: PRAGMA optimize, the prunes (now, then hourly) and the scheduler of the
 * editorial desk (issue 14: publishes what is due now, overdue ones included, then every second).
 * Timers never hold the process.
 */
function startJobs(): void {
  stopJobs();
  const pruneLogged = () =>
    prune().catch((error) => console.error(`Pruning sessions, sign-in attempts and the audit log failed: ${(error as Error)?.message ?? error}`));
  void pruneLogged();
  jobs = [
    setInterval(
      () =>
        void getHandle()
          .optimize()
          .catch(() => undefined),
      OPTIMIZE_EVERY_MS,
    ),
    setInterval(pruneLogged, PRUNE_EVERY_MS),
  ];
  for (const job of jobs) job.unref();
  startScheduler();
  startNewsletterSender();
}

function stopJobs(): void {
  stopScheduler();
  stopNewsletterSender();
  for (const job of jobs) clearInterval(job);
  jobs = [];
}

/**
 * Health for a process manager, proxy or monitor; throws when unhealthy: the database answers
 * within a second (SQLite: page 1 is read, with a short busy timeout for this probe only, so an
 * outside process holding an exclusive lock gives a 503 within a second instead of stalling the
 * event loop for the full five; PostgreSQL: a round trip) and the data folder (page store,
 * uploads) and, on SQLite, the database file are writable.
 */
async function healthCheck(): Promise<void> {
  await getHandle().probe();
  accessSync(dataDir(), constants.W_OK);
  if (engine() === "sqlite") accessSync(join(dataDir(), "news.db"), constants.W_OK);
}

/**
 * Releases what this build holds, at shutdown or before a `remix dev` rebuild takes over: views
 * counted but not yet written go to the database, statistics are refreshed, the sanitiser worker
 * ends and the database closes.
 */
async function stop(): Promise<void> {
  stopJobs();
  await stopPublicPages();
  await flushViews().catch((error) => console.error("Page views lost at shutdown:", error));
  try {
    await getHandle().optimize();
  } catch {
    // Statistics are an optimisation; a failure here must not stop a clean exit.
  }
  await stopCpuPool();
  await closeDatabase();
}

export const runtime = {
  config,
  dataDir,
  holdStartLock,
  startDatabase,
  startJobs,
  prune,
  healthCheck,
  stop,
  rateLimiters,
  maintenanceResponse,
  mayBeOldPath,
  oldPathRedirect,
  sitemapFileUrl,
  countViews,
  publicPageCache,
  pageStoreStats,
  cpuPoolStats,
  isSameOrigin,
  // Issue 28: the one POST that comes from other sites by design (RFC 8058), exactly this path.
  isOneClickUnsubscribe: (path: string) => path === "/newsletter/unsubscribe",
  bodyLimits: { MAX_BODY_BYTES, MAX_UPLOAD_BODY_BYTES, UPLOAD_PATHS, IMPORT_BODY_BYTES },
  isDatabaseBusy,
  databaseBusyResponse,
  DATABASE_BUSY_MESSAGE,
  DATABASE_BUSY_RETRY_AFTER,
};

export type Runtime = typeof runtime;
