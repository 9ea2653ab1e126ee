// npx tsx scripts/bench-import.ts [posts=10000] — the import bench of issue 27 (docs/perf/027-import.md):
// the production build (npm run build first) on a fresh DATA_DIR with the demo content, a WordPress
// export of N generated posts (scripts/generate-wxr.ts) uploaded to /admin/import as an admin, and,
// while it runs in the server's background, a reader who fetches a stored article page one request
// after another. Prints the wall time of the run (upload to summary), the server process's CPU time
// (all its threads: the request thread and the import's workers), the load average before and after
// (the box is shared) and the reader's latencies (p50, p99, max) beside the same reader on an idle
// server. No assertion: figures only.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { createServer } from "node:net";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import SQLite from "better-sqlite3";

const posts = Number(process.argv[2] ?? 10_000);
const TICKS = 100; // USER_HZ on Linux
const dir = mkdtempSync(join(tmpdir(), "bench-import-"));
const file = join(dir, "bench.xml");

const freePort = () =>
  new Promise<number>((resolve) => {
    const srv = createServer().listen(0, "127.0.0.1", () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
const cpuSeconds = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) / TICKS; // utime + stime of every thread
};
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");
const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function reader(url: string, until: () => boolean, pauseMs = 20): Promise<{ n: number; p50: number; p99: number; max: number; non200: number }> {
  const times: number[] = [];
  let non200 = 0;
  while (!until()) {
    const t = performance.now();
    const res = await fetch(url);
    await res.arrayBuffer();
    times.push(performance.now() - t);
    if (res.status !== 200) non200++;
    await sleep(pauseMs);
  }
  times.sort((a, b) => a - b);
  const r = (x: number) => Math.round(x * 10) / 10;
  return { n: times.length, p50: r(pct(times, 50)), p99: r(pct(times, 99)), max: r(times[times.length - 1] ?? 0), non200 };
}

async function main() {
  const loadBefore = load();
  spawnSync("npx", ["tsx", "scripts/generate-wxr.ts", String(posts), file], { stdio: "inherit" });
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = spawn("node", ["build/server.js"], {
    env: { ...process.env, PORT: String(port), DATA_DIR: dir, SEED_DEMO: "1", PUBLIC_URL: base, DATABASE_URL: process.env.DATABASE_URL ?? "" },
    stdio: ["ignore", "ignore", "inherit"],
  });
  try {
    for (let i = 0; i < 300; i++) {
      if (
        await fetch(`${base}/healthz`).then(
          (r) => r.ok,
          () => false,
        )
      )
        break;
      await sleep(200);
    }
    const login = await fetch(`${base}/api/auth/login`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ username: "admin", password: "admin123" }),
    });
    const token = ((await login.json()) as { access_token: string }).access_token;
    const home = await (await fetch(base)).text();
    const article = `${base}${/href="(\/article\/[^"?#]+)"/.exec(home)![1]}`;
    for (let i = 0; i < 20; i++) await (await fetch(article)).arrayBuffer(); // stored in the page store

    const idleUntil = Date.now() + 8_000;
    const idle = await reader(article, () => Date.now() > idleUntil);

    const cpu0 = cpuSeconds(server.pid!);
    const started = performance.now();
    const form = new FormData();
    form.set("format", "wordpress");
    form.set("file", new Blob([readFileSync(file)], { type: "text/xml" }), "bench.xml");
    const posted = await fetch(`${base}/admin/import`, {
      method: "POST",
      body: form,
      headers: { Authorization: `Bearer ${token}`, Origin: base },
      redirect: "manual",
    });
    const job = Number(/job=(\d+)/.exec(posted.headers.get("location") ?? "")?.[1]);
    if (!job) throw new Error(`upload answered ${posted.status}: ${(await posted.text()).slice(0, 300)}`);
    let finished = false;
    const during = reader(article, () => finished);
    const sqlite = process.env.DATABASE_URL ? null : new SQLite(join(dir, "news.db"), { readonly: true, fileMustExist: true });
    let row: { status: string; summary: string | null; error: string | null } | undefined;
    for (;;) {
      await sleep(250);
      if (sqlite) row = sqlite.prepare("select status, summary, error from import_jobs where id = ?").get(job) as typeof row;
      else {
        const page = await (await fetch(`${base}/admin/import?job=${job}`, { headers: { Authorization: `Bearer ${token}` } })).text();
        row = /Підсумок імпорту/.test(page)
          ? { status: "done", summary: null, error: null }
          : /відхилено/.test(page)
            ? { status: "failed", summary: null, error: "see screen" }
            : undefined;
      }
      if (row && row.status !== "running" && row.status !== "queued") break;
    }
    const wall = (performance.now() - started) / 1000;
    const cpu = cpuSeconds(server.pid!) - cpu0;
    finished = true;
    const busy = await during;
    sqlite?.close();
    const summary = row?.summary ? (JSON.parse(row.summary) as { articles: { created: number }; ms: number }) : null;
    const result = {
      posts,
      fileMb: Math.round((statSync(file).size / 1024 / 1024) * 10) / 10,
      engine: process.env.DATABASE_URL ? "postgres" : "sqlite",
      status: row?.status,
      error: row?.error,
      created: summary?.articles.created,
      runMs: summary?.ms,
      wallS: Math.round(wall * 10) / 10,
      cpuS: Math.round(cpu * 10) / 10,
      loadBefore,
      loadAfter: load(),
      readerIdle: idle,
      readerDuringImport: busy,
    };
    console.log(JSON.stringify(result, null, 2));
  } finally {
    server.kill("SIGTERM");
    await new Promise((r) => server.once("exit", r));
    rmSync(dir, { recursive: true, force: true });
  }
}

void main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
