// npm run security:timing: SECURITY.md 'No user enumeration' [ASVS 2.2.1], measured. An unknown
// username and a known username with a wrong password must take the same time, or a stopwatch
// tells which usernames exist. A statistical check, not a timed test: it is never part of npm test
// (a shared 2-core machine makes any one timing noisy); it prints the figures and PASS or FAIL and
// exits 1 on FAIL.
//
//   npm run security:timing                      300 pairs of sign-ins through POST /api/auth/login
//   npm run security:timing -- --n 500           more pairs (finer detection, longer run)
//   npm run security:timing -- --door form       through the sign-in form (POST /admin/login)
//   npm run security:timing -- --alpha 0.05      another threshold (default 0.01)
//   npm run security:timing -- --seed 42         the same order of kinds as an earlier run
//
// It starts the production build (npm run builds it if needed) on a temp DATA_DIR with the demo
// seed and RATE_LIMIT=0, creates KNOWN_USERS reporters, then sends the two kinds of sign-in one at a
// time, interleaved in pairs (one of each kind, in a random order within the pair), after a warm-up
// that is not counted:
//   - unknown: a username nobody has (a new one each time, the same length as the known ones);
//   - wrong password: one of the known usernames, a wrong password.
// The lockout must not answer first (a refused attempt is cheap, and would look like a difference):
// each request comes from its own address (X-Forwarded-For, which the server takes from a proxy on
// this machine; addresses from 198.18.0.0/15, the range set aside for benchmarks, RFC 2544) and
// each known username fails at most N / KNOWN_USERS times, under the 20 an hour that slow a username.
// Every answer is checked: the same status (401) and the same body for both kinds.
//
// The machine is shared (other test suites come and go), so its load drifts within a run. The two
// sign-ins of a pair run back to back under the same load, so the decision is made on the pairs:
// the Wilcoxon signed-rank test on the differences within pairs (two-sided, normal approximation
// with tie correction); PASS when it finds no difference at the threshold (p >= alpha). Printed
// beside it: each kind's median and interquartile range, the median difference within pairs, the
// Mann-Whitney U test on the two sets as unpaired samples with the probability that a
// wrong-password sign-in is slower than an unknown-user one (0.5 when neither is), and a sign-flip
// permutation test on the median difference as a second look.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startServer } from "../tests/server-process";

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const i = args.indexOf(`--${name}`);
  return i === -1 ? fallback : args[i + 1];
};
const N = Math.max(20, Number(option("n", "300")));
const ALPHA = Number(option("alpha", "0.01"));
const DOOR = option("door", "api") as "api" | "form";
const WARMUP = 30;
const KNOWN_USERS = Math.max(16, Math.ceil(N / 10));
const PASSWORD = "Dovhyi-parol-dlia-vymiru-2026";

type Kind = "unknown" | "wrong";

/** A small seeded generator (mulberry32), so a run's order can be repeated with --seed. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const median = (xs: number[]) => quantile(xs, 0.5);
function quantile(xs: number[], q: number) {
  const s = [...xs].sort((a, b) => a - b);
  const pos = (s.length - 1) * q;
  const lo = Math.floor(pos);
  return s[lo] + (s[Math.min(lo + 1, s.length - 1)] - s[lo]) * (pos - lo);
}

/** The standard normal distribution function (Abramowitz and Stegun 7.1.26, error < 1.5e-7). */
function normalCdf(z: number) {
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * x);
  const erf = 1 - ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-x * x);
  return z >= 0 ? (1 + erf) / 2 : (1 - erf) / 2;
}

/** Mann-Whitney U, two-sided: U of `a`, the probability that an `a` exceeds a `b`, and p. */
function mannWhitney(a: number[], b: number[]) {
  const all = [...a.map((v) => ({ v, a: true })), ...b.map((v) => ({ v, a: false }))].sort((x, y) => x.v - y.v);
  const n = all.length;
  let rankSumA = 0;
  let ties = 0;
  for (let i = 0; i < n;) {
    let j = i;
    while (j + 1 < n && all[j + 1].v === all[i].v) j++;
    const rank = (i + j) / 2 + 1;
    for (let k = i; k <= j; k++) if (all[k].a) rankSumA += rank;
    const t = j - i + 1;
    ties += t * t * t - t;
    i = j + 1;
  }
  const [n1, n2] = [a.length, b.length];
  const u = rankSumA - (n1 * (n1 + 1)) / 2;
  const mean = (n1 * n2) / 2;
  const sd = Math.sqrt(((n1 * n2) / 12) * (n + 1 - ties / (n * (n - 1))));
  const z = (Math.abs(u - mean) - 0.5) / sd;
  return { u, superiority: u / (n1 * n2), z, p: Math.min(1, 2 * (1 - normalCdf(z))) };
}

/** Wilcoxon signed-rank, two-sided, on paired differences (zeros dropped): W+, z and p. */
function signedRank(diffs: number[]) {
  const d = diffs.filter((x) => x !== 0).sort((x, y) => Math.abs(x) - Math.abs(y));
  const n = d.length;
  let plus = 0;
  let ties = 0;
  for (let i = 0; i < n;) {
    let j = i;
    while (j + 1 < n && Math.abs(d[j + 1]) === Math.abs(d[i])) j++;
    const rank = (i + j) / 2 + 1;
    for (let k = i; k <= j; k++) if (d[k] > 0) plus += rank;
    const t = j - i + 1;
    ties += t * t * t - t;
    i = j + 1;
  }
  const mean = (n * (n + 1)) / 4;
  const sd = Math.sqrt((n * (n + 1) * (2 * n + 1)) / 24 - ties / 48);
  const z = Math.max(0, Math.abs(plus - mean) - 0.5) / sd;
  return { plus, z, p: Math.min(1, 2 * (1 - normalCdf(z))) };
}

/** Sign-flip permutation test on the median of paired differences (two-sided). */
function signFlipOnMedian(diffs: number[], rounds: number, next: () => number) {
  const observed = Math.abs(median(diffs));
  let asExtreme = 0;
  for (let r = 0; r < rounds; r++) {
    if (Math.abs(median(diffs.map((x) => (next() < 0.5 ? -x : x)))) >= observed) asExtreme++;
  }
  return (asExtreme + 1) / (rounds + 1);
}

async function main() {
  const seed = Number(option("seed", String(randomBytes(4).readUInt32LE(0))));
  const next = random(seed);
  const dataDir = mkdtempSync(join(tmpdir(), "news-login-timing-"));
  const server = await startServer({ dataDir, env: { SEED_DEMO: "1", RATE_LIMIT: "0" } });
  try {
    const token = await signInToken("admin", "admin123", server.url);
    const known: string[] = [];
    for (let i = 0; i < KNOWN_USERS; i++) {
      const username = `vymir-${String(i).padStart(3, "0")}-${randomBytes(3).toString("hex")}`;
      const res = await fetch(`${server.url}/api/users/`, {
        method: "POST",
        headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
        body: JSON.stringify({ username, email: `${username}@example.com`, full_name: "Вимір", role: "reporter", password: PASSWORD }),
      });
      if (res.status !== 201) throw new Error(`creating a user answered ${res.status}: ${await res.text()}`);
      known.push(username);
    }
    // Same length and alphabet as the known ones, never created.
    const unknownName = () => `vymir-${String(Math.floor(next() * 1000)).padStart(3, "0")}-x${randomBytes(3).toString("hex").slice(1)}`;

    let address = 0;
    const answers = new Map<string, number>();
    let nextKnown = 0;
    const attempt = async (kind: Kind): Promise<number> => {
      const username = kind === "unknown" ? unknownName() : known[nextKnown++ % known.length];
      address++;
      const from = `198.${18 + ((address >> 16) & 1)}.${(address >> 8) & 255}.${address & 255}`;
      const password = `wrong-${randomBytes(6).toString("hex")}`;
      const request: { url: string; init: RequestInit } =
        DOOR === "api"
          ? {
              url: `${server.url}/api/auth/login`,
              init: { method: "POST", headers: { "Content-Type": "application/json", "X-Forwarded-For": from }, body: JSON.stringify({ username, password }) },
            }
          : {
              url: `${server.url}/admin/login`,
              init: {
                method: "POST",
                redirect: "manual",
                headers: { Origin: server.url, "X-Forwarded-For": from },
                body: new URLSearchParams({ username, password }),
              },
            };
      const start = process.hrtime.bigint();
      const res = await fetch(request.url, request.init);
      const body = await res.text();
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      // The form page carries the typed username and per-request nonces; the API body is all of it.
      const shape = `${res.status} ${DOOR === "api" ? body : body.includes("Невірне ім'я користувача або пароль")}`;
      answers.set(`${kind} ${shape}`, (answers.get(`${kind} ${shape}`) ?? 0) + 1);
      if (res.status !== 401) throw new Error(`${kind} sign-in answered ${res.status} (lockout or error): ${body.slice(0, 200)}`);
      return ms;
    };

    for (let i = 0; i < WARMUP; i++) await attempt(i % 2 ? "unknown" : "wrong");
    answers.clear();
    const times: Record<Kind, number[]> = { unknown: [], wrong: [] };
    for (let i = 0; i < N; i++) {
      const pair: Kind[] = next() < 0.5 ? ["unknown", "wrong"] : ["wrong", "unknown"];
      for (const kind of pair) times[kind].push(await attempt(kind));
    }
    const diffs = times.wrong.map((t, i) => t - times.unknown[i]);

    const shapes = [...answers.keys()].map((k) => k.slice(k.indexOf(" ") + 1));
    const sameAnswer = new Set(shapes).size === 1;
    const paired = signedRank(diffs);
    const mw = mannWhitney(times.wrong, times.unknown);
    const flips = signFlipOnMedian(diffs, 5000, next);
    const fmt = (x: number) => x.toFixed(2);
    const line = (kind: Kind, label: string) =>
      `  ${label.padEnd(26)} n=${times[kind].length}  median ${fmt(median(times[kind]))} ms  IQR ${fmt(quantile(times[kind], 0.25))}–${fmt(quantile(times[kind], 0.75))} ms`;
    console.log(`Sign-in timing (${DOOR === "api" ? "POST /api/auth/login" : "POST /admin/login"}), ${N} pairs (one of each kind, random order), seed ${seed}`);
    console.log(line("unknown", "unknown username"));
    console.log(line("wrong", "known user, wrong password"));
    console.log(`  median difference in pairs ${fmt(median(diffs))} ms (wrong password − unknown)`);
    console.log(`  Wilcoxon signed-rank       W+=${paired.plus.toFixed(0)}  z=${paired.z.toFixed(2)}  p=${paired.p.toFixed(4)}  (the decision)`);
    console.log(`  sign-flip on that median   p=${flips.toFixed(4)} (5,000 rounds)`);
    console.log(
      `  Mann-Whitney U (unpaired)  U=${mw.u.toFixed(0)}  z=${mw.z.toFixed(2)}  p=${mw.p.toFixed(4)}  P(wrong password slower)=${mw.superiority.toFixed(3)}`,
    );
    console.log(`  same status and body       ${sameAnswer ? "yes" : `no: ${[...answers.keys()].join(" | ")}`}`);
    const pass = sameAnswer && paired.p >= ALPHA;
    console.log(
      pass
        ? `PASS: no difference found at alpha=${ALPHA} (Wilcoxon signed-rank p=${paired.p.toFixed(4)})`
        : `FAIL: ${sameAnswer ? `the two kinds differ in time (Wilcoxon signed-rank p=${paired.p.toFixed(4)} < ${ALPHA})` : "the answers differ"}`,
    );
    process.exitCode = pass ? 0 : 1;
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function signInToken(username: string, password: string, url: string): Promise<string> {
  const res = await fetch(`${url}/api/auth/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ username, password }),
  });
  if (res.status !== 200) throw new Error(`sign-in as ${username} answered ${res.status}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 2;
});
