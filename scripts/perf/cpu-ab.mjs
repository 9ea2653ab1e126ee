// Paired A/B of the CPU cost per request of two builds (docs/decisions/009):
//   node scripts/perf/cpu-ab.mjs --a /path/old-checkout --b . --data-a /tmp/copy1 --data-b /tmp/copy2 [--n 300] [--gzip] [--pages home,article]
//     [--flags-a "--max-old-space-size=256"] [--flags-b …]   Node flags for one side (docs/decisions/034)
// Each side is a folder with build/, public/ and node_modules; each gets its own copy of a DATA_DIR
// (views are written). Requests alternate A, B, A, B… over one keep-alive connection each, so both
// servers see the same machine state; CPU time is utime+stime from /proc/<pid>/stat.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import http from "node:http";
const args = process.argv.slice(2);
const opt = (n, d) => {
  const i = args.indexOf(n);
  return i === -1 ? d : args[i + 1];
};
const N = Number(opt("--n", 300));
const gzip = args.includes("--gzip");
const UA = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36";
function start(dir, data, flags = "") {
  const port = 4000 + Math.floor(Math.random() * 900);
  const child = spawn(process.execPath, [...flags.split(" ").filter(Boolean), "build/server.js"], {
    cwd: dir,
    env: { ...process.env, NODE_ENV: "production", PAGE_CACHE: "0", LOG_REQUESTS: "0", PORT: String(port), DATA_DIR: data },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const get = (path) =>
    new Promise((res, rej) => {
      const req = http.get({ host: "127.0.0.1", port, path, agent, headers: { "user-agent": UA, ...(gzip ? { "accept-encoding": "gzip" } : {}) } }, (r) => {
        const parts = [];
        r.on("data", (d) => parts.push(d));
        r.on("end", () => res({ status: r.statusCode, body: Buffer.concat(parts) }));
      });
      req.on("error", rej);
    });
  const cpu = () => {
    const f = readFileSync(`/proc/${child.pid}/stat`, "utf8").split(") ")[1].split(" ");
    return (Number(f[11]) + Number(f[12])) * 10;
  };
  return { child, get, cpu };
}
// each server gets its own copy of the data (views are written)
if (!opt("--a") || !opt("--data-a") || !opt("--data-b")) throw new Error("usage: --a DIR --data-a DATA_DIR_COPY --data-b DATA_DIR_COPY [--b DIR]");
const A = start(opt("--a"), opt("--data-a"), opt("--flags-a", ""));
const B = start(opt("--b", "."), opt("--data-b"), opt("--flags-b", ""));
for (const s of [A, B])
  for (;;) {
    try {
      await s.get("/healthz");
      break;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
const rss = (await A.get("/rss.xml")).body.toString();
const article = new URL(rss.match(/<link>([^<]*\/article\/[^<]*)<\/link>/)[1]).pathname;
const pages = { home: "/", article, category: "/category/technology", search: `/search?q=${encodeURIComponent("дані")}`, rss: "/rss.xml" };
const only = opt("--pages");
const out = {};
for (const [name, path] of Object.entries(pages)) {
  if (only && !only.split(",").includes(name)) continue;
  let ra, rb;
  for (let i = 0; i < 30; i++) {
    ra = await A.get(path);
    rb = await B.get(path);
  }
  const a0 = A.cpu(),
    b0 = B.cpu();
  for (let i = 0; i < N; i++) {
    await A.get(path);
    await B.get(path);
  }
  const a = (A.cpu() - a0) / N,
    b = (B.cpu() - b0) / N;
  out[name] = {
    A: +a.toFixed(2),
    B: +b.toFixed(2),
    "B/A": +(b / a).toFixed(2),
    bytesA: ra.body.length,
    bytesB: rb.body.length,
    status: `${ra.status}/${rb.status}`,
  };
}
console.table(out);
for (const s of [A, B]) {
  s.child.kill("SIGTERM");
  await new Promise((r) => s.child.on("exit", r));
}
process.exit(0);
