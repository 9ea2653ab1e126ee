import { buildWorker } from "../scripts/build-worker.mjs";

// The CPU worker runs from build/cpu-worker.js even when the tests import the app from source
// (docs/decisions/018): rebuilt here (esbuild, well under a second), so the renderer and the diff a
// test exercises are the source's, not those of an older build.
export default async function setup() {
  await buildWorker();
}
