// npm run bench: the performance budgets of DESIGN §9, measured (never part of npm test or CI).
//
//   npm run bench                                  demo data + 10,000 generated articles
//   npm run bench -- --full                        sizes 1,000, 10,000 and 100,000: the cost-growth
//                                                  and memory checks (about half an hour here)
//   npm run bench -- --sizes 1000,100000           any sizes
//   npm run bench -- --duration 5 --connections 50
//
// For each size it builds a temp DATA_DIR (demo seed + generated articles), then starts the
// production server (build/server.js) twice: "warm" with the page cache on (every measured
// request after the warm-up is a cache hit, except the rotating article run) and "cold" with
// PAGE_CACHE=0 (every request is rendered by Remix; Cache-Control, ETag and view counting still
// run). Each page is loaded with autocannon at 50 connections beside a static file of the same
// byte size served by the same server (express.static from public/, a temp folder deleted after).
// Requests carry a browser User-Agent, so view counting is part of every figure.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import autocannon from "autocannon";
import SQLite from "better-sqlite3";
import { kb, measurePageJs, PUBLIC_JS_BUDGET_BYTES } from "../../scripts/js-size";
import { startServer, type RunningServer } from "../server-process";

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const i = args.indexOf(`--${name}`);
  return i === -1 ? fallback : args[i + 1];
};
const SIZES = option("sizes", args.includes("--full") ? "1000,10000,100000" : "10000")
  .split(",")
  .map(Number);
const DURATION = Number(option("duration", "10"));
const WARMUP = Number(option("warmup", "2"));
const CONNECTIONS = Number(option("connections", "50"));
const BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36";

const STATIC_DIR_NAME = `__bench-${process.pid}`;
const STATIC_DIR = resolve("public", STATIC_DIR_NAME);

interface Target {
  name: string;
  /** One path, or a list a random one of which each request takes. */
  paths: string[];
  signedIn?: boolean;
  connections?: number;
  cached: boolean;
}

interface Run {
  rps: number;
  p50: number;
  p99: number;
  mean: number;
  non2xx: number;
  errors: number;
}

interface Row {
  size: number;
  target: Target;
  status: number;
  bytes: number;
  warm?: Run;
  cold?: Run;
  static?: Run;
}

function cleanupStatic() {
  rmSync(STATIC_DIR, { recursive: true, force: true });
}
process.on("exit", cleanupStatic);
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    cleanupStatic();
    process.exit(130);
  });
}

async function load(url: string, target: Target, headers: Record<string, string>, duration: number): Promise<Run> {
  const random = () => target.paths[Math.floor(Math.random() * target.paths.length)];
  const result = await autocannon({
    url,
    connections: target.connections ?? CONNECTIONS,
    duration,
    headers: { "User-Agent": BROWSER, ...headers },
    requests: target.paths.length > 1 ? [{ setupRequest: (req: any) => ({ ...req, path: random() }) }] : [{ path: target.paths[0] }],
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    mean: result.latency.average,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

const vmRss = (pid: number) => {
  const match = readFileSync(`/proc/${pid}/status`, "utf8").match(/VmRSS:\s+(\d+) kB/);
  return match ? Number(match[1]) * 1024 : NaN;
};

/** What the resident memory is: anonymous (JS heap, page cache, SQLite's cache), file-backed, shared. */
const rssParts = (pid: number) => {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const field = (name: string) => Number(status.match(new RegExp(`${name}:\\s+(\\d+) kB`))?.[1] ?? NaN) * 1024;
  return { anon: field("RssAnon"), file: field("RssFile"), shmem: field("RssShmem") };
};

async function signIn(url: string): Promise<string> {
  const res = await fetch(`${url}/admin/login`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: url },
    body: new URLSearchParams({ username: "admin", password: "admin123", redirectTo: "" }),
  });
  const cookie = res.headers.get("set-cookie");
  if (res.status !== 302 || !cookie) throw new Error(`sign-in failed: HTTP ${res.status}`);
  return cookie.split(";")[0];
}

async function prepare(size: number): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), `news-bench-${size}-`));
  process.env.DATA_DIR = dir;
  const { prepareDatabase, generateArticles } = await import("../../scripts/generate-articles");
  const { closeDatabase } = await import("../../db/index");
  const { stopSanitizer } = await import("../../app/utils/markdown.server");
  await prepareDatabase();
  const started = Date.now();
  await generateArticles({
    count: size,
    onProgress: (done, total) => process.stdout.write(`\r  generating articles: ${done} / ${total}`),
  });
  console.log(` (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  await stopSanitizer();
  await closeDatabase();
  return dir;
}

function targetsFor(dir: string): Target[] {
  const sqlite = new SQLite(join(dir, "news.db"), { readonly: true });
  const slugs = (sqlite.prepare("select slug from articles where status = 'published'").all() as { slug: string }[]).map((r) => r.slug);
  // The hot article: the newest published one (the home page's hero when no layout says otherwise).
  const hot = (sqlite.prepare("select slug from articles where status = 'published' order by published_at desc limit 1").get() as { slug: string }).slug;
  sqlite.close();
  // Words of the generated text (scripts/generate-articles.ts, seed 42): "дані" is in ~77% of the
  // articles, "бабозоа" in ~0.1% (1 at 1,000, 14 at 10,000, 107 at 100,000).
  const q = encodeURIComponent("дані");
  const rare = encodeURIComponent("бабозоа");
  return [
    { name: "home", paths: ["/"], cached: true },
    { name: "article (one hot slug)", paths: [`/article/${hot}`], cached: true },
    { name: `article (rotating ${slugs.length})`, paths: slugs.map((s) => `/article/${s}`), cached: true },
    { name: "category", paths: ["/category/technology"], cached: true },
    { name: "search (common word)", paths: [`/search?q=${q}`], cached: true },
    { name: "search (rare word)", paths: [`/search?q=${rare}`], cached: true },
    { name: "RSS", paths: ["/rss.xml"], cached: true },
    { name: "admin list + search (1 conn)", paths: [`/admin/articles?search=${q}`], signedIn: true, connections: 1, cached: false },
  ];
}

async function withServer<T>(
  dir: string,
  env: Record<string, string>,
  fn: (server: RunningServer) => Promise<T>,
): Promise<{ value: T; rss: number; parts: ReturnType<typeof rssParts> }> {
  // A busy shared machine can take a while to load the build; the bench waits longer than tests.
  const server = await startServer({ dataDir: dir, env: { LOG_REQUESTS: "0", ...env }, timeoutMs: 120_000 });
  try {
    const value = await fn(server);
    const rss = vmRss(server.child.pid!);
    return { value, rss, parts: rssParts(server.child.pid!) };
  } finally {
    await server.stop("SIGTERM");
  }
}

/** The pages whose cold cost must not grow with the number of articles (DESIGN §9), and their labels. */
const GROWTH = [
  ["article (rotating", "article (rotating slugs)"],
  ["search (common", "search (common word)"],
  ["search (rare", "search (rare word)"],
] as const;

const fmt = {
  rps: (r?: Run) => (r ? Math.round(r.rps).toLocaleString("en-US") : "—"),
  ms: (n?: number) => (n === undefined ? "—" : `${n.toFixed(n < 10 ? 1 : 0)}`),
  mb: (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`,
};

function printTable(rows: Row[]) {
  const header = ["size", "page", "HTTP", "bytes", "warm req/s", "p50", "p99", "cold req/s", "p50", "p99", "static req/s", "warm/static", "cold/static"];
  const lines = rows.map((r) => {
    if (r.status !== 200) {
      return [
        String(r.size),
        r.target.name,
        String(r.status),
        "—",
        `not measured: HTTP ${r.status}${r.status === 404 ? " (route missing on this branch?)" : ""}`,
        "",
        "",
        "",
        "",
        "",
        "",
        "",
        "",
      ];
    }
    const ratio = (run?: Run) => (run && r.static ? `${Math.round((run.rps / r.static.rps) * 100)}%` : "—");
    return [
      String(r.size),
      r.target.name,
      String(r.status),
      String(r.bytes),
      fmt.rps(r.warm),
      fmt.ms(r.warm?.p50),
      fmt.ms(r.warm?.p99),
      fmt.rps(r.cold),
      fmt.ms(r.cold?.p50),
      fmt.ms(r.cold?.p99),
      fmt.rps(r.static),
      ratio(r.warm),
      ratio(r.cold),
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => (l[i] ?? "").length)));
  const line = (cells: string[]) => "| " + cells.map((c, i) => (c ?? "").padEnd(widths[i])).join(" | ") + " |";
  console.log(line(header));
  console.log("|" + widths.map((w) => "-".repeat(w + 2)).join("|") + "|");
  for (const l of lines) console.log(line(l));
}

async function main() {
  console.log(`npm run bench: sizes ${SIZES.join(", ")}; ${CONNECTIONS} connections, ${DURATION} s per run after ${WARMUP} s warm-up; latencies in ms`);
  console.log("The machine is shared: figures move with whatever else runs on it.\n");
  const rows: Row[] = [];
  const memory: { size: number; mode: string; rss: number; parts: ReturnType<typeof rssParts> }[] = [];
  const js: { path: string; gzip: number; files: number; status: number }[] = [];

  for (const size of SIZES) {
    console.log(`== ${size.toLocaleString("en-US")} generated articles (+ demo seed)`);
    const dir = await prepare(size);
    const targets = targetsFor(dir);
    const sizeRows: Row[] = targets.map((target) => ({ size, target, status: 0, bytes: 0 }));
    let cookie = "";
    try {
      for (const mode of ["warm", "cold"] as const) {
        const { rss, parts } = await withServer(dir, mode === "cold" ? { PAGE_CACHE: "0" } : {}, async (server) => {
          cookie ||= await signIn(server.url);
          for (const row of sizeRows) {
            const { target } = row;
            if (mode === "cold" && !target.cached && row.warm) continue; // the admin list is never cached
            const headers: Record<string, string> = target.signedIn ? { Cookie: cookie } : {};
            const probe = await fetch(`${server.url}${target.paths[0]}`, { headers: { "User-Agent": BROWSER, ...headers } });
            const body = Buffer.from(await probe.arrayBuffer());
            row.status = probe.status;
            if (probe.status !== 200) continue;
            row.bytes = body.length;
            if (mode === "warm" && target.cached && !row.static) {
              // A static file of the same size, served by the same server in the same run.
              mkdirSync(STATIC_DIR, { recursive: true });
              const file = `${target.name.replace(/\W+/g, "-")}.html`;
              writeFileSync(join(STATIC_DIR, file), Buffer.alloc(body.length, "<p>static</p>\n"));
              const staticTarget: Target = { name: `static ${file}`, paths: [`/${STATIC_DIR_NAME}/${file}`], cached: false };
              await load(server.url, staticTarget, {}, WARMUP);
              row.static = await load(server.url, staticTarget, {}, DURATION);
            }
            await load(server.url, target, headers, WARMUP);
            const run = await load(server.url, target, headers, DURATION);
            if (run.non2xx || run.errors) console.log(`  ! ${target.name} (${mode}): ${run.non2xx} non-2xx, ${run.errors} errors`);
            row[mode] = run;
            process.stdout.write(`  ${mode} ${target.name}: ${fmt.rps(run)} req/s, p99 ${fmt.ms(run.p99)} ms\n`);
          }
          if (mode === "warm" && size === SIZES[0]) {
            for (const row of sizeRows.filter((r) => r.target.cached && r.status === 200 && !r.target.paths[0].endsWith(".xml"))) {
              const m = await measurePageJs(server.url, row.target.paths[0]);
              js.push({ path: row.target.paths[0], gzip: m.gzip, files: m.files.length, status: m.status });
            }
          }
        });
        memory.push({ size, mode, rss, parts });
      }
    } finally {
      cleanupStatic();
      rmSync(dir, { recursive: true, force: true });
    }
    rows.push(...sizeRows);
  }

  console.log("");
  printTable(rows);
  console.log("");
  console.log("Resident memory after the load (VmRSS = anonymous + file + shared):");
  for (const m of memory) {
    console.log(
      `  ${m.size.toLocaleString("en-US")} ${m.mode}: ${fmt.mb(m.rss)} = ${fmt.mb(m.parts.anon)} anonymous + ${fmt.mb(m.parts.file)} file + ${fmt.mb(m.parts.shmem)} shared`,
    );
  }
  console.log(
    "  anonymous: the JS heap with the page cache (at most PAGE_CACHE_MB, 48 MB by default; none when cold) and SQLite's page\n" +
      "  cache (default cache_size, 2 MB; db/index.ts sets no cache_size or mmap_size); file: node and native modules;\n" +
      "  shared: SQLite's WAL index (news.db-shm).",
  );
  console.log("Public JavaScript (gzip): " + (js.map((j) => `${j.path} ${kb(j.gzip)} in ${j.files} files`).join("; ") || "—"));

  // One line per DESIGN §9 budget.
  console.log("\nDESIGN §9 budgets (at 10,000 articles, or the size closest to it):");
  const base = SIZES.reduce((a, b) => (Math.abs(b - 10_000) < Math.abs(a - 10_000) ? b : a));
  const at = (size: number, name: string) => rows.find((r) => r.size === size && r.target.name.startsWith(name));
  const verdict = (ok: boolean | undefined, text: string) => console.log(`  ${ok === undefined ? "n/a   " : ok ? "met   " : "MISSED"} ${text}`);
  const ratioLine = (name: string, row?: Row) => {
    if (!row?.warm || !row.static) return verdict(undefined, `${name} warm >= 50% of static: not measured (HTTP ${row?.status})`);
    const ratio = row.warm.rps / row.static.rps;
    verdict(ratio >= 0.5, `${name} warm >= 50% of static: ${fmt.rps(row.warm)} vs ${fmt.rps(row.static)} req/s (${(ratio * 100).toFixed(1)}%)`);
  };
  const coldLine = (name: string, min: number, row?: Row) => {
    if (!row?.cold) return verdict(undefined, `${name} cold >= ${min} req/s: not measured (HTTP ${row?.status})`);
    verdict(row.cold.rps >= min, `${name} cold >= ${min} req/s: ${fmt.rps(row.cold)} req/s`);
  };
  const p99Line = (name: string, row?: Row) => {
    if (!row?.warm) return verdict(undefined, `${name} p99 warm < 100 ms: not measured`);
    verdict(row.warm.p99 < 100, `${name} p99 warm < 100 ms: ${fmt.ms(row.warm.p99)} ms`);
  };
  const hot = at(base, "article (one hot");
  const rotating = at(base, "article (rotating");
  const home = at(base, "home");
  ratioLine("article", hot);
  coldLine("article (one slug)", 700, hot);
  coldLine("article (rotating slugs)", 700, rotating);
  p99Line("article", hot);
  ratioLine("home", home);
  coldLine("home", 500, home);
  p99Line("home", home);
  for (const name of ["category", "search (common word)", "search (rare word)", "RSS"]) coldLine(name, 400, at(base, name));
  const admin = at(base, "admin list");
  if (admin?.warm)
    verdict(
      admin.warm.mean < 20,
      `admin article list with a search < 20 ms per request: mean ${fmt.ms(admin.warm.mean)} ms, p99 ${fmt.ms(admin.warm.p99)} ms (1 connection)`,
    );
  else verdict(undefined, `admin article list with a search < 20 ms per request: not measured (HTTP ${admin?.status})`);

  const smallest = Math.min(...SIZES);
  const largest = Math.max(...SIZES);
  if (smallest !== largest) {
    console.log(`\nCold throughput per size, against ${smallest.toLocaleString("en-US")} articles:`);
    for (const [name, label] of GROWTH) {
      const a = at(smallest, name)?.cold;
      console.log(
        `  ${label}: ` +
          SIZES.map((size) => {
            const b = at(size, name)?.cold;
            return `${size.toLocaleString("en-US")} ${fmt.rps(b)} req/s, p99 ${fmt.ms(b?.p99)} ms${a && b ? ` (${Math.round((b.rps / a.rps) * 100)}%)` : ""}`;
          }).join("; "),
      );
    }
    for (const [name, label] of GROWTH) {
      const a = at(smallest, name)?.cold;
      const b = at(largest, name)?.cold;
      if (!a || !b) verdict(undefined, `cost growth ${label}: not measured`);
      else {
        const change = b.rps / a.rps - 1;
        verdict(
          change >= -0.2,
          `cost growth: cold ${label} at ${largest.toLocaleString("en-US")} within 20% of ${smallest.toLocaleString("en-US")}: ${fmt.rps(b)} vs ${fmt.rps(a)} req/s (${change >= 0 ? "+" : ""}${Math.round(change * 100)}%)`,
        );
      }
    }
  } else verdict(undefined, "cost growth (1,000 vs 100,000 articles): run with --sizes 1000,100000");
  const biggest = Math.max(...memory.filter((m) => m.size === largest).map((m) => m.rss));
  verdict(
    largest >= 100_000 ? biggest < 300 * 1024 * 1024 : undefined,
    `resident memory < 300 MB after the load at 100,000 articles: ${fmt.mb(biggest)} at ${largest.toLocaleString("en-US")}`,
  );
  const heaviest = js.reduce((a, b) => (b.gzip > (a?.gzip ?? -1) ? b : a), undefined as (typeof js)[number] | undefined);
  if (heaviest) verdict(heaviest.gzip <= PUBLIC_JS_BUDGET_BYTES, `public JavaScript <= 120 KB gzip: heaviest ${heaviest.path} ${kb(heaviest.gzip)}`);
  else verdict(undefined, "public JavaScript <= 120 KB gzip: not measured");
  verdict(undefined, "Lighthouse >= 95: not measured by this bench");
}

main().catch((error) => {
  console.error(error);
  cleanupStatic();
  process.exit(1);
});
