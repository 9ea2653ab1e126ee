// Compiles server.ts and server/ for Node 20, which cannot run TypeScript itself (DESIGN §2).
// Every package stays external and the Remix build is imported at run time, so this takes
// milliseconds. Nothing of app/, db/ or migrations/ may be bundled in: the server reaches the app
// through the build's `runtime` export, so the process holds one copy of each module
// (docs/decisions/012). The metafile check fails the build if one slips in.
import { rmSync } from "node:fs";
import { build } from "esbuild";
import { buildWorker } from "./build-worker.mjs";

const result = await build({
  entryPoints: ["server.ts"],
  outfile: "build/server.js",
  bundle: true,
  packages: "external",
  platform: "node",
  format: "esm",
  target: "node20",
  sourcemap: true,
  logLevel: "warning",
  metafile: true,
});

const strays = Object.keys(result.metafile.inputs).filter((input) => /^(app|db|migrations)\//.test(input));
if (strays.length) {
  rmSync("build/server.js", { force: true });
  rmSync("build/server.js.map", { force: true });
  console.error(`build/server.js must not bundle app/, db/ or migrations/ (docs/decisions/012); it took in:\n  ${strays.join("\n  ")}`);
  process.exit(1);
}

// The CPU worker is its own entry (a worker thread loads it by path): build/cpu-worker.js.
await buildWorker();
