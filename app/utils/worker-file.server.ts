import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The worker threads scripts/build-worker.mjs bundles into build/ (docs/decisions/018, 032). */
export type BuiltWorker = "cpu-worker" | "page-keeper";

/** Where a built worker is: build/<name>.js under the package root (the first folder up with a package.json). */
export function builtWorkerFile(name: BuiltWorker, from = fileURLToPath(import.meta.url)): string {
  // Source (app/utils/), the Remix bundle (build/remix/) and scripts run through tsx all sit below
  // the package root; build/remix has no package.json of its own.
  let dir = dirname(from);
  while (!existsSync(join(dir, "package.json"))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`${name}: no package.json above ${from}`);
    dir = parent;
  }
  return join(dir, "build", `${name}.js`);
}
