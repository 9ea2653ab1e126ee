// Splits a .cpuprofile into buckets (React SSR, route matching, SQL, Kysely, Express…), as in
// docs/decisions/009:  node scripts/perf/profile-buckets.mjs /tmp/prof/CPU.*.cpuprofile
import { readFileSync } from "node:fs";
const p = JSON.parse(readFileSync(process.argv[2], "utf8"));
const byId = new Map(p.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const short = (u) =>
  u
    .replace(/^file:\/\//, "")
    .replace(/.*node_modules\//, "nm:")
    .replace(process.cwd() + "/", "");
const key = (c) => `${c.functionName}@${short(c.url)}`;
// first matching bucket walking from leaf to root wins (ordered by specificity)
const buckets = [
  ["SQL (better-sqlite3 run + prepare)", /^(all|run|prepare)@(build\/server\.js|nm:better-sqlite3)/],
  ["Kysely build+compile", /nm:kysely/],
  ["route matching (@remix-run/router matchRoutes)", /^matchRoutes@/],
  ["turbo-stream loader data encoding", /nm:turbo-stream|encodeViaTurboStream/],
  ["Remix StreamTransfer (inline data scripts)", /^StreamTransfer@/],
  ["React SSR (renderToPipeableStream work)", /react-dom-server/],
  ["our loaders (excl. SQL)", /^loader\d*@build\/remix/],
  ["Remix server runtime (request handling)", /nm:@remix-run\/(server-runtime|express|node)/],
  ["page-cache middleware + compression + ETag", /^(res\.end|replay|etagOf)@build\/server/],
  ["express + middleware", /nm:(express|helmet|compression|send|serve-static)|build\/server\.js/],
  ["GC", /garbage collector/],
  ["socket writes (writev)", /^writev@/],
];
const totals = new Map();
let busy = 0;
for (let i = 0; i < p.samples.length; i++) {
  const d = p.timeDeltas[i] ?? 0;
  const id = p.samples[i];
  const leaf = byId.get(id).callFrame.functionName;
  if (leaf === "(idle)") continue;
  busy += d;
  let b = "other (node internals, startup)";
  outer: for (let q = id; q !== undefined; q = parent.get(q)) {
    const k = key(byId.get(q).callFrame);
    for (const [name, re] of buckets)
      if (re.test(k)) {
        b = name;
        break outer;
      }
  }
  totals.set(b, (totals.get(b) ?? 0) + d);
}
const cpuPerReq = Number(process.argv[4] ?? 0);
for (const [b, t] of [...totals].sort((a, c) => c[1] - a[1]))
  console.log(`${((t / busy) * 100).toFixed(1).padStart(5)}%  ${cpuPerReq ? ((t / busy) * cpuPerReq).toFixed(2).padStart(6) + " ms/req  " : ""}${b}`);
