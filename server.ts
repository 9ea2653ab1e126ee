// The entry of the production and dev server (compiled by scripts/build-server.mjs). Its parts sit
// in server/: app.ts (the Express middleware in the order requests meet it) and start.ts (database,
// listening, dev rebuilds, shutdown, start-up failures). What they need of the app comes from the
// Remix build's `runtime` export: one module graph, docs/decisions/012.
import { start } from "./server/start";

void start();
