// npm run lighthouse: the reader-page budgets of DESIGN §9, measured (a report, never part of npm
// test or CI; it exits 0 when a budget is missed and non-zero only when it could not run).
//
//   npm run lighthouse                                   mobile and desktop, 3 runs each, median
//   npm run lighthouse -- --runs 1 --presets mobile
//   npm run lighthouse -- --throttling devtools          real throttling instead of the simulation
//   npm run lighthouse -- --cpu-slowdown 2               a CPU multiplier for a slow host (default 4)
//   npm run lighthouse -- --url http://127.0.0.1:3000    an already running server (no temp site)
//   npm run lighthouse -- --save /tmp/lh                 also write each run's full JSON report there
//
// It builds if needed (scripts/ensure-build.mjs), starts the production server on a temp DATA_DIR
// with the demo seed, prints the gzip size of the JavaScript each public route loads (budget
// 120 KB, scripts/js-size.ts), then runs Lighthouse with Debian's Chromium on the home page and an
// article: the four category scores per page (budget 95 each), FCP, LCP, TBT and CLS, and the
// audits that fail in a category under 95. The performance score moves with the machine's load,
// so each page is run several times and the median is printed (the spread is shown beside it).
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as chromeLauncher from "chrome-launcher";
import lighthouse, { desktopConfig, type Flags, type Result } from "lighthouse";
import { startServer, type RunningServer } from "../tests/server-process";
import { reportPagesJs } from "./js-size";

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const i = args.indexOf(`--${name}`);
  return i === -1 ? fallback : args[i + 1];
};
const RUNS = Math.max(1, Number(option("runs", "3")));
const PRESETS = option("presets", "mobile,desktop").split(",") as ("mobile" | "desktop")[];
const THROTTLING = option("throttling", "simulate") as "simulate" | "devtools";
// Lighthouse's simulated mobile CPU is 4x slower than the host; on a host far slower than the
// desktop it was calibrated on (see benchmarkIndex below) a smaller multiplier is the fair one.
const CPU_SLOWDOWN = args.includes("--cpu-slowdown") ? Number(option("cpu-slowdown", "4")) : undefined;
const SAVE_DIR = args.includes("--save") ? option("save", "") : undefined;
const EXTERNAL_URL = args.includes("--url") ? option("url", "") : undefined;
const CHROME_PATH = process.env.CHROMIUM_PATH ?? (existsSync("/usr/bin/chromium") ? "/usr/bin/chromium" : undefined);

const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"] as const;
const BUDGET = 95;
const METRICS = [
  ["first-contentful-paint", "FCP"],
  ["largest-contentful-paint", "LCP"],
  ["total-blocking-time", "TBT"],
  ["cumulative-layout-shift", "CLS"],
] as const;

/** The reader pages to measure: home, the first article, category and search linked from home. */
async function publicPaths(baseUrl: string) {
  const html = await (await fetch(baseUrl)).text();
  const first = (re: RegExp) => re.exec(html)?.[1];
  const article = first(/href="(\/article\/[^"#?]+)"/);
  const category = first(/href="(\/category\/[^"#?]+)"/);
  if (!article) throw new Error("no article link on the home page (is the demo seed there?)");
  return { article, category, search: "/search?q=%D0%BA%D0%BE%D1%81%D0%BC%D0%BE%D1%81" };
}

/** One Lighthouse run; a run whose trace broke (NO_NAVSTART and the like on a loaded host) is retried. */
async function runLighthouse(url: string, preset: "mobile" | "desktop", attempts = 3): Promise<Result> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await runLighthouseOnce(url, preset);
    } catch (error) {
      if (attempt >= attempts) throw error;
      console.log(`  (retrying ${url}: ${(error as Error).message.slice(0, 120)})`);
    }
  }
}

async function runLighthouseOnce(url: string, preset: "mobile" | "desktop"): Promise<Result> {
  const chrome = await chromeLauncher.launch({
    chromePath: CHROME_PATH,
    chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
  });
  try {
    const flags: Flags = {
      port: chrome.port,
      output: "json",
      logLevel: "error",
      onlyCategories: [...CATEGORIES],
      throttlingMethod: THROTTLING,
    };
    const config = preset === "desktop" ? desktopConfig : { extends: "lighthouse:default" as const };
    if (CPU_SLOWDOWN !== undefined) {
      const throttling = { ...(config.settings?.throttling ?? {}), cpuSlowdownMultiplier: CPU_SLOWDOWN };
      Object.assign(flags, { throttling });
    }
    const result = await lighthouse(url, flags, config);
    if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
    if (result.lhr.runtimeError) throw new Error(`Lighthouse: ${result.lhr.runtimeError.code} ${result.lhr.runtimeError.message}`);
    return result.lhr;
  } finally {
    chrome.kill();
  }
}

const score = (lhr: Result, id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];

function metric(lhr: Result, id: string) {
  const audit = lhr.audits[id];
  if (!audit || audit.numericValue === undefined) return "—";
  return id === "cumulative-layout-shift" ? audit.numericValue.toFixed(3) : `${Math.round(audit.numericValue)} ms`;
}

/**
 * Titles of the audits that fail in a category (scored under 0.9): `scored` cost points (for
 * performance, the metrics), `advice` carry no weight (performance opportunities and insights).
 */
function failingAudits(lhr: Result, id: string) {
  const failing = (lhr.categories[id]?.auditRefs ?? [])
    .map((ref) => ({ ref, audit: lhr.audits[ref.id] }))
    .filter(({ audit }) => audit && audit.score !== null && audit.score < 0.9 && !["notApplicable", "informative", "manual"].includes(audit.scoreDisplayMode))
    .map(({ ref, audit }) => ({ weight: ref.weight, text: `${audit.title}${audit.displayValue ? ` (${audit.displayValue})` : ""}` }));
  return { scored: failing.filter((f) => f.weight > 0).map((f) => f.text), advice: failing.filter((f) => f.weight === 0).map((f) => f.text) };
}

async function main() {
  let server: RunningServer | undefined;
  let dataDir: string | undefined;
  try {
    let baseUrl = EXTERNAL_URL;
    if (!baseUrl) {
      execFileSync(process.execPath, ["scripts/ensure-build.mjs"], { stdio: "inherit" });
      dataDir = mkdtempSync(join(tmpdir(), "news-lighthouse-"));
      server = await startServer({ dataDir, env: { SEED_DEMO: "1" } });
      baseUrl = server.url;
    }
    const paths = await publicPaths(baseUrl);
    console.log(`Server: ${baseUrl}${dataDir ? ` (temp DATA_DIR ${dataDir}, demo seed)` : ""}\n`);

    console.log("Public JavaScript per page (gzip, as compression sends it):");
    const jsPaths = ["/", paths.article, ...(paths.category ? [paths.category] : []), paths.search];
    const js = await reportPagesJs(baseUrl, jsPaths, { verbose: false });

    const pages = [
      { name: "home", path: "/" },
      { name: "article", path: paths.article },
    ];
    const lines: string[] = [];
    const benchmarks: number[] = [];
    let allMet = true;
    console.log(
      `\nLighthouse ${RUNS} run(s) per page, presets ${PRESETS.join(", ")}, throttling ${THROTTLING}${CPU_SLOWDOWN === undefined ? "" : `, CPU slowdown ${CPU_SLOWDOWN}x`} (median of runs):`,
    );
    for (const preset of PRESETS) {
      for (const page of pages) {
        const runs: Result[] = [];
        for (let i = 0; i < RUNS; i++) {
          // Warm the page cache first so every run measures the same response.
          await fetch(new URL(page.path, baseUrl));
          const lhr = await runLighthouse(new URL(page.path, baseUrl).href, preset);
          runs.push(lhr);
          if (SAVE_DIR) {
            mkdirSync(SAVE_DIR, { recursive: true });
            writeFileSync(join(SAVE_DIR, `${page.name}-${preset}-${i + 1}.json`), JSON.stringify(lhr));
          }
        }
        // Metrics come from the run with the median performance score; each score is its own median.
        const byPerf = [...runs].sort((a, b) => score(a, "performance") - score(b, "performance"));
        const mid = byPerf[Math.floor((byPerf.length - 1) / 2)];
        const scores = Object.fromEntries(CATEGORIES.map((c) => [c, median(runs.map((r) => score(r, c)))])) as Record<(typeof CATEGORIES)[number], number>;
        const spread = (c: string) => (runs.length > 1 ? ` [${runs.map((r) => score(r, c)).join(",")}]` : "");
        const met = CATEGORIES.every((c) => scores[c] >= BUDGET);
        allMet &&= met;
        console.log(`\n${page.name} ${page.path} (${preset})`);
        console.log(`  ${CATEGORIES.map((c) => `${c} ${scores[c]}${spread(c)}`).join("  ")}`);
        console.log(`  ${METRICS.map(([id, label]) => `${label} ${metric(mid, id)}`).join("  ")}`);
        // Lighthouse's CPU benchmark of this machine at the time (a quiet desktop scores ~1000-2000;
        // the simulated 4x mobile slowdown assumes that), so a low figure explains a low TBT.
        benchmarks.push(...runs.map((r) => r.environment.benchmarkIndex));
        console.log(
          `  host benchmarkIndex ${median(runs.map((r) => r.environment.benchmarkIndex))} [${runs.map((r) => r.environment.benchmarkIndex).join(",")}]`,
        );
        for (const warning of new Set(runs.flatMap((r) => r.runWarnings))) console.log(`  warning: ${String(warning).slice(0, 200)}`);
        for (const c of CATEGORIES) {
          if (scores[c] >= BUDGET) continue;
          const { scored, advice } = failingAudits(mid, c);
          console.log(`  ${c} under ${BUDGET}, failing: ${scored.length ? scored.join("; ") : "none of the weighted audits under 0.9"}`);
          if (advice.length) console.log(`    advice (no weight): ${advice.join("; ")}`);
        }
        lines.push(`  ${met ? "met   " : "MISSED"} Lighthouse >= ${BUDGET} ${page.name} (${preset}): ${CATEGORIES.map((c) => `${c} ${scores[c]}`).join(", ")}`);
      }
    }

    console.log("\nDESIGN §9 reader-page budgets:");
    const heaviest = js.reduce((a, b) => (b.gzip > a.gzip ? b : a));
    console.log(
      `  ${heaviest.gzip <= 120 * 1024 ? "met   " : "MISSED"} public JavaScript <= 120 KB gzip: heaviest ${heaviest.path} ${(heaviest.gzip / 1024).toFixed(1)} KB`,
    );
    for (const line of lines) console.log(line);
    const host = median(benchmarks);
    if (host < 1000 && CPU_SLOWDOWN === undefined && THROTTLING === "simulate" && PRESETS.includes("mobile")) {
      // Lighthouse's docs/throttling.md: the default 4x turns a high-end desktop (benchmarkIndex
      // 1500-2000) into a mid-tier phone (125-800); a host already in a slower bracket needs less.
      console.log(`  note: host benchmarkIndex ${host} < 1000: Lighthouse's 4x mobile CPU slowdown assumes a desktop-class host;`);
      console.log(
        `        a busy or slow host lowers the mobile performance score. Compare with --cpu-slowdown ${Math.max(1, Math.round((4 * host) / 1750))} (Lighthouse's calibration).`,
      );
    }
    if (!allMet) console.log("  (a report, not a test: exit 0 with a budget missed)");
  } finally {
    await server?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
