import { buildWorker } from "../scripts/build-worker.mjs";

// The CPU worker and the page keeper run from build/cpu-worker.js and build/page-keeper.js even when
// the tests import the app from source (docs/decisions/018, 032): rebuilt here (esbuild, well under
// a second), so the renderer, the diff and the page writes a test exercises are the source's, not
// those of an older build.
export default async function setup() {
  await buildWorker();
}
