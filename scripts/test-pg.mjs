// `npm run test:pg`: the Vitest and Playwright suites again, on PostgreSQL (DESIGN §13).
// Uses the server at PG_ADMIN_URL when set (a superuser URL, e.g. postgres://postgres@127.0.0.1:5432/postgres);
// otherwise starts a throwaway PostgreSQL 15+ on 127.0.0.1 in a temp folder and removes it after.
// PostgreSQL refuses to run as root: as root the cluster is made and run as the `postgres` user.
//   node scripts/test-pg.mjs            both suites
//   node scripts/test-pg.mjs vitest [files…]   or   e2e [files…]
import { spawn } from "node:child_process";
import pg from "pg";
import { startCluster } from "./pg-cluster.mjs";

const [which = "all", ...rest] = process.argv.slice(2);

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
