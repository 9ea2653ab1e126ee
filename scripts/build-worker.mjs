// Bundles the worker threads into build/: the CPU worker (app/workers/cpu-worker.ts: markdown,
// sanitising, revision diffs; issue 25, docs/decisions/018) into build/cpu-worker.js, and the page
// keeper (app/workers/page-keeper.ts: compresses and stores rendered pages; issue 30, decision 032)
// into build/page-keeper.js. The app's own modules (markdown.ts with its
// media-url and safe-path helpers, revision-diff.ts) are bundled in; packages stay external and
// load from node_modules. `npm run build` runs it through build-server.mjs; Vitest runs it before
// the tests (tests/global-setup.ts), so a test never meets a worker older than the source.
import { renameSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

/** Builds build/cpu-worker.js and build/page-keeper.js (each written whole, then renamed: a running server never reads half a file). */
export async function buildWorker() {
  const result = await build({
    entryPoints: { "cpu-worker": "app/workers/cpu-worker.ts", "page-keeper": "app/workers/page-keeper.ts" },
    outdir: "build",
    bundle: true,
    packages: "external",
    platform: "node",
    format: "esm",
    target: "node20",
    sourcemap: true,
    logLevel: "warning",
    write: false,
  });
  for (const file of result.outputFiles) {
    writeFileSync(`${file.path}.tmp`, file.contents);
    renameSync(`${file.path}.tmp`, file.path);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildWorker();
