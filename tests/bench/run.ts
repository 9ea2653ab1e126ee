// npm run bench: the performance budgets of DESIGN §9, measured (never part of npm test or CI).
//
//   npm run bench                                  demo data + 10,000 generated articles
//   npm run bench -- --full                        sizes 1,000, 10,000 and 100,000: the cost-growth
//                                                  and memory checks (about half an hour here)
//   npm run bench -- --sizes 1000,100000           any sizes
//   npm run bench -- --engines-only                only the engines and processes rows (issue 26):
//                                                  SQLite and PostgreSQL, one process and WORKERS=2
//   npm run bench -- --no-engines                  without them (--no-warm: without the warm-up rows)
//   npm run bench -- --search-only --sizes 1000,10000   only the cold search rows and the admin list
//                                                  with a search, per size (issue 30)
//   npm run bench -- --warm-only --sizes 10000     only the store's warm-up rows (issue 30 items 0, 1):
//                                                  a miss against no store, the rotation over every
//                                                  article right after a restart on an empty store and
//                                                  right after a deploy, while the store warms
//   npm run bench -- --miss-only --sizes 10000     only the first of them, a miss against no store,
//                                                  the two modes alternated --repeats times
//   npm run bench -- --memory-only --sizes 100000  only the memory lines (issue 30 item 4): the store
//                                                  filled by a walk, then every page's load, then the
//                                                  resident set right after and after --settle s idle
//   npm run bench -- --duration 5 --connections 50 --settle 60 --keep   (--keep: reuse generated sites)
//
// For each size it builds a temp DATA_DIR (demo seed + generated articles), then starts the
// production server (build/server.js): "warm" with the page store on (every measured request after
// the warm-up is a store hit); then one walk over every article (at most --rotation of them), a
// restart, and the rotation over them all, served from the store on disk (DESIGN §12); then "cold"
// with PAGE_CACHE=0 (every request is rendered by Remix; Cache-Control, ETag and view counting
// still run). Each page is loaded with autocannon at 50 connections beside a static file of the
// same byte size served by the same server (express.static from public/, a temp folder deleted
// after). The cold reference is a minimal Remix 2 page (tests/bench/minimal-remix: one loader, one
// query, the article's prepared HTML), built here from the project's own dependencies and served by
// Express in the same run, over the same rotation. Requests carry a browser User-Agent (so view
// counting is part of every figure) and no Accept-Encoding (a hit sends the stored plain body, the
// static file sent as is). The rotation is measured a second time as browsers and crawlers ask,
// with `Accept-Encoding: gzip, deflate, br` (a hit sends the stored brotli bytes), beside a static
// file of the same size as what goes over the wire, and a third time as wrk asks (no User-Agent,
// so no view is counted, and no Accept-Encoding). The first rotation after the restart meets every
// article's first view by its reader: each is looked up and written, as for a real reader.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import autocannon from "autocannon";
import SQLite from "better-sqlite3";
import { parseSearch } from "../../app/utils/search-text.server";
import { kb, measurePageJs, PUBLIC_JS_BUDGET_BYTES } from "../../scripts/js-size";
import { freePort, startServer, type RunningServer } from "../server-process";

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const i = args.indexOf(`--${name}`);
  return i === -1 ? fallback : args[i + 1];
};
const SIZES = option("sizes", args.includes("--full") ? "1000,10000,100000" : "10000")
  .split(",")
  .map(Number);
const DURATION = Number(option("duration", "10"));
const ENGINES = !args.includes("--no-engines");
const ENGINES_ONLY = args.includes("--engines-only");
const SEARCH_ONLY = args.includes("--search-only");
const WARM_ONLY = args.includes("--warm-only");
const MEMORY_ONLY = args.includes("--memory-only");
/** --miss-only: only the first of the warm-up rows, a miss against no store (issue 30 item 0). */
const MISS_ONLY = args.includes("--miss-only");
/** Runs per row of the engines table; the median (by req/s) is the row's figure. */
const REPEATS = Number(option("repeats", "3"));
/** Seconds the warm-up rows follow the rotation after a restart or a deploy (the budget: 2 minutes). */
const WARM_WINDOW = Number(option("warm-window", "150"));
const WARMUP = Number(option("warmup", "2"));
const CONNECTIONS = Number(option("connections", "50"));
/** The most articles walked and rotated over (a walk at 100,000 would take half an hour here). */
const ROTATION = Number(option("rotation", "11000"));
/** Seconds of idle after a load before the resident set is read again (V8 gives its spare heap back when idle). */
const SETTLE = Number(option("settle", "60"));
/** The memory budget of DESIGN §9 at 100,000 articles: right after the load, and after 60 s idle. */
const MEMORY_LOADED_MB = 250;
const MEMORY_IDLE_MB = 200;
const MINIMAL_DIR = resolve("tests/bench/minimal-remix");
const BROWSER_ENCODINGS = "gzip, deflate, br";
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
  /** Measured warm only after a walk over every path and a restart (served from the store on disk). */
  rotation?: boolean;
  /** Request headers of this row (the browser row's Accept-Encoding); its static file is as large as the body sent. */
  headers?: Record<string, string>;
  /** Not measured with the store off (the browser row: the cold figure is the plain rotation's). */
  warmOnly?: boolean;
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
  /** The minimal Remix page over the same articles (the cold reference). */
  minimal?: Run;
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

/** A header value meaning "do not send this header" (the wrk row sends no User-Agent). */
const NO_HEADER = "";
const sent = (headers: Record<string, string>) => Object.fromEntries(Object.entries(headers).filter(([, value]) => value !== NO_HEADER));

async function load(url: string, target: Target, headers: Record<string, string>, duration: number): Promise<Run> {
  const random = () => target.paths[Math.floor(Math.random() * target.paths.length)];
  const result = await autocannon({
    url,
    connections: target.connections ?? CONNECTIONS,
    duration,
    headers: sent({ "User-Agent": BROWSER, ...headers }),
    requests: target.paths.length > 1 ? [{ setupRequest: (req: any) => ({ ...req, path: random() }) }] : [{ path: target.paths[0] }],
  });
  return runOf(result);
}

/** An autocannon result as the bench's rows read it. */
function runOf(result: Awaited<ReturnType<typeof autocannon>>): Run {
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

/**
 * `--keep`: the generated site of each size stays in the temp folder (news-bench-kept-<size>) and
 * the next run with --keep starts from it (100,000 articles take minutes to generate).
 */
const KEEP = args.includes("--keep");
const release = (dir: string) => {
  if (!KEEP) rmSync(dir, { recursive: true, force: true });
};

async function prepare(size: number): Promise<string> {
  const kept = join(tmpdir(), `news-bench-kept-${size}`);
  if (KEEP && existsSync(join(kept, ".generated"))) {
    console.log(`  the kept site at ${kept}`);
    return kept;
  }
  if (KEEP) rmSync(kept, { recursive: true, force: true });
  const dir = KEEP ? (mkdirSync(kept, { recursive: true }), kept) : mkdtempSync(join(tmpdir(), `news-bench-${size}-`));
  process.env.DATA_DIR = dir;
  const { prepareDatabase, generateArticles } = await import("../../scripts/generate-articles");
  const { closeDatabase } = await import("../../db/index");
  const { stopCpuPool } = await import("../../app/utils/cpu-pool.server");
  await prepareDatabase();
  const started = Date.now();
  await generateArticles({
    count: size,
    onProgress: (done, total) => process.stdout.write(`\r  generating articles: ${done} / ${total}`),
  });
  console.log(` (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  await stopCpuPool();
  await closeDatabase();
  if (KEEP) writeFileSync(join(dir, ".generated"), `${size}\n`);
  return dir;
}

function targetsFor(dir: string): Target[] {
  const sqlite = new SQLite(join(dir, "news.db"), { readonly: true });
  const slugs = (sqlite.prepare("select slug from articles where status = 'published' order by random() limit ?").all(ROTATION) as { slug: string }[]).map(
    (r) => r.slug,
  );
  // The hot article: the newest published one (the home page's hero when no layout says otherwise).
  const hot = (sqlite.prepare("select slug from articles where status = 'published' order by published_at desc limit 1").get() as { slug: string }).slug;
  // Words of the generated text (scripts/generate-articles.ts, seed 42): "дані" is in ~77% of the
  // articles at every size; "даними" is another form of it, found by its stem (issue 30). The rare
  // word is one found in exactly one published article at this size (rareWord), so every size
  // renders the same one-card page: a fixed word is rare only at one size ("бабозоа" had 1 hit at
  // 1,000 and a full page of 107 at 100,000, so its row compared one card with ten).
  const rareTerm = rareWord(sqlite);
  sqlite.close();
  const q = encodeURIComponent("дані");
  const rare = encodeURIComponent(rareTerm);
  const inflected = encodeURIComponent("даними");
  return [
    { name: "home", paths: ["/"], cached: true },
    { name: "article (one hot slug)", paths: [`/article/${hot}`], cached: true },
    { name: `article (rotating ${slugs.length})`, paths: slugs.map((s) => `/article/${s}`), cached: true, rotation: true },
    {
      name: `article (browser encodings, rotating ${slugs.length})`,
      paths: slugs.map((s) => `/article/${s}`),
      cached: true,
      rotation: true,
      warmOnly: true,
      headers: { "Accept-Encoding": BROWSER_ENCODINGS },
    },
    {
      // As the issue's own table was measured (wrk): no User-Agent (a script: no view counted) and
      // no Accept-Encoding.
      name: `article (as wrk asks, rotating ${slugs.length})`,
      paths: slugs.map((s) => `/article/${s}`),
      cached: true,
      rotation: true,
      warmOnly: true,
      headers: { "User-Agent": NO_HEADER },
    },
    { name: "category", paths: ["/category/technology"], cached: true },
    { name: "search (common word)", paths: [`/search?q=${q}`], cached: true },
    { name: "search (rare word, 1 article)", paths: [`/search?q=${rare}`], cached: true },
    { name: "search (inflected word)", paths: [`/search?q=${inflected}`], cached: true },
    { name: "RSS", paths: ["/rss.xml"], cached: true },
    // The screen reads `q` (`search` is the JSON API's name): until issue 30's last stop this row asked
    // `?search=` and so measured the list without a search.
    { name: "admin list + search (1 conn)", paths: [`/admin/articles?q=${q}`], signedIn: true, connections: 1, cached: false },
  ];
}

/**
 * A word of the generated text whose stem is in exactly one published article (the first such in
 * the alphabet of the words in two articles or fewer): the search index is read as the reader's
 * query reads it (the stem, app/utils/search-text.server.ts).
 */
function rareWord(sqlite: SQLite.Database): string {
  sqlite.exec("create virtual table if not exists temp.forms using fts5vocab(main, articles_fts, row)");
  const candidates = sqlite
    .prepare("select term from temp.forms where doc <= 2 and length(term) >= 6 and unicode(term) >= 1024 and term not glob '*[0-9]*' order by term limit 500")
    .pluck()
    .all() as string[];
  const published = sqlite.prepare(
    "select count(*) from articles_stems s join articles a on a.rowid = s.rowid where articles_stems match ? and a.status = 'published'",
  );
  for (const word of candidates) {
    const { stems } = parseSearch(word);
    if (stems.length === 1 && published.pluck().get(`"${stems[0]}"`) === 1) return word;
  }
  throw new Error("no word of the generated text is in exactly one published article");
}

async function withServer<T>(
  dir: string,
  env: Record<string, string>,
  fn: (server: RunningServer) => Promise<T>,
): Promise<{ value: T; rss: number; parts: ReturnType<typeof rssParts>; settled: number }> {
  // A busy shared machine can take a while to load the build; the bench waits longer than tests.
  const server = await startServer({ dataDir: dir, env: { LOG_REQUESTS: "0", ...env }, timeoutMs: 120_000 });
  try {
    const value = await fn(server);
    const rss = vmRss(server.child.pid!);
    const parts = rssParts(server.child.pid!);
    // Right after a load the heap still holds its garbage; V8's memory reducer collects and gives
    // it back after some seconds of idle (measured: 332 MB right after a rotation, 192 MB 20 s later).
    await new Promise((r) => setTimeout(r, SETTLE * 1000));
    return { value, rss, parts, settled: vmRss(server.child.pid!) };
  } finally {
    await server.stop("SIGTERM");
  }
}

/** The pages whose cold cost must not grow with the number of articles (DESIGN §9), and their labels. */
const GROWTH = [
  ["article (rotating", "article (rotating slugs)"],
  ["search (common", "search (common word)"],
  ["search (rare", "search (rare word, 1 article)"],
  ["search (inflected", "search (inflected word)"],
] as const;

/** A budget line: met, MISSED, or n/a when this run did not measure it. */
const verdict = (ok: boolean | undefined, text: string) => console.log(`  ${ok === undefined ? "n/a   " : ok ? "met   " : "MISSED"} ${text}`);

const fmt = {
  rps: (r?: Run) => (r ? Math.round(r.rps).toLocaleString("en-US") : "—"),
  ms: (n?: number) => (n === undefined ? "—" : `${n.toFixed(n < 10 ? 1 : 0)}`),
  mb: (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`,
};

/** The cold reference of pages other than the article: the minimal Remix page over the rotation. */
const minimalOf = (rows: Row[], size: number) => rows.find((r) => r.size === size && r.target.rotation && r.minimal)?.minimal;

function printTable(rows: Row[]) {
  const header = [
    "size",
    "page",
    "HTTP",
    "bytes",
    "warm req/s",
    "p50",
    "p99",
    "cold req/s",
    "p50",
    "p99",
    "static req/s",
    "minimal Remix req/s",
    "warm/static",
    "cold/minimal",
  ];
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
        "",
      ];
    }
    const ratio = (run?: Run, to?: Run) => (run && to ? `${Math.round((run.rps / to.rps) * 100)}%` : "—");
    const reference = r.minimal ?? minimalOf(rows, r.size);
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
      r.minimal ? fmt.rps(r.minimal) : reference ? `(${fmt.rps(reference)})` : "—",
      ratio(r.warm, r.static),
      ratio(r.cold, reference),
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => (l[i] ?? "").length)));
  const line = (cells: string[]) => "| " + cells.map((c, i) => (c ?? "").padEnd(widths[i])).join(" | ") + " |";
  console.log(line(header));
  console.log("|" + widths.map((w) => "-".repeat(w + 2)).join("|") + "|");
  for (const l of lines) console.log(line(l));
}

/** One GET, the body as sent (never decompressed). */
function probeBytes(url: string, headers: Record<string, string>): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    request(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode!, body: Buffer.concat(chunks) }));
      res.on("error", reject);
    })
      .on("error", reject)
      .end();
  });
}

/** Requests every path once, four at a time (a crawler walking the site). */
async function walk(url: string, paths: string[]) {
  let next = 0;
  const worker = async () => {
    while (next < paths.length) {
      const path = paths[next++];
      // A kept-alive connection the server closed at its idle timeout fails once: ask again.
      for (let attempt = 1; ; attempt++) {
        try {
          const res = await fetch(`${url}${path}`, { headers: { "User-Agent": BROWSER } });
          await res.arrayBuffer();
          break;
        } catch (error) {
          if (attempt >= 3) throw error;
        }
      }
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
}

/** What the page store holds after the rotation (DATA_DIR/pages.db). */
async function storeSize(dir: string) {
  const store = new SQLite(join(dir, "pages.db"), { readonly: true });
  try {
    return store.prepare("select coalesce(sum(size), 0) bytes, count(*) pages from pages").get() as { bytes: number; pages: number };
  } finally {
    store.close();
  }
}

/** Builds tests/bench/minimal-remix with the project's own Remix compiler. */
function buildMinimalRemix() {
  const result = spawnSync(process.execPath, [resolve("node_modules/@remix-run/dev/dist/cli.js"), "build"], {
    cwd: MINIMAL_DIR,
    env: { ...process.env, NODE_ENV: "production" },
    encoding: "utf8",
  });
  if (result.status !== 0) throw new Error(`building the minimal Remix page failed:\n${result.stdout}\n${result.stderr}`);
}

/** Starts the minimal Remix page's server on the bench's database and runs fn against it. */
async function withMinimalRemix(dir: string, fn: (url: string) => Promise<void>) {
  const port = await freePort();
  const child = spawn(process.execPath, [join(MINIMAL_DIR, "server.mjs")], {
    env: { ...process.env, NODE_ENV: "production", PORT: String(port), BENCH_DB: join(dir, "news.db") },
    stdio: ["ignore", "inherit", "inherit"],
  });
  const url = `http://127.0.0.1:${port}`;
  try {
    for (let i = 0; ; i++) {
      try {
        if ((await fetch(`${url}/healthz`)).ok) break;
      } catch {
        // not listening yet
      }
      if (i > 600 || child.exitCode !== null) throw new Error("the minimal Remix server did not start");
      await new Promise((r) => setTimeout(r, 100));
    }
    await fn(url);
  } finally {
    child.kill("SIGTERM");
  }
}

async function main() {
  console.log(`npm run bench: sizes ${SIZES.join(", ")}; ${CONNECTIONS} connections, ${DURATION} s per run after ${WARMUP} s warm-up; latencies in ms`);
  console.log("The machine is shared: figures move with whatever else runs on it.\n");
  if (ENGINES_ONLY) return engines();
  if (SEARCH_ONLY) return searchOnly();
  if (WARM_ONLY || MISS_ONLY) return warmOnly();
  if (MEMORY_ONLY) return memoryOnly();
  const rows: Row[] = [];
  const memory: MemoryRow[] = [];
  const js: { path: string; gzip: number; files: number; status: number }[] = [];
  const stores: { size: number; bytes: number; pages: number }[] = [];
  buildMinimalRemix();

  for (const size of SIZES) {
    console.log(`== ${size.toLocaleString("en-US")} generated articles (+ demo seed)`);
    const dir = await prepare(size);
    const targets = targetsFor(dir);
    const sizeRows: Row[] = targets.map((target) => ({ size, target, status: 0, bytes: 0 }));
    let cookie = "";
    try {
      for (const mode of ["warm", "rotation", "cold"] as const) {
        if (mode === "rotation") {
          // One walk over every rotated article with the store on, then a restart (the next server).
          await withServer(dir, {}, async (server) => {
            const started = Date.now();
            // Both rotation rows go over the same articles: one walk.
            await walk(server.url, sizeRows.find((r) => r.target.rotation)!.target.paths);
            console.log(`  walk: every rotated article once in ${((Date.now() - started) / 1000).toFixed(0)} s; restarting`);
          });
        }
        const { rss, parts, settled } = await withServer(dir, mode === "cold" ? { PAGE_CACHE: "0" } : {}, async (server) => {
          cookie ||= await signIn(server.url);
          for (const row of sizeRows) {
            const { target } = row;
            if (mode === "cold" && !target.cached && row.warm) continue; // the admin list is never cached
            if (mode === "cold" && target.warmOnly) continue;
            if (mode === "rotation" && !target.rotation) continue;
            const headers: Record<string, string> = { ...(target.signedIn ? { Cookie: cookie } : {}), ...target.headers };
            // The bytes sent: as they go over the wire (fetch would decompress, so node:http).
            const probe = await probeBytes(`${server.url}${target.paths[0]}`, sent({ "User-Agent": BROWSER, "Accept-Encoding": "identity", ...headers }));
            const body = probe.body;
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
            // The rotation's warm figure is the one after the walk and the restart.
            if (mode === "warm" && target.rotation) continue;
            await load(server.url, target, headers, WARMUP);
            const run = await load(server.url, target, headers, DURATION);
            if (run.non2xx || run.errors) console.log(`  ! ${target.name} (${mode}): ${run.non2xx} non-2xx, ${run.errors} errors`);
            const column = mode === "rotation" ? "warm" : mode;
            row[column] = run;
            process.stdout.write(`  ${column} ${target.name}: ${fmt.rps(run)} req/s, p99 ${fmt.ms(run.p99)} ms\n`);
          }
          if (mode === "warm" && size === SIZES[0]) {
            for (const row of sizeRows.filter((r) => r.target.cached && !r.target.warmOnly && r.status === 200 && !r.target.paths[0].endsWith(".xml"))) {
              const m = await measurePageJs(server.url, row.target.paths[0]);
              js.push({ path: row.target.paths[0], gzip: m.gzip, files: m.files.length, status: m.status });
            }
          }
          if (mode === "rotation") stores.push({ size, ...(await storeSize(dir)) });
        });
        memory.push({ size, mode, rss, parts, settled });
      }
      // The cold reference, in the same run: the minimal Remix page over the same articles.
      await withMinimalRemix(dir, async (url) => {
        for (const row of sizeRows.filter((r) => r.target.name.startsWith("article") && !r.target.warmOnly)) {
          const target: Target = { name: `minimal ${row.target.name}`, paths: row.target.paths.map((p) => p.replace(/^\/article\//, "/a/")), cached: false };
          await load(url, target, {}, WARMUP);
          row.minimal = await load(url, target, {}, DURATION);
          if (row.minimal.non2xx || row.minimal.errors) console.log(`  ! ${target.name}: ${row.minimal.non2xx} non-2xx, ${row.minimal.errors} errors`);
          process.stdout.write(`  ${target.name}: ${fmt.rps(row.minimal)} req/s, p99 ${fmt.ms(row.minimal.p99)} ms\n`);
        }
      });
    } finally {
      cleanupStatic();
      release(dir);
    }
    rows.push(...sizeRows);
  }

  console.log("");
  printTable(rows);
  console.log("");
  console.log(`Resident memory right after the load (VmRSS = anonymous + file + shared), and after ${SETTLE} s idle:`);
  for (const m of memory) {
    console.log(
      `  ${m.size.toLocaleString("en-US")} ${m.mode}: ${fmt.mb(m.rss)} = ${fmt.mb(m.parts.anon)} anonymous + ${fmt.mb(m.parts.file)} file + ${fmt.mb(m.parts.shmem)} shared; ${fmt.mb(m.settled)} after ${SETTLE} s`,
    );
  }
  console.log(
    "  anonymous: the JS heap and SQLite's page caches (news.db: default cache_size, 2 MB; pages.db: 8 MB); the page store\n" +
      "  itself is on disk (pages.db), read through the OS page cache (not counted in RSS); file: node and native modules;\n" +
      "  shared: SQLite's WAL indexes (news.db-shm, pages.db-shm).",
  );
  for (const st of stores)
    console.log(`  page store after the rotation at ${st.size.toLocaleString("en-US")}: ${st.pages.toLocaleString("en-US")} pages, ${fmt.mb(st.bytes)}`);
  console.log("Public JavaScript (gzip): " + (js.map((j) => `${j.path} ${kb(j.gzip)} in ${j.files} files`).join("; ") || "—"));

  // One line per DESIGN §9 / §12 budget, against the references measured in the same run.
  console.log("\nDESIGN §9 and §12 budgets (at 10,000 articles, or the size closest to it):");
  const base = SIZES.reduce((a, b) => (Math.abs(b - 10_000) < Math.abs(a - 10_000) ? b : a));
  const at = (size: number, name: string) => rows.find((r) => r.size === size && r.target.name.startsWith(name));
  const pct = (a: number, b: number) => `${((a / b) * 100).toFixed(0)}%`;
  const warmLine = (name: string, row?: Row) => {
    if (!row?.warm || !row.static) return verdict(undefined, `${name} warm >= 80% of the same-size static file: not measured (HTTP ${row?.status})`);
    verdict(
      row.warm.rps >= 0.8 * row.static.rps,
      `${name} warm >= 80% of the same-size static file: ${fmt.rps(row.warm)} vs ${fmt.rps(row.static)} req/s (${pct(row.warm.rps, row.static.rps)})`,
    );
  };
  const coldLine = (name: string, share: number, row?: Row) => {
    const reference = row?.minimal ?? (row ? minimalOf(rows, row.size) : undefined);
    if (!row?.cold || !reference) return verdict(undefined, `${name} cold >= ${share * 100}% of the minimal Remix page: not measured (HTTP ${row?.status})`);
    verdict(
      row.cold.rps >= share * reference.rps,
      `${name} cold >= ${share * 100}% of the minimal Remix page: ${fmt.rps(row.cold)} vs ${fmt.rps(reference)} req/s (${pct(row.cold.rps, reference.rps)})`,
    );
  };
  const p99Line = (name: string, row?: Row) => {
    if (!row?.warm?.rps) return verdict(undefined, `${name} p99 warm < 100 ms: not measured`);
    verdict(row.warm.p99 < 100, `${name} p99 warm < 100 ms: ${fmt.ms(row.warm.p99)} ms`);
  };
  const hot = at(base, "article (one hot");
  const rotating = at(base, "article (rotating");
  const browser = at(base, "article (browser encodings");
  const wrk = at(base, "article (as wrk asks");
  const home = at(base, "home");
  warmLine("article (one hot slug)", hot);
  warmLine(`article (rotation over ${rotating?.target.paths.length ?? "?"} after one walk and a restart, no Accept-Encoding)`, rotating);
  warmLine(`article (the same rotation, Accept-Encoding: ${BROWSER_ENCODINGS}; static file of the bytes sent)`, browser);
  warmLine("article (the same rotation as wrk asks: no User-Agent, no Accept-Encoding)", wrk);
  coldLine("article (rotation, store off)", 0.5, rotating);
  coldLine("article (one slug, store off)", 0.5, hot);
  p99Line("article (one hot slug)", hot);
  p99Line("article (rotation, no Accept-Encoding)", rotating);
  p99Line("article (rotation, browser encodings)", browser);
  p99Line("article (rotation as wrk asks)", wrk);
  if (rotating?.cold?.rps) verdict(rotating.cold.p99 < 100, `article cold (rotation, store off) p99 < 100 ms: ${fmt.ms(rotating.cold.p99)} ms`);
  warmLine("home", home);
  coldLine("home", 0.4, home);
  p99Line("home", home);
  for (const name of ["category", "search (common word)", "search (rare word, 1 article)", "search (inflected word)", "RSS"]) {
    warmLine(name, at(base, name));
    coldLine(name, 0.3, at(base, name));
  }
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
  memoryVerdicts(memory, largest);
  const heaviest = js.reduce((a, b) => (b.gzip > (a?.gzip ?? -1) ? b : a), undefined as (typeof js)[number] | undefined);
  if (heaviest) verdict(heaviest.gzip <= PUBLIC_JS_BUDGET_BYTES, `public JavaScript <= 120 KB gzip: heaviest ${heaviest.path} ${kb(heaviest.gzip)}`);
  else verdict(undefined, "public JavaScript <= 120 KB gzip: not measured");
  verdict(undefined, "Lighthouse >= 95: not measured by this bench");
  if (ENGINES) await engines();
  // Issue 30: the rotation right after a restart and a deploy while the store warms, per size.
  if (!args.includes("--no-warm")) await warmOnly();
}

/** CPU seconds a process has used so far (user + system, /proc/<pid>/stat). */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** The median run by req/s (the upper one of an even count). */
const medianRun = (runs: Run[]) => [...runs].sort((a, b) => a.rps - b.rps)[Math.floor(runs.length / 2)];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const loadAverage = () => readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");

/** A rotation under load that also counts what answered each request (X-Cache). */
async function rotation(url: string, paths: string[], duration: number) {
  const caches: Record<string, number> = {};
  const random = () => paths[Math.floor(Math.random() * paths.length)];
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration,
    headers: { "User-Agent": BROWSER },
    requests: [
      {
        setupRequest: (req: any) => ({ ...req, path: random() }),
        onResponse: (_status: number, _body: string, _context: unknown, headers: Record<string, string>) => {
          const cache = headers?.["x-cache"] ?? headers?.["X-Cache"] ?? "none";
          caches[cache] = (caches[cache] ?? 0) + 1;
        },
      },
    ] as any,
  });
  const run = runOf(result);
  const total = Object.values(caches).reduce((a, b) => a + b, 0);
  return { run, caches, total, cold: (caches.MISS ?? 0) / Math.max(1, total) };
}

/** The keys of the site's articles the store holds, read beside the server. */
function storedArticles(dir: string): { held: number; stale: number } {
  const store = new SQLite(join(dir, "pages.db"), { readonly: true });
  try {
    return store
      .prepare("select count(*) held, coalesce(sum(s.stale <> 0), 0) stale from pages p join page_state s on s.key = p.key where p.key like '/article/%'")
      .get() as { held: number; stale: number };
  } finally {
    store.close();
  }
}

/**
 * Issue 30 items 0, 1 and 6 (docs/perf/032-store-warming.md): per size, on a copy of the built site
 * (so that a deploy can be made: other asset names, another build version),
 * 1. a miss against no store: the rotation over pages the store does not hold, store on (warm-up
 *    off) and PAGE_CACHE=0;
 * 2. right after a restart on an empty store (a first start, a restored backup),
 * 3. right after a restart on the store that has every article (the usual restart: pages.db
 *    survives it; the whole WARM_WINDOW, not only until every article is fresh), and
 * 4. right after a deploy (every stored page of the previous build),
 * the rotation over every article in 10 s windows for WARM_WINDOW s while the store warms: req/s,
 * p99, the share of requests that met a cold render (X-Cache: MISS) and of stale pages, beside a
 * same-size static file from the same server; CPU seconds of the server and the load average.
 */
async function warmOnly() {
  const results: string[] = [];
  for (const size of SIZES) {
    console.log(`== ${size.toLocaleString("en-US")} generated articles (+ demo seed)`);
    const dir = await prepare(size);
    const site = mkdtempSync(join(tmpdir(), "news-bench-site-"));
    for (const part of ["build", "public", "package.json"]) spawnSync("cp", ["-r", resolve(part), join(site, part)]);
    spawnSync("ln", ["-s", resolve("node_modules"), join(site, "node_modules")]);
    const sqlite = new SQLite(join(dir, "news.db"), { readonly: true });
    const paths = (sqlite.prepare("select slug from articles where status = 'published'").all() as { slug: string }[]).map((r) => `/article/${r.slug}`);
    sqlite.close();
    const start = (env: Record<string, string>) => startServer({ dataDir: dir, cwd: site, env: { LOG_REQUESTS: "0", ...env }, timeoutMs: 120_000 });
    const dropStore = () => {
      for (const suffix of ["", "-wal", "-shm"]) rmSync(join(dir, `pages.db${suffix}`), { force: true });
    };
    const line = (text: string) => {
      console.log(text);
      results.push(text);
    };
    try {
      // 1. A miss against no store, over pages never rendered (a short run touches ~1 in 5 of 10,000
      // twice at most), the two modes alternated --repeats times on an emptied store; the verdict
      // compares their medians (a single pair moved by ±10% on this box).
      const miss: Record<string, Run[]> = {};
      for (let repeat = 0; repeat < REPEATS; repeat++) {
        for (const [mode, env] of [
          ["store off (PAGE_CACHE=0)", { PAGE_CACHE: "0" }],
          ["store on, not warmed", { PAGE_STORE_WARM: "0" }],
        ] as const) {
          dropStore();
          const server = await start(env);
          try {
            const cpu = cpuSeconds(server.child.pid!);
            const r = await rotation(server.url, paths, DURATION);
            (miss[mode] ??= []).push(r.run);
            line(
              `  ${size} miss, ${mode}: ${fmt.rps(r.run)} req/s, p50 ${fmt.ms(r.run.p50)} ms, p99 ${fmt.ms(r.run.p99)} ms, cold ${Math.round(r.cold * 100)}%, server CPU ${(cpuSeconds(server.child.pid!) - cpu).toFixed(1)} s in ${DURATION} s (load ${loadAverage()})`,
            );
          } finally {
            await server.stop("SIGTERM");
          }
        }
      }
      const off = medianRun(miss["store off (PAGE_CACHE=0)"]);
      const on = medianRun(miss["store on, not warmed"]);
      line(
        `  ${on.rps >= off.rps * 0.95 ? "met   " : "MISSED"} ${size} a miss costs no more than no store (medians of ${REPEATS}): ${fmt.rps(on)} vs ${fmt.rps(off)} req/s (${Math.round((on.rps / off.rps) * 100)}%), p99 ${fmt.ms(on.p99)} vs ${fmt.ms(off.p99)} ms`,
      );
      if (MISS_ONLY) continue;

      // 2, 3 and 4: the rotation right after a restart on an empty store, on the full store, then
      // right after a deploy.
      dropStore();
      for (const phase of ["restart, empty store", "restart, store kept", "deploy (new build)"] as const) {
        if (phase === "deploy (new build)") {
          const index = join(site, "build/remix/index.js");
          const code = readFileSync(index, "utf8");
          const version = /version: "([0-9a-f]{8})"/.exec(code)![1];
          writeFileSync(index, code.replaceAll('"/build/', '"/build/v2/').replace(`version: "${version}"`, 'version: "0ddba11a"'));
          spawnSync("mv", [join(site, "public/build"), join(site, "public/build-v2")]);
          mkdirSync(join(site, "public/build"));
          spawnSync("mv", [join(site, "public/build-v2"), join(site, "public/build/v2")]);
        }
        const server = await start({});
        try {
          const began = Date.now();
          const cpu0 = cpuSeconds(server.child.pid!);
          const windows: { at: number; run: Run; cold: number; stale: number; held: number }[] = [];
          let warmAt: number | undefined;
          while ((Date.now() - began) / 1000 < WARM_WINDOW) {
            const r = await rotation(server.url, paths, 10);
            const at = (Date.now() - began) / 1000;
            const held = storedArticles(dir);
            windows.push({ at, run: r.run, cold: r.cold, stale: (r.caches.STALE ?? 0) / Math.max(1, r.total), held: held.held - held.stale });
            if (warmAt === undefined && held.held - held.stale >= paths.length) warmAt = at;
            console.log(
              `  ${size} ${phase} t=${at.toFixed(0)} s: ${fmt.rps(r.run)} req/s, p99 ${fmt.ms(r.run.p99)} ms, cold ${(r.cold * 100).toFixed(1)}%, stale ${Math.round(windows.at(-1)!.stale * 100)}%, fresh articles kept ${held.held - held.stale}/${paths.length} (load ${loadAverage()})`,
            );
            if (warmAt !== undefined && phase !== "restart, store kept") break;
          }
          const cpu = cpuSeconds(server.child.pid!) - cpu0;
          // The same-size static file, served by the same server, right after.
          const probe = await probeBytes(`${server.url}${paths[0]}`, { "User-Agent": BROWSER, "Accept-Encoding": "identity" });
          mkdirSync(join(site, "public/__bench"), { recursive: true });
          writeFileSync(join(site, "public/__bench/static.html"), Buffer.alloc(probe.body.length, "<p>static</p>\n"));
          const staticTarget: Target = { name: "static", paths: ["/__bench/static.html"], cached: false };
          await load(server.url, staticTarget, {}, WARMUP);
          const still = await load(server.url, staticTarget, {}, DURATION);
          const within = windows.filter((w) => w.at <= 120);
          const best = within.reduce((a, w) => (w.run.rps > (a?.run.rps ?? -1) ? w : a), within[0]);
          const p99 = Math.max(...within.map((w) => w.run.p99));
          const total = windows.reduce((a, w) => a + w.run.rps * 10, 0);
          const cold = windows.reduce((a, w) => a + w.cold * w.run.rps * 10, 0) / Math.max(1, total);
          line(
            `  ${size} ${phase}: every article fresh in the store ${warmAt === undefined ? `not within ${WARM_WINDOW} s` : `after ${warmAt.toFixed(0)} s`}; ${Math.round(total).toLocaleString("en-US")} requests, ${(cold * 100).toFixed(2)}% met a cold render; server CPU ${cpu.toFixed(0)} s; static ${fmt.rps(still)} req/s, p99 ${fmt.ms(still.p99)} ms (load ${loadAverage()})`,
          );
          const ratio = best ? best.run.rps / still.rps : 0;
          line(
            `  ${ratio >= 0.8 ? "met   " : "MISSED"} ${size} ${phase}: the rotation serves >= 80% of the same-size static file within 2 minutes: best window ${best ? `t=${best.at.toFixed(0)} s ${fmt.rps(best.run)} req/s` : "none"} vs ${fmt.rps(still)} (${Math.round(ratio * 100)}%)`,
          );
          line(`  ${p99 < 100 ? "met   " : "MISSED"} ${size} ${phase}: p99 < 100 ms in every 10 s window of the first 2 minutes: worst ${fmt.ms(p99)} ms`);
          if (phase === "restart, empty store" && warmAt === undefined) {
            // The deploy row starts from a store that holds every article: the warm-up finishes
            // here without load (not measured), within 20 minutes.
            const filling = Date.now();
            while (storedArticles(dir).held - storedArticles(dir).stale < paths.length && Date.now() - filling < 20 * 60_000) await sleep(2_000);
            const held = storedArticles(dir);
            console.log(
              `  the store finished warming without load in ${((Date.now() - filling) / 1000).toFixed(0)} s more: ${held.held - held.stale}/${paths.length} articles`,
            );
          }
        } finally {
          await server.stop("SIGTERM");
        }
      }
    } finally {
      release(dir);
      rmSync(site, { recursive: true, force: true });
    }
  }
  console.log("\nWarm-up rows (issue 30):");
  for (const text of results) console.log(text);
}

/** One server's resident memory after a load (mode: the bench's mode, or --memory-only's variant). */
interface MemoryRow {
  size: number;
  mode: string;
  rss: number;
  parts: ReturnType<typeof rssParts>;
  settled: number;
}

/** The two memory lines of DESIGN §9, on the largest size's servers. */
function memoryVerdicts(memory: MemoryRow[], largest: number) {
  const peak = Math.max(...memory.filter((m) => m.size === largest).map((m) => m.rss));
  const settledMax = Math.max(...memory.filter((m) => m.size === largest).map((m) => m.settled));
  verdict(
    largest >= 100_000 ? peak < MEMORY_LOADED_MB * 1024 * 1024 : undefined,
    `resident memory < ${MEMORY_LOADED_MB} MB right after the load at 100,000 articles: ${fmt.mb(peak)} at ${largest.toLocaleString("en-US")}`,
  );
  verdict(
    largest >= 100_000 && SETTLE >= 60 ? settledMax < MEMORY_IDLE_MB * 1024 * 1024 : undefined,
    `resident memory < ${MEMORY_IDLE_MB} MB ${SETTLE} s after the load at 100,000 articles: ${fmt.mb(settledMax)} at ${largest.toLocaleString("en-US")}`,
  );
}

/**
 * Issue 30 item 4: only the memory lines. Per size: one walk over the rotated articles fills the
 * store, then every page of the bench (rotation, home, category, the searches, RSS, the admin list)
 * is loaded for --duration s on the same server, as the full bench's warm rows do; then the
 * resident set right after and after --settle s of idle. `--server-env 'A=1;NODE_OPTIONS=…|B=2'`
 * passes variables to the server only (to try heap or malloc settings), one server per variant.
 */
async function memoryOnly() {
  // Variants separated by "|", each "A=1;B=2": every variant gets a fresh server and an empty store
  // on the same generated site.
  const variants = option("server-env", "")
    .split("|")
    .map((variant) =>
      Object.fromEntries(
        variant
          .split(";")
          .filter(Boolean)
          .map((pair) => [pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1)]),
      ),
    )
    .map((env) => ({ env, label: Object.keys(env).length ? JSON.stringify(env) : "as npm start" }));
  const memory: MemoryRow[] = [];
  for (const size of SIZES) {
    console.log(`== ${size.toLocaleString("en-US")} generated articles (+ demo seed)`);
    const dir = await prepare(size);
    try {
      const targets = targetsFor(dir).filter((t) => !t.warmOnly);
      for (const { env: serverEnv, label } of variants) {
        for (const file of ["pages.db", "pages.db-wal", "pages.db-shm"]) rmSync(join(dir, file), { force: true });
        console.log(`  server: ${label}`);
        let atStart = NaN;
        const { rss, parts, settled } = await withServer(dir, serverEnv, async (server) => {
          atStart = vmRss(server.child.pid!);
          const cookie = await signIn(server.url);
          await walk(server.url, targets.find((t) => t.rotation)!.paths);
          for (const target of targets) {
            const headers: Record<string, string> = target.signedIn ? { Cookie: cookie } : {};
            const run = await load(server.url, target, headers, DURATION);
            console.log(`    ${target.name}: ${fmt.rps(run)} req/s, p99 ${fmt.ms(run.p99)} ms; resident ${fmt.mb(vmRss(server.child.pid!))}`);
          }
        });
        console.log(
          `    resident: ${fmt.mb(atStart)} at start; ${fmt.mb(rss)} after the load (${fmt.mb(parts.anon)} anonymous + ${fmt.mb(parts.file)} file + ${fmt.mb(parts.shmem)} shared); ${fmt.mb(settled)} after ${SETTLE} s idle`,
        );
        memory.push({ size, mode: label, rss, parts, settled });
      }
    } finally {
      release(dir);
    }
  }
  console.log("");
  for (const { label } of variants) {
    if (variants.length > 1) console.log(`  ${label}:`);
    memoryVerdicts(
      memory.filter((m) => m.mode === label),
      Math.max(...SIZES),
    );
  }
}

/**
 * Issue 30: only the search rows, cold (store off), at each size, and their cost growth against the
 * smallest size; one server per size. `--settle 0` skips the idle wait after the load.
 */
async function searchOnly() {
  const results: { size: number; name: string; run: Run }[] = [];
  for (const size of SIZES) {
    console.log(`== ${size.toLocaleString("en-US")} generated articles (+ demo seed)`);
    const dir = await prepare(size);
    try {
      const targets = targetsFor(dir).filter((t) => t.name.startsWith("search") || t.name.startsWith("admin list"));
      await withServer(dir, { PAGE_CACHE: "0" }, async (server) => {
        const cookie = await signIn(server.url);
        for (const target of targets) {
          const headers: Record<string, string> = target.signedIn ? { Cookie: cookie } : {};
          await load(server.url, target, headers, WARMUP);
          const run = await load(server.url, target, headers, DURATION);
          if (run.non2xx || run.errors) console.log(`  ! ${target.name}: ${run.non2xx} non-2xx, ${run.errors} errors`);
          results.push({ size, name: target.name, run });
          console.log(`  cold ${target.name}: ${fmt.rps(run)} req/s, p50 ${fmt.ms(run.p50)} ms, p99 ${fmt.ms(run.p99)} ms, mean ${fmt.ms(run.mean)} ms`);
        }
      });
    } finally {
      release(dir);
    }
  }
  const smallest = Math.min(...SIZES);
  console.log(`\nCold search per size (store off), against ${smallest.toLocaleString("en-US")} articles:`);
  for (const name of [...new Set(results.map((r) => r.name))]) {
    const base = results.find((r) => r.size === smallest && r.name === name)?.run;
    const cells = SIZES.map((size) => {
      const run = results.find((r) => r.size === size && r.name === name)?.run;
      return `${size.toLocaleString("en-US")} ${fmt.rps(run)} req/s, p99 ${fmt.ms(run?.p99)} ms${run && base ? ` (${Math.round((run.rps / base.rps) * 100)}%)` : ""}`;
    });
    console.log(`  ${name}: ${cells.join("; ")}`);
  }
}

/**
 * Issue 26 (DESIGN §9, §13): the same rows on SQLite and PostgreSQL, with one process and with
 * WORKERS=2, at the size closest to 10,000, in one run: cold article rotation and search with the
 * store off, a kept page, and the admin list with a search. PostgreSQL is a throwaway server
 * started here (fsync on, as in production); the generated SQLite site is moved to it with db:copy.
 */
async function engines() {
  const size = SIZES.reduce((a, b) => (Math.abs(b - 10_000) < Math.abs(a - 10_000) ? b : a));
  console.log(`\n== engines and processes, ${size.toLocaleString("en-US")} generated articles`);
  const dir = await prepare(size);
  const { startCluster } = await import("../../scripts/pg-cluster.mjs");
  const { copySqliteToPostgres } = await import("../../db/copy");
  const cluster = await startCluster({ durable: true });
  const pgDirs: string[] = [];
  try {
    const admin = new (await import("pg")).default.Client({ connectionString: cluster.url });
    await admin.connect();
    await admin.query("create database news_bench");
    await admin.end();
    const url = new URL(cluster.url);
    url.pathname = "/news_bench";
    const started = Date.now();
    await copySqliteToPostgres({ file: join(dir, "news.db"), url: url.toString() });
    console.log(`  db:copy to PostgreSQL: ${((Date.now() - started) / 1000).toFixed(1)} s`);
    const targets = targetsFor(dir);
    const pick = (prefix: string) => targets.find((t) => t.name.startsWith(prefix))!;
    const rotation = pick("article (rotating");
    // The kept rows run with the warm-up off: it would render the archive in the background
    // during them (PAGE_STORE_WARM=0; the page itself is kept by the row's first load).
    const rowsOf: { label: string; target: Target; env: Record<string, string> }[] = [
      { label: `cold article (rotating ${rotation.paths.length}, store off)`, target: rotation, env: { PAGE_CACHE: "0" } },
      { label: "cold search, common word (store off)", target: pick("search (common"), env: { PAGE_CACHE: "0" } },
      { label: "kept page (one hot article)", target: pick("article (one hot"), env: { PAGE_STORE_WARM: "0" } },
      { label: "admin list + search (1 conn)", target: pick("admin list"), env: { PAGE_STORE_WARM: "0" } },
    ];
    const configs: { name: string; env: Record<string, string> }[] = [
      { name: "SQLite, 1 process", env: {} },
      { name: "SQLite, WORKERS=2", env: { WORKERS: "2" } },
      { name: "PostgreSQL, 1 process", env: { DATABASE_URL: url.toString() } },
      { name: "PostgreSQL, WORKERS=2", env: { DATABASE_URL: url.toString(), WORKERS: "2" } },
    ];
    const results = new Map<string, Run>();
    for (const config of configs) {
      // One server per configuration and store setting (the cold rows share one with the store off).
      for (const storeEnv of [{ PAGE_CACHE: "0" }, { PAGE_STORE_WARM: "0" }] as Record<string, string>[]) {
        const rows = rowsOf.filter((row) => JSON.stringify(row.env) === JSON.stringify(storeEnv));
        // Each server its own data folder for the page store; on PostgreSQL the one database it names.
        const dataDir = config.env.DATABASE_URL ? mkdtempSync(join(tmpdir(), "news-bench-pg-")) : dir;
        if (dataDir !== dir) pgDirs.push(dataDir);
        await withServer(dataDir, { ...config.env, ...storeEnv }, async (server) => {
          for (const row of rows) {
            const headers: Record<string, string> = row.target.signedIn ? { Cookie: await signIn(server.url) } : {};
            if (!row.target.signedIn) await load(server.url, row.target, headers, WARMUP); // fills the store for the kept page
            await load(server.url, row.target, headers, WARMUP);
            // One 10 s run could not tell 1.5× from 1.6× (the same code gave 1.16× and 1.54× nine
            // minutes apart): the median of REPEATS runs.
            const runs: Run[] = [];
            for (let i = 0; i < REPEATS; i++) runs.push(await load(server.url, row.target, headers, DURATION));
            const run = medianRun(runs);
            const bad = runs.reduce((n, r) => n + r.non2xx + r.errors, 0);
            if (bad) console.log(`  ! ${row.label} (${config.name}): ${bad} non-2xx or errors`);
            results.set(`${config.name}|${row.label}`, run);
            const each = runs.length > 1 ? ` (runs: ${runs.map((r) => fmt.rps(r)).join(", ")})` : "";
            process.stdout.write(`  ${config.name}: ${row.label}: ${fmt.rps(run)} req/s, p99 ${fmt.ms(run.p99)} ms${each}\n`);
          }
        });
      }
    }
    console.log("");
    const width = Math.max(...rowsOf.map((r) => r.label.length));
    console.log(`${"".padEnd(width)}  ${configs.map((c) => c.name.padStart(24)).join("")}`);
    for (const row of rowsOf) {
      const base = results.get(`${configs[0].name}|${row.label}`);
      const cells = configs.map((c) => {
        const run = results.get(`${c.name}|${row.label}`);
        const ratio = run && base ? ` ${(run.rps / base.rps).toFixed(2)}×` : "";
        const value = row.target.signedIn ? `${fmt.ms(run?.mean)} ms` : `${fmt.rps(run)}/s`;
        return `${value}${ratio}`.padStart(24);
      });
      console.log(`${row.label.padEnd(width)}  ${cells.join("")}`);
    }
    console.log("  (req/s, and the share of SQLite with one process; the admin list: mean ms per request at 1 connection)");
    for (const engine of ["SQLite", "PostgreSQL"]) {
      for (const row of rowsOf.slice(0, 2)) {
        const one = results.get(`${engine}, 1 process|${row.label}`);
        const two = results.get(`${engine}, WORKERS=2|${row.label}`);
        verdict(
          one && two ? two.rps >= 1.6 * one.rps : undefined,
          `${engine} WORKERS=2 >= 1.6x one process, ${row.label}: ${fmt.rps(two)} vs ${fmt.rps(one)} req/s${one && two ? ` (${(two.rps / one.rps).toFixed(2)}×)` : ""}`,
        );
      }
    }
  } finally {
    cluster.stop();
    release(dir);
    for (const d of pgDirs) rmSync(d, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  cleanupStatic();
  process.exit(1);
});
