import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { isIP } from "node:net";
import { join } from "node:path";
import { z } from "zod";
import { dataDir } from "../../db/index";

// DESIGN §3: every variable is optional; parsed once with zod so a typo fails loudly at boot.
// One schema for every variable of the README's Configuration table: nothing else in app/ reads
// process.env (DATA_DIR's default lives in dataDir(), db/index.ts, which scripts share).
const onOff = (fallback: "0" | "1") => z.enum(["0", "1"], { message: "must be 0 or 1" }).default(fallback);
const whole = (fallback: number, min: number, max = Number.MAX_SAFE_INTEGER) => z.coerce.number().int().min(min).max(max).default(fallback);

// Express `trust proxy`: true/false, a hop count, or a comma-separated list of addresses, subnets
// and the names loopback, linklocal, uniquelocal (what proxy-addr accepts).
const PROXY_NAMES = new Set(["loopback", "linklocal", "uniquelocal"]);
const TrustProxySchema = z
  .string()
  .trim()
  .optional()
  .transform((value, ctx): boolean | number | string => {
    if (!value) return "loopback";
    if (value === "true" || value === "false") return value === "true";
    if (/^\d+$/.test(value)) return Number(value);
    for (const part of value.split(",").map((p) => p.trim())) {
      const [address, prefix, extra] = part.split("/");
      const ok = PROXY_NAMES.has(part) || (isIP(address) !== 0 && extra === undefined && (prefix === undefined || /^\d{1,3}$/.test(prefix)));
      if (!ok) {
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          message: `"${part}" is not true, false, a hop count, an address, a subnet or loopback/linklocal/uniquelocal`,
        });
        return z.NEVER;
      }
    }
    return value;
  });

const EnvSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
  PORT: whole(3000, 0, 65535),
  DATA_DIR: z.string().optional(),
  // DESIGN §13: media files elsewhere than DATA_DIR/uploads (read through uploadsDir(), db/index.ts).
  UPLOADS_DIR: z.string().trim().optional(),
  // DESIGN §13: PostgreSQL instead of SQLite. Checked for shape here (the value is never echoed:
  // it holds a password); db/index.ts reads it, and reaching the server is checked at start.
  DATABASE_URL: z
    .string()
    .trim()
    .optional()
    .refine((value) => !value || /^postgres(ql)?:\/\/[^/]+\/[^/?#]+/.test(value), { message: "must be postgres://user:password@host:port/database" }),
  SESSION_SECRET: z.string().min(16, "SESSION_SECRET must be at least 16 characters").optional(),
  SEED_DEMO: onOff("1"),
  ADMIN_USERNAME: z.string().optional(),
  ADMIN_PASSWORD: z.string().optional(),
  PUBLIC_URL: z.string().url().optional(),
  TRUST_PROXY: TrustProxySchema,
  LOG_REQUESTS: onOff("1"),
  RATE_LIMIT: onOff("1"),
  RATE_LIMIT_WRITES: whole(120, 1),
  RATE_LIMIT_VIEWS: whole(30, 1),
  RATE_LIMIT_WINDOW: whole(60, 1, 3600),
  VIEW_REPEAT_MINUTES: z.coerce.number().min(0).max(1440).default(30),
  PAGE_CACHE: onOff("1"),
  PAGE_CACHE_MB: z.coerce.number().min(0).default(1024),
  // Issue 30: the store renders in the background what it lacks (at start, after a deploy, after a
  // publish); 0 leaves it cold for tests that count misses (docs/decisions/032).
  PAGE_STORE_WARM: onOff("1"),
  // Processes serving PORT on this box (node:cluster); 1 runs no cluster at all (docs/decisions/020).
  WORKERS: whole(1, 1, 64),
  // Issue 25: markdown rendering, sanitising and revision diffs run in a pool of worker threads,
  // each job within a time budget and each worker within a heap (app/utils/cpu-pool.server.ts,
  // docs/decisions/018). A legitimate 500,000-character article takes 0.5–1.5 s there (prose) to
  // 3–5 s (markup on every line) on a busy 2-core box, and peaks at ~70 MB of heap.
  CPU_WORKERS: whole(1, 1, 8),
  CPU_JOB_MS: whole(10_000, 100, 120_000),
  CPU_WORKER_HEAP_MB: whole(256, 64, 4_096),
  // Issue 28: mail by SMTP (app/services/mail.server.ts, docs/decisions/027). Without SMTP_URL the
  // newsletter and "forgot password" say mail is not set up; nothing is queued.
  SMTP_URL: z
    .string()
    .trim()
    .optional()
    .refine((value) => !value || /^smtps?:\/\/[^/\s]+/.test(value), { message: "must be smtp://user:password@host:port (or smtps://)" }),
  MAIL_FROM: z.string().trim().max(254).optional(),
  MAIL_RATE_PER_MINUTE: whole(60, 1, 6_000),
  // Issue 29: the editor offers to fill a source from Crossref by its DOI (off by default; the
  // site works the same without it). CROSSREF_URL is the API base (`/works/{doi}` under it).
  CROSSREF_LOOKUP: onOff("0"),
  CROSSREF_URL: z.string().url().default("https://api.crossref.org"),
  CROSSREF_TIMEOUT_MS: whole(5_000, 100, 60_000),
  // Issue 27: the import file's size limit (the admin screen and the command line alike), and the
  // zip of the old uploads sent beside it on /admin/import (app/import/limits.server.ts).
  IMPORT_MAX_MB: whole(50, 1, 10_000),
  IMPORT_MEDIA_MAX_MB: whole(500, 1, 100_000),
});

export type Env = Omit<z.infer<typeof EnvSchema>, "DATA_DIR"> & { DATA_DIR: string; PUBLIC_URL: string; SESSION_SECRET: string };

/** A variable with a value the site cannot use: server.ts prints the message and exits 1. */
export class EnvError extends Error {
  override name = "EnvError";
}

let cached: Env | undefined;

/** The parsed environment; the session secret is generated once and kept in DATA_DIR. */
export function getEnv(): Env {
  if (cached && cached.DATA_DIR === dataDir()) return cached;
  const parsed = EnvSchema.safeParse(process.env);
  if (!parsed.success) {
    // Values that hold a secret are never printed.
    const shown = (key: string) => (/SECRET|PASSWORD|DATABASE_URL|SMTP_URL/.test(key) ? "(hidden)" : JSON.stringify(process.env[key] ?? ""));
    const problems = parsed.error.issues.map((i) => `${i.path.join(".")}=${shown(String(i.path[0]))}: ${i.message}`);
    throw new EnvError(`Invalid environment: ${problems.join("; ")}. Fix the variable (README, 'Configuration') and start again.`);
  }
  const env = parsed.data;
  cached = {
    ...env,
    DATA_DIR: dataDir(),
    PUBLIC_URL: (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, ""),
    SESSION_SECRET: env.SESSION_SECRET ?? storedSecret(),
  };
  return cached;
}

const CpuBudgetsSchema = EnvSchema.pick({ CPU_WORKERS: true, CPU_JOB_MS: true, CPU_WORKER_HEAP_MB: true });

/**
 * The worker pool's budgets alone: scripts that render markdown (seed, article generator) use the
 * pool without the rest of getEnv (no session secret is made for them). getEnv checks the same
 * variables at boot, so a bad value still stops the server with its message.
 */
export function getCpuBudgets(): z.infer<typeof CpuBudgetsSchema> {
  const parsed = CpuBudgetsSchema.safeParse(process.env);
  if (!parsed.success) throw new EnvError(`Invalid environment: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
  return parsed.data;
}

const ImportLimitsSchema = EnvSchema.pick({ IMPORT_MAX_MB: true, IMPORT_MEDIA_MAX_MB: true });

/** The import's size limits alone, for the import command as for the server (getEnv checks them too). */
export function getImportLimits(): z.infer<typeof ImportLimitsSchema> {
  const parsed = ImportLimitsSchema.safeParse(process.env);
  if (!parsed.success) throw new EnvError(`Invalid environment: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
  return parsed.data;
}

function storedSecret(): string {
  const dir = dataDir();
  const file = join(dir, "session-secret");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(dir, { recursive: true });
  const secret = randomBytes(32).toString("hex");
  try {
    writeFileSync(file, secret, { mode: 0o600, flag: "wx" });
  } catch (error) {
    // Another process on this data folder made it first (docs/decisions/020): theirs is the secret.
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return readFileSync(file, "utf8").trim();
    throw error;
  }
  chmodSync(file, 0o600);
  return secret;
}
