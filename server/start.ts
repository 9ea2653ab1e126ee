import cluster from "node:cluster";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, statfsSync, statSync, watch } from "node:fs";
import { createServer, type RequestListener } from "node:http";
import { dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { broadcastDevReady, type ServerBuild } from "@remix-run/node";
import type { Runtime } from "../app/services/runtime.server";
import { createApp } from "./app";
import { superviseWorkers } from "./cluster";

const BUILD_PATH = resolve("build/remix/index.js");

async function loadBuild(fresh = false): Promise<{ build: ServerBuild; runtime: Runtime; version: string }> {
  const build = (await import(pathToFileURL(BUILD_PATH).href + (fresh ? `?t=${Date.now()}` : ""))) as ServerBuild;
  // app/entry.server.tsx exports what the server needs of the app (docs/decisions/012).
  const { runtime } = build.entry.module as unknown as { runtime: Runtime };
  // What the stored pages were rendered by: the browser assets' version and the server code (a
  // change to a loader or a formatter changes pages without changing any browser file).
  const server = createHash("sha1").update(readFileSync(BUILD_PATH)).digest("base64url").slice(0, 12);
  return { build, runtime, version: `${build.assets.version}.${server}` };
}

/**
 * Starts the site: database, Express app, listening, dev rebuilds, graceful shutdown. With WORKERS=N
 * (N > 1) this process is the cluster's primary (./cluster.ts): it forks N workers that each come
 * through here again, as a single process would, and serve the same port (docs/decisions/020).
 */
export async function start(): Promise<void> {
  const workers = cluster.isPrimary ? clusterSize() : undefined;
  if (workers) return superviseWorkers({ workers });
  let where: string | undefined;
  try {
    let { build, runtime, version } = await loadBuild();
    where = runtime.dataDir();
    // Processes sharing the data folder start one at a time (runtime.holdStartLock): the secret,
    // migrations, the demo seed and pages.db's layout are made once, by the first.
    const release = runtime.holdStartLock();
    let app: RequestListener;
    let config: ReturnType<Runtime["config"]>;
    try {
      config = runtime.config();
      if (config.dev && cluster.isWorker) throw new Error("WORKERS is for `npm start`; `npm run dev` runs one process. Unset WORKERS and start again.");
      await runtime.startDatabase();
      runtime.startJobs();
      app = createApp(build, runtime, version);
    } finally {
      release();
    }

    const server = createServer((req, res) => app(req, res));
    await new Promise<void>((resolveListen, reject) => {
      server.once("error", reject);
      server.listen(config.port, () => {
        server.off("error", reject);
        resolveListen();
      });
    });
    if (cluster.isPrimary) console.log(`Наука UA: ${config.publicUrl} (data in ${where})`);
    else process.send?.({ ready: `Наука UA: ${config.publicUrl} (data in ${where}, ${config.workers} worker processes)` });

    if (config.dev) {
      broadcastDevReady(build);
      // `remix dev --manual` rebuilds into build/remix: the old build releases its database and
      // worker, the new one serves from then on, and we tell remix dev we did.
      let reloading = Promise.resolve();
      watch(resolve("build/remix"), () => {
        reloading = reloading
          .then(async () => {
            const next = await loadBuild(true);
            await runtime.stop();
            ({ build, runtime, version } = next);
            runtime.startJobs();
            app = createApp(build, runtime, version);
            broadcastDevReady(build);
          })
          .catch((error) => console.error("Dev rebuild not loaded:", error));
      });
    }

    let stopping = false;
    const shutdown = (signal: string) => {
      if (stopping) return;
      stopping = true;
      console.log(`${signal}: ${cluster.isWorker ? `worker ${process.pid} ` : ""}finishing requests in flight, then closing the database`);
      const force = setTimeout(() => server.closeAllConnections(), 10_000);
      force.unref();
      server.close(async () => {
        await runtime.stop();
        process.exit(0);
      });
      server.closeIdleConnections();
    };
    process.on("SIGTERM", () => shutdown("SIGTERM"));
    process.on("SIGINT", () => shutdown("SIGINT"));
  } catch (error) {
    console.error(startupFailure(error as NodeJS.ErrnoException, where));
    process.exit(1);
  }
}

/**
 * How many workers the primary forks: the primary decides before it loads the app (which would cost
 * it ~90 MB it never uses), from WORKERS as given. app/utils/env.server.ts stays the authority: a
 * value it would refuse, or 1, takes the single-process path, whose env check then names it.
 */
function clusterSize(): number | undefined {
  const raw = process.env.WORKERS?.trim();
  const n = raw && /^\d+$/.test(raw) ? Number(raw) : NaN;
  return n > 1 && n <= 64 ? n : undefined;
}

/**
 * One plain paragraph for an operator when the site cannot start (issue 7, faults): what is wrong
 * with the environment or the data folder and what to do, never a stack trace. docs/decisions/007.
 */
function startupFailure(error: NodeJS.ErrnoException, where: string | undefined): string {
  const code = String(error?.code ?? "");
  const message = error?.message ?? String(error);
  // A bad variable (app/utils/env.server.ts) names itself.
  if (error?.name === "EnvError") return message;
  if (where === undefined) return `The site could not start: ${message}`;
  const isFile = (() => {
    try {
      return !statSync(where).isDirectory();
    } catch {
      return false;
    }
  })();
  if (isFile || code === "ENOTDIR" || (code === "EEXIST" && /mkdir/.test(message))) {
    return `Cannot write to the data folder ${where}: it is not a folder (a file is in the way: ${message}). Set DATA_DIR to a folder the site can write to.`;
  }
  const freeBytes = (() => {
    try {
      const stats = statfsSync(existsSync(where) ? where : dirname(where));
      return stats.bavail * stats.bsize;
    } catch {
      return undefined;
    }
  })();
  // A full disk shows as ENOSPC, SQLITE_FULL, or (when SQLite cannot grow its WAL index) an I/O error.
  if (code === "ENOSPC" || code === "SQLITE_FULL" || (code.startsWith("SQLITE_IOERR") && freeBytes !== undefined && freeBytes < 1024 * 1024)) {
    return `The disk holding the data folder ${where} is full (${freeBytes ?? 0} bytes free; ${message}). Free some space and start again.`;
  }
  if (["EACCES", "EPERM", "EROFS"].includes(code) || code.startsWith("SQLITE_READONLY") || code.startsWith("SQLITE_CANTOPEN")) {
    return `Cannot write to the data folder ${where} (${message}): it is read-only or not ours. Set DATA_DIR to a writable folder, or mount it read-write.`;
  }
  if (code === "SQLITE_NOTADB" || code.startsWith("SQLITE_CORRUPT")) {
    return `The database ${join(where, "news.db")} is not a readable SQLite database (${message}). Restore it from a backup (README, 'Backups') or move it away to start an empty site.`;
  }
  if (code.startsWith("SQLITE_IOERR")) {
    return `The site could not read or write its data folder ${where} (disk I/O error: ${code}). Check the disk and start again.`;
  }
  return `The site could not start: ${message}`;
}
