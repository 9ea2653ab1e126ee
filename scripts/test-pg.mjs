// `npm run test:pg`: the Vitest and Playwright suites again, on PostgreSQL (DESIGN §13).
// Uses the server at PG_ADMIN_URL when set (a superuser URL, e.g. postgres://postgres@127.0.0.1:5432/postgres);
// otherwise starts a throwaway PostgreSQL 15+ on 127.0.0.1 in a temp folder and removes it after.
// PostgreSQL refuses to run as root: as root the cluster is made and run as the `postgres` user.
//   node scripts/test-pg.mjs            both suites
//   node scripts/test-pg.mjs vitest [files…]   or   e2e [files…]
import { execFileSync, spawn } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";

const [which = "all", ...rest] = process.argv.slice(2);

function binDir() {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const root = "/usr/lib/postgresql";
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => Number(v) >= 15)
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions.length) return join(root, versions[0], "bin");
  return ""; // on PATH
}

const freePort = () =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

async function startCluster() {
  const bin = binDir();
  const tool = (name) => (bin ? join(bin, name) : name);
  const asRoot = process.getuid?.() === 0;
  const run = (args) =>
    asRoot ? execFileSync("runuser", ["-u", "postgres", "--", ...args], { stdio: "pipe" }) : execFileSync(args[0], args.slice(1), { stdio: "pipe" });
  const dir = mkdtempSync(join(tmpdir(), "news-pg-"));
  chmodSync(dir, 0o777);
  if (asRoot) execFileSync("chown", ["postgres", dir]);
  const data = join(dir, "data");
  run([tool("initdb"), "-D", data, "-A", "trust", "-U", "postgres", "-E", "UTF8", "--locale=C.UTF-8"]);
  const port = await freePort();
  // Throwaway data: no fsync. More connections than the default 100: every test file and every
  // server a test starts has a pool of its own.
  const options = `-k ${dir} -h 127.0.0.1 -p ${port} -c fsync=off -c full_page_writes=off -c max_connections=300`;
  run([tool("pg_ctl"), "-D", data, "-l", join(dir, "log"), "-o", options, "-w", "start"]);
  const stop = () => {
    try {
      run([tool("pg_ctl"), "-D", data, "-m", "immediate", "-w", "stop"]);
    } catch {
      // already stopped
    }
    rmSync(dir, { recursive: true, force: true });
  };
  return { url: `postgres://postgres@127.0.0.1:${port}/postgres`, stop };
}

const cluster = process.env.PG_ADMIN_URL ? { url: process.env.PG_ADMIN_URL, stop: () => {} } : await startCluster();
process.on("exit", () => cluster.stop());
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => process.exit(130));

const admin = new pg.Client({ connectionString: cluster.url });
await admin.connect();
const { rows } = await admin.query("show server_version_num");
console.log(`--- PostgreSQL ${rows[0].server_version_num} at ${cluster.url}`);

const npx = (args, env) =>
  new Promise((resolve) => {
    const child = spawn("npx", args, { stdio: "inherit", env: { ...process.env, PG_ADMIN_URL: cluster.url, ...env } });
    child.on("exit", (code) => resolve(code ?? 1));
  });

let failed = 0;
if (which === "all" || which === "vitest") {
  console.log("--- Vitest on PostgreSQL");
  failed += (await npx(["vitest", "run", ...(which === "vitest" ? rest : [])])) === 0 ? 0 : 1;
}
if (which === "all" || which === "e2e") {
  console.log("--- Playwright on PostgreSQL");
  const name = `news_e2e_${process.pid}`;
  await admin.query(`create database ${name}`);
  const url = new URL(cluster.url);
  url.pathname = `/${name}`;
  failed += (await npx(["playwright", "test", ...(which === "e2e" ? rest : [])], { E2E_DATABASE_URL: url.toString() })) === 0 ? 0 : 1;
}
await admin.end();
process.exit(failed ? 1 : 0);
