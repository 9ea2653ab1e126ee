// Sums a .cpuprofile (node --cpu-prof) by function (self time) and by file/package, top N:
//   node scripts/perf/profile-top.mjs /tmp/prof/CPU.*.cpuprofile [30]
import { readFileSync } from "node:fs";
const p = JSON.parse(readFileSync(process.argv[2], "utf8"));
const top = Number(process.argv[3] ?? 30);
const byId = new Map(p.nodes.map((n) => [n.id, n]));
const self = new Map();
const dt = p.timeDeltas;
let total = 0;
for (let i = 0; i < p.samples.length; i++) {
  const n = byId.get(p.samples[i]);
  const d = dt[i] ?? 0;
  total += d;
  self.set(n.id, (self.get(n.id) ?? 0) + d);
}
const byFn = new Map(),
  byFile = new Map();
const short = (u) =>
  u
    .replace(/^file:\/\//, "")
    .replace(/.*node_modules\//, "nm:")
    .replace(process.cwd() + "/", "");
for (const [id, t] of self) {
  const { callFrame: c } = byId.get(id);
  const file = short(c.url || "(native)");
  const key = `${c.functionName || "(anon)"}  ${file}:${c.lineNumber + 1}`;
  byFn.set(key, (byFn.get(key) ?? 0) + t);
  const pkg = file.startsWith("nm:")
    ? file
        .split("/")
        .slice(0, file.startsWith("nm:@") ? 2 : 1)
        .join("/")
    : file;
  byFile.set(pkg, (byFile.get(pkg) ?? 0) + t);
}
const show = (m, title) => {
  console.log(`== ${title}`);
  [...m]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .forEach(([k, t]) => console.log(`${(t / 1000).toFixed(0).padStart(7)} ms ${((t / total) * 100).toFixed(1).padStart(5)}%  ${k}`));
};
console.log(`total ${(total / 1000).toFixed(0)} ms`);
show(byFn, "self by function");
show(byFile, "self by file/package");
