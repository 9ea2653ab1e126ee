import { randomBytes } from "node:crypto";
import { accessSync, constants, existsSync, mkdirSync, statfsSync, statSync, watch } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { createRequestHandler } from "@remix-run/express";
import { broadcastDevReady, type ServerBuild } from "@remix-run/node";
import compression from "compression";
import express, { type NextFunction, type Request, type Response } from "express";
import helmet from "helmet";
import { closeDatabase, dataDir, db, getHandle } from "./db/index";
import { migrateToLatest } from "./db/migrate";
import { seedDatabase } from "./db/seed";
import { getEnv } from "./app/utils/env.server";
import { databaseBusyResponse, DATABASE_BUSY_MESSAGE, DATABASE_BUSY_RETRY_AFTER, isDatabaseBusy, isSameOrigin, MAX_BODY_BYTES } from "./app/utils/http.server";
import { maintenanceResponse } from "./app/services/maintenance.server";
import { stopSanitizer } from "./app/utils/markdown.server";
import { countViews, publicPageCache } from "./app/services/public-middleware.server";
import { rateLimiters } from "./app/utils/rate-limit.server";
import { MAX_UPLOAD_BODY_BYTES, UPLOAD_PATHS } from "./app/utils/upload-limits";
import { flushViews } from "./app/services/view-counter.server";

declare module "@remix-run/node" {
  interface AppLoadContext {
    cspNonce: string;
  }
}

const BUILD_PATH = resolve("build/remix/index.js");

async function main() {
  const env = getEnv();
  const limits = rateLimiters();
  const dev = env.NODE_ENV === "development";
  const https = env.PUBLIC_URL.startsWith("https://");

  // The database comes first: a folder we cannot write to stops here with a plain message.
  const uploads = join(dataDir(), "uploads");
  mkdirSync(uploads, { recursive: true });
  await migrateToLatest(db);
  await seedDatabase({
    demo: env.SEED_DEMO === "1",
    admin: env.ADMIN_USERNAME && env.ADMIN_PASSWORD ? { username: env.ADMIN_USERNAME, password: env.ADMIN_PASSWORD } : undefined,
  });

  // Planner statistics (docs/decisions/004): without sqlite_stat1, SQLite takes `status = ?` for
  // a selective index and walks every published article to find a handful by id (40 ms a home page
  // at 10,000 articles, ten times that at 100,000). A bounded ANALYZE costs milliseconds at start;
  // PRAGMA optimize keeps the figures fresh as the site grows.
  const { sqlite } = getHandle();
  sqlite.exec("PRAGMA analysis_limit = 1000; ANALYZE;");
  setInterval(() => sqlite.exec("PRAGMA optimize"), 6 * 3_600_000).unref();

  let build = withBusyMapping((await import(pathToFileURL(BUILD_PATH).href)) as ServerBuild);

  const app = express();
  app.disable("x-powered-by");
  // req.ip honours X-Forwarded-For only from a proxy on this machine (nginx, Caddy) unless
  // TRUST_PROXY says otherwise.
  // TRUST_PROXY takes what Express does: `true`/`false`, a hop count, or addresses/subnets/names
  // (`loopback`, `10.0.0.0/8, uniquelocal`).
  app.set("trust proxy", trustProxy(process.env.TRUST_PROXY));

  // Trailing slashes: one URL per page. Not for /api, whose paths take an optional slash.
  app.use((req, res, next) => {
    if ((req.method === "GET" || req.method === "HEAD") && req.path.length > 1 && req.path.endsWith("/") && !req.path.startsWith("/api/")) {
      const query = req.url.slice(req.path.length);
      return res.redirect(301, req.path.replace(/\/+$/, "") + query);
    }
    next();
  });

  app.use(compression());

  // Health for a process manager, proxy or monitor: the database file is readable now (page 1 is
  // read, not just `select 1` on the connection) and the data folder and database are writable.
  // A short busy timeout for this probe only: an outside process holding an exclusive lock gives a
  // 503 within a second instead of stalling the event loop for the full five.
  app.get("/healthz", (_req, res) => {
    res.set("Cache-Control", "no-store");
    try {
      const { sqlite } = getHandle();
      const timeout = sqlite.pragma("busy_timeout", { simple: true }) as number;
      sqlite.pragma("busy_timeout = 1000");
      try {
        sqlite.prepare("select count(*) from sqlite_master").get();
      } finally {
        sqlite.pragma(`busy_timeout = ${timeout}`);
      }
      accessSync(dataDir(), constants.W_OK);
      accessSync(join(dataDir(), "news.db"), constants.W_OK);
      res.json({ status: "ok" });
    } catch (error) {
      console.error(`healthz: ${(error as Error)?.message ?? error}`);
      res.status(503).json({ status: "unavailable", detail: "База даних недоступна" });
    }
  });

  // Fingerprinted Remix assets never change under a name: cache them for a year.
  app.use("/build", express.static("public/build", { immutable: true, maxAge: "1y" }));
  // Files under public/ all have an extension; page paths (/, /article/x, /category/x) do not,
  // and asking the disk for them cost a stat and a thrown ENOENT on every page (docs/decisions/009).
  const publicFiles = express.static("public", { maxAge: "1h" });
  app.use((req, res, next) => (/\.[^/]*$/.test(req.path) ? publicFiles(req, res, next) : next()));
  // Uploaded media: random server-made names, so immutable; served as inert files.
  app.use(
    "/media",
    (_req, res, next) => {
      res.setHeader("X-Content-Type-Options", "nosniff");
      res.setHeader("Content-Security-Policy", "default-src 'none'; sandbox");
      next();
    },
    express.static(uploads, { immutable: true, maxAge: "1y", index: false, dotfiles: "deny" }),
  );

  // Request log: one JSON line per request, without query strings, cookies or tokens.
  if (process.env.LOG_REQUESTS !== "0") {
    app.use((req, res, next) => {
      const start = process.hrtime.bigint();
      res.on("finish", () => {
        const ms = Number(process.hrtime.bigint() - start) / 1e6;
        console.log(JSON.stringify({ t: new Date().toISOString(), method: req.method, path: req.path, status: res.statusCode, ms: Math.round(ms * 10) / 10 }));
      });
      next();
    });
  }

  // Every request gets its own CSP nonce; the Remix app puts it on its scripts.
  app.use((_req, res, next) => {
    res.locals.cspNonce = randomBytes(16).toString("base64");
    next();
  });
  app.use(
    helmet({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          "default-src": ["'self'"],
          "script-src": ["'self'", (_req, res) => `'nonce-${(res as Response).locals.cspNonce}'`],
          "script-src-attr": ["'none'"],
          // React and charts set style attributes; scripts stay nonce-only.
          "style-src": ["'self'", "'unsafe-inline'"],
          "img-src": ["'self'", "data:", "blob:", "https:"],
          "font-src": ["'self'"],
          "connect-src": dev ? ["'self'", "ws:"] : ["'self'"],
          "object-src": ["'none'"],
          "base-uri": ["'self'"],
          "form-action": ["'self'"],
          "frame-ancestors": ["'none'"],
          ...(https ? { "upgrade-insecure-requests": [] } : {}),
        },
      },
      crossOriginEmbedderPolicy: false,
      strictTransportSecurity: https ? { maxAge: 31536000, includeSubDomains: true } : false,
      referrerPolicy: { policy: "strict-origin-when-cross-origin" },
      xFrameOptions: { action: "deny" },
    }),
  );

  // Our own client address for the app (lockout, view counting): the socket or trusted proxy,
  // never a header the client made up.
  app.use((req, _res, next) => {
    req.headers["x-client-ip"] = req.ip ?? "unknown";
    next();
  });

  // Rate limits per client address on state-changing requests (app/utils/rate-limit.server.ts);
  // reads are never limited, sign-in has its own lockout.
  app.use(limits.writes, limits.views);

  // Body cap before the Remix handler (actions read bodies themselves); chunked bodies are
  // capped again where they are read (readBodyText).
  app.use((req, res, next) => {
    const length = Number(req.headers["content-length"] ?? 0);
    // Image uploads stream each file to disk with its own 5 MB limit (app/utils/upload.server.ts).
    const upload = req.method === "POST" && UPLOAD_PATHS.includes(req.path.replace(/\/$/, "")) && req.is("multipart/form-data");
    if (length > (upload ? MAX_UPLOAD_BODY_BYTES : MAX_BODY_BYTES)) {
      return sendError(req, res, 413, upload ? "Запит завеликий (більше 12 файлів по 5 МБ)" : "Запит завеликий (більше 8 МБ)");
    }
    next();
  });

  // Cross-site state changes are refused (DESIGN §6).
  const publicOrigin = new URL(env.PUBLIC_URL).origin;
  app.use((req, res, next) => {
    if (["GET", "HEAD", "OPTIONS"].includes(req.method)) return next();
    const ours = [publicOrigin, `${req.protocol}://${req.get("host")}`];
    const ok = isSameOrigin({ origin: req.get("origin"), referer: req.get("referer"), cookie: req.get("cookie") }, ours);
    if (!ok) return sendError(req, res, 403, "Заборонено: запит з іншого сайту");
    next();
  });

  // Maintenance mode: readers get a 503 page before anything else (incl. any page cache).
  app.use((req, res, next) => {
    maintenanceResponse({ path: req.path, method: req.method, cookie: req.headers.cookie })
      .then((page) => {
        if (!page) return next();
        res.status(503).set({ "Retry-After": "600", "Cache-Control": "no-store" }).type("html").send(page);
      })
      .catch(next);
  });

  // Page views are counted before the cache, so a cache hit counts too (DESIGN §9); the counts
  // are written in batches, one transaction per second.
  app.use(countViews());
  // Anonymous public pages, feeds and public JSON from memory; staff bypass it.
  app.use(publicPageCache());

  // One Remix handler (it derives its route tables once), replaced when a dev rebuild lands.
  const remixHandler = (current: ServerBuild) =>
    createRequestHandler({
      build: current,
      mode: env.NODE_ENV,
      getLoadContext: (_req, res) => ({ cspNonce: res.locals.cspNonce as string }),
    });
  let handleRemix = remixHandler(build);
  app.all("*", (req, res, next) => handleRemix(req, res, next));

  app.use(errorHandler);

  const server = app.listen(env.PORT, () => {
    console.log(`Наука UA: ${env.PUBLIC_URL} (data in ${dataDir()})`);
    if (dev) broadcastDevReady(build);
  });

  if (dev) {
    // `remix dev --manual` rebuilds into build/remix; load the new build and tell it we did.
    watch(resolve("build/remix"), async () => {
      build = withBusyMapping((await import(`${pathToFileURL(BUILD_PATH).href}?t=${Date.now()}`)) as ServerBuild);
      handleRemix = remixHandler(build);
      broadcastDevReady(build);
    });
  }

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: finishing requests in flight, then closing the database`);
    const force = setTimeout(() => server.closeAllConnections(), 10_000);
    force.unref();
    server.close(async () => {
      // Views counted but not yet written go to the database before it closes.
      await flushViews().catch((error) => console.error("Page views lost at shutdown:", error));
      try {
        getHandle().sqlite.exec("PRAGMA optimize");
      } catch {
        // Statistics are an optimisation; a failure here must not stop a clean exit.
      }
      await stopSanitizer();
      await closeDatabase();
      process.exit(0);
    });
    server.closeIdleConnections();
  };
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("SIGINT", () => shutdown("SIGINT"));
}

function trustProxy(value: string | undefined): boolean | number | string {
  const v = value?.trim();
  if (!v) return "loopback";
  if (v === "true" || v === "false") return v === "true";
  return /^\d+$/.test(v) ? Number(v) : v;
}

function sendError(req: Request, res: Response, status: number, detail: string) {
  if (req.path.startsWith("/api/")) return res.status(status).json({ detail });
  res.status(status).type("text/plain; charset=utf-8").send(detail);
}

/**
 * Every loader and action of the build, with SQLITE_BUSY (another process held the write lock
 * past the busy timeout) turned into a thrown 503 Response: screens and forms show it in their
 * error boundary, /api answers `{detail}` (apiRoute maps it first). docs/decisions/007.
 */
function withBusyMapping(build: ServerBuild): ServerBuild {
  type Fn = (args: { request: globalThis.Request }) => unknown;
  const wrap = (fn: Fn | undefined) =>
    fn &&
    (async (args: { request: globalThis.Request }) => {
      try {
        return await fn(args);
      } catch (error) {
        if (isDatabaseBusy(error)) throw databaseBusyResponse(args.request);
        throw error;
      }
    });
  const routes: ServerBuild["routes"] = {};
  for (const [id, route] of Object.entries(build.routes)) {
    const module = route.module as { loader?: Fn; action?: Fn };
    const wrapped: Record<string, unknown> = { ...route.module };
    if (module.loader) wrapped.loader = wrap(module.loader);
    if (module.action) wrapped.action = wrap(module.action);
    routes[id] = { ...route, module: wrapped as unknown as typeof route.module };
  }
  return { ...build, routes };
}

// A failure in middleware never prints a stack to a client.
function errorHandler(error: unknown, req: Request, res: Response, _next: NextFunction) {
  if (isDatabaseBusy(error)) {
    res.set({ "Retry-After": DATABASE_BUSY_RETRY_AFTER, "Cache-Control": "no-store" });
    return sendError(req, res, 503, DATABASE_BUSY_MESSAGE);
  }
  console.error(error);
  sendError(req, res, 500, "Помилка сервера");
}

main().catch((error: NodeJS.ErrnoException) => {
  console.error(startupFailure(error, dataDir()));
  process.exit(1);
});

/**
 * One plain paragraph for an operator when the site cannot start (issue 7, faults): what is wrong
 * with the data folder and what to do, never a stack trace. docs/decisions/007.
 */
function startupFailure(error: NodeJS.ErrnoException, where: string): string {
  const code = String(error?.code ?? "");
  const message = error?.message ?? String(error);
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
