// Compiles server.ts for Node 20, which cannot run TypeScript itself (DESIGN §2).
// Local modules (db/, migrations/, app/utils) are bundled in; every package stays external,
// and the Remix build is imported dynamically at run time, so this takes milliseconds.
import { build } from "esbuild";

await build({
  entryPoints: ["server.ts"],
  outfile: "build/server.js",
  bundle: true,
  packages: "external",
  platform: "node",
  format: "esm",
  target: "node20",
  sourcemap: true,
  logLevel: "warning",
  alias: { "~": "./app" },
});
