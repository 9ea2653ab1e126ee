import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { dataDir } from "../../db/index";

// DESIGN §3: every variable is optional; parsed once with zod so a typo fails loudly at boot.
const EnvSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  DATA_DIR: z.string().min(1).default("./data"),
  SESSION_SECRET: z.string().min(16, "SESSION_SECRET must be at least 16 characters").optional(),
  SEED_DEMO: z.enum(["0", "1"]).default("1"),
  ADMIN_USERNAME: z.string().optional(),
  ADMIN_PASSWORD: z.string().optional(),
  PUBLIC_URL: z.string().url().optional(),
});

export type Env = z.infer<typeof EnvSchema> & { PUBLIC_URL: string; SESSION_SECRET: string };

let cached: Env | undefined;

/** The parsed environment; the session secret is generated once and kept in DATA_DIR. */
export function getEnv(): Env {
  if (cached && cached.DATA_DIR === (process.env.DATA_DIR || "./data")) return cached;
  const parsed = EnvSchema.safeParse(process.env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid environment:\n${lines.join("\n")}`);
  }
  const env = parsed.data;
  cached = {
    ...env,
    PUBLIC_URL: (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, ""),
    SESSION_SECRET: env.SESSION_SECRET ?? storedSecret(),
  };
  return cached;
}

function storedSecret(): string {
  const dir = dataDir();
  const file = join(dir, "session-secret");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(dir, { recursive: true });
  const secret = randomBytes(32).toString("hex");
  writeFileSync(file, secret, { mode: 0o600, flag: "wx" });
  chmodSync(file, 0o600);
  return secret;
}
