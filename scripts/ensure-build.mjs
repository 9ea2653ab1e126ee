// `npm start` builds first when there is no build or the sources are newer than it (DESIGN §3).
import { execSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

const outputs = ["build/server.js", "build/remix/index.js", "build/cpu-worker.js"];
const sources = ["app", "db", "migrations", "server.ts", "server", "remix.config.js", "package-lock.json"];

function newest(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newest(join(path, name))));
}

const built = Math.min(...outputs.map((file) => (existsSync(file) ? statSync(file).mtimeMs : 0)));
if (built === 0 || Math.max(...sources.map(newest)) > built) {
  console.log("Building the site (first start or changed sources)...");
  execSync("npm run build", { stdio: "inherit" });
}
