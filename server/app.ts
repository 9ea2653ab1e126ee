import cluster from "node:cluster";
import { randomBytes } from "node:crypto";
import { createRequestHandler as createRemixRequestHandler, type ServerBuild } from "@remix-run/node";
import compression from "compression";
import express, { type NextFunction, type Request, type Response } from "express";
import helmet from "helmet";
import type { Runtime } from "../app/services/runtime.server";
import { oldAssets } from "./old-assets";
import { createRequestHandler } from "./remix-handler";
import { guardFormData, nosniff, refuseMalformedPath, requestTarget, screensTakeForms, trailingSlashRedirect } from "./request-guards";

/**
 * The Express app for one Remix build, middleware in the order requests meet it (STYLE.md
 * 'Server'). What it needs of the app comes from the build's `runtime` export (docs/decisions/012);
 * this file imports nothing from app/ but that type.
 */
export function createApp(build: ServerBuild, runtime: Runtime, version = build.assets.version): express.Express {
  const config = runtime.config();
  const https = config.publicUrl.startsWith("https://");
  const limits = runtime.rateLimiters();

  const app = express();
  app.disable("x-powered-by");
  // req.ip honours X-Forwarded-For only from a proxy on this machine (nginx, Caddy) unless
  // TRUST_PROXY says otherwise.
  // TRUST_PROXY takes what Express does: `true`/`false`, a hop count, or addresses/subnets/names
  // (`loopback`, `10.0.0.0/8, uniquelocal`).
  app.set("trust proxy", config.trustProxy);

  // Tests of WORKERS=N see which process answered (tests/integration/workers.test.ts); never in production.
  if (config.mode === "test") {
    app.use((_req, res, next) => {
      res.setHeader("X-Worker-Pid", String(process.pid));
      next();
    });
  }

  // Every response, assets, media and /healthz included, is never content-sniffed.
  app.use(nosniff);
  // A path from here on (an absolute-form target is served as its path; `OPTIONS *` is answered).
  app.use(requestTarget(sendError));
  // An imported site's old addresses (`/2019/05/slug/`, `/?p=123`, `/category/x/`) answer 301 to
  // their new page in one step (issue 27); only a path about to be redirected anyway, or `/` with a
  // WordPress query, is looked up: kept pages never wait for it.
  // The shape check is synchronous: a path that cannot be an old one (most of them) goes on at once,
  // without a promise or a database read.
  app.use((req, res, next) => {
    if ((req.method !== "GET" && req.method !== "HEAD") || !runtime.mayBeOldPath(req.path, req.url)) return next();
    runtime
      .oldPathRedirect(req.path, req.url)
      .then((to) => (to ? res.redirect(301, to) : next()))
      .catch(next);
  });
  // One URL per page (never a Location off the site), and 400 for a path no browser sends.
  app.use(trailingSlashRedirect);
  app.use(refuseMalformedPath(sendError));
  app.use(screensTakeForms(sendError));
  // The files of the sitemap index have names of their own at the root (/sitemap-articles-2.xml), which
  // no Remix route can match: every later step (maintenance, the page store, Remix) reads req.url as
  // the sitemap route's own address for the file (runtime.sitemapFileUrl, app/services/feeds.server.ts).
  app.use((req, _res, next) => {
    const file = req.method === "GET" || req.method === "HEAD" ? runtime.sitemapFileUrl(req.path) : undefined;
    if (file) req.url = file;
    next();
  });

  app.use(compression());

  // Health for a process manager, proxy or monitor (what is checked: runtime.healthCheck).
  app.get("/healthz", (_req, res) => {
    res.set("Cache-Control", "no-store");
    runtime.healthCheck().then(
      () => res.json({ status: "ok" }),
      (error: unknown) => {
        console.error(`healthz: ${(error as Error)?.message ?? error}`);
        res.status(503).json({ status: "unavailable", detail: "База даних недоступна" });
      },
    );
  });

  // Fingerprinted Remix assets never change under a name: cache them for a year.
  app.use("/build", express.static("public/build", { immutable: true, maxAge: "1y" }));
  // The previous build's files, for an hour after a deploy: the page store serves its pages until
  // each is rendered again (issue 30, ./old-assets.ts). Not in dev (every rebuild is a "deploy").
  const previous = config.dev ? undefined : oldAssets({ dataDir: runtime.dataDir(), version: build.assets.version });
  if (previous) app.use("/build", previous.handler);
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
    express.static(config.uploads, { immutable: true, maxAge: "1y", index: false, dotfiles: "deny", redirect: false }),
  );

  // Request log: one JSON line per request, without query strings, cookies or tokens; with
  // WORKERS=N, the worker's pid too.
  if (config.logRequests) {
    const worker = cluster.isWorker ? { pid: process.pid } : {};
    app.use((req, res, next) => {
      const start = process.hrtime.bigint();
      res.on("finish", () => {
        const ms = Number(process.hrtime.bigint() - start) / 1e6;
        console.log(
          JSON.stringify({ t: new Date().toISOString(), ...worker, method: req.method, path: req.path, status: res.statusCode, ms: Math.round(ms * 10) / 10 }),
        );
      });
      next();
    });
  }

  // Every request gets its own CSP nonce; the Remix app puts it on its scripts. 16 random bytes
  // each, cut from a 4 KB pool filled at once (one randomBytes call per request cost ~20 µs).
  let pool = Buffer.alloc(0);
  let used = 0;
  app.use((_req, res, next) => {
    if (used + 16 > pool.length) {
      pool = randomBytes(4096);
      used = 0;
    }
    res.locals.cspNonce = pool.toString("base64", used, (used += 16));
    next();
  });
  // The policy's directives, named once: signed-in and uncached responses get this request's nonce
  // in script-src; a stored public page gets the hashes of its own inline scripts instead
  // (docs/decisions/016), so a stored page is sent as stored.
  const directives = (scripts: string[]) => ({
    "default-src": ["'self'"],
    "script-src": ["'self'", ...scripts],
    "script-src-attr": ["'none'"],
    // React and charts set style attributes; scripts stay nonce- or hash-only.
    "style-src": ["'self'", "'unsafe-inline'"],
    "img-src": ["'self'", "data:", "blob:", "https:"],
    "font-src": ["'self'"],
    "connect-src": config.dev ? ["'self'", "ws:"] : ["'self'"],
    "object-src": ["'none'"],
    "base-uri": ["'self'"],
    "form-action": ["'self'"],
    "frame-ancestors": ["'none'"],
    ...(https ? { "upgrade-insecure-requests": [] } : {}),
  });
  const storedPageCsp = (scripts: string[]) =>
    Object.entries(directives(scripts))
      .map(([name, values]) => [name, ...values].join(" "))
      .join(";");
  app.use(
    helmet({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: { ...directives([]), "script-src": ["'self'", (_req, res) => `'nonce-${(res as Response).locals.cspNonce}'`] },
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

  // Body cap before the Remix handler: a declared Content-Length over the limit is refused here;
  // every body, chunked or not, is also counted while it streams into Remix (./remix-handler.ts).
  const { MAX_BODY_BYTES, MAX_UPLOAD_BODY_BYTES, UPLOAD_PATHS, IMPORT_BODY_BYTES } = runtime.bodyLimits;
  const bodyLimit = (req: Request) => {
    const upload = req.method === "POST" && req.is("multipart/form-data") ? req.path.replace(/\/$/, "") : "";
    // The import's export file and zip of old uploads, each streamed to disk with its own limit (app/import/jobs.server.ts).
    if (upload === "/admin/import") return { bytes: IMPORT_BODY_BYTES, message: `Запит завеликий (більше ${Math.round(IMPORT_BODY_BYTES / 1024 / 1024)} МБ)` };
    // Image uploads stream each file to disk with its own 5 MB limit (app/services/upload.server.ts).
    return upload && UPLOAD_PATHS.includes(upload)
      ? { bytes: MAX_UPLOAD_BODY_BYTES, message: "Запит завеликий (більше 12 файлів по 5 МБ)" }
      : { bytes: MAX_BODY_BYTES, message: "Запит завеликий (більше 8 МБ)" };
  };
  app.use((req, res, next) => {
    const limit = bodyLimit(req);
    if (Number(req.headers["content-length"] ?? 0) > limit.bytes) return sendError(req, res, 413, limit.message);
    next();
  });

  // Cross-site state changes are refused (DESIGN §6).
  const publicOrigin = new URL(config.publicUrl).origin;
  app.use((req, res, next) => {
    if (["GET", "HEAD", "OPTIONS"].includes(req.method)) return next();
    // RFC 8058 one-click unsubscribe: the mail provider POSTs from its own servers; the token is the authority.
    if (req.method === "POST" && runtime.isOneClickUnsubscribe(req.path)) return next();
    const ours = [publicOrigin, `${req.protocol}://${req.get("host")}`];
    const ok = runtime.isSameOrigin({ origin: req.get("origin"), referer: req.get("referer"), cookie: req.get("cookie") }, ours);
    if (!ok) return sendError(req, res, 403, "Заборонено: запит з іншого сайту");
    next();
  });

  // Maintenance mode: readers get a 503 page before anything else (incl. any page cache).
  app.use((req, res, next) => {
    runtime
      .maintenanceResponse({ path: req.path, method: req.method, cookie: req.headers.cookie, authorization: req.headers.authorization })
      .then((answer) => {
        if (!answer) return next();
        res.status(503).set({ "Retry-After": "600", "Cache-Control": "no-store" }).type(answer.type).send(answer.body);
      })
      .catch(next);
  });

  // Page views are counted before the cache, so a cache hit counts too (DESIGN §9); the counts
  // are written in batches, one transaction per second.
  app.use(runtime.countViews());
  // Anonymous public pages, feeds and public JSON from the page store (DATA_DIR/pages.db), rendered
  // through the same build as an anonymous reader gets them; staff bypass it.
  const mapped = withBusyMapping(build, runtime);
  const site = new URL(config.publicUrl);
  const remix = createRemixRequestHandler(mapped, config.mode);
  app.use(
    runtime.publicPageCache({
      build: version,
      // The store names a build `<assets version>.<server hash>` (server/start.ts).
      keepPrevious: (stored) => Boolean(previous?.serves(stored.split(".")[0])),
      csp: storedPageCsp,
      render: (path, shownArticles) =>
        remix(
          new globalThis.Request(`${site.origin}${path}`, {
            // A crawler's agent: the whole document at once (app/entry.server.tsx), no nonce.
            headers: { host: site.host, accept: "text/html,*/*", "user-agent": "Mozilla/5.0 (compatible; NewsPageStore/1.0; +bot)" },
            signal: AbortSignal.timeout(10_000),
          }),
          { cspNonce: "", documentHtml: documentHtmlFor(path), shownArticles },
        ),
    }),
  );

  // One Remix handler (it derives its route tables once); a dev rebuild gets a new app.
  app.all(
    "*",
    createRequestHandler({
      build: mapped,
      mode: config.mode,
      getLoadContext: (req, res) => ({ cspNonce: res.locals.cspNonce as string, documentHtml: documentHtmlFor(req.path) }),
      publicUrl: config.publicUrl,
      bodyLimit,
      // SECURITY.md 'Headers': screens, their .data and the API for a signed-in person (a session
      // cookie or a bearer token) are never kept by a browser or proxy cache.
      isPrivate: (req) => req.path.startsWith("/admin") || Boolean(req.get("authorization")) || /(^|;\s*)__session=/.test(req.get("cookie") ?? ""),
      refuse: sendError,
    }),
  );

  // A failure in middleware never prints a stack to a client.
  app.use((error: unknown, req: Request, res: Response, _next: NextFunction) => {
    if (res.headersSent) return;
    if (runtime.isDatabaseBusy(error)) {
      res.set({ "Retry-After": runtime.DATABASE_BUSY_RETRY_AFTER, "Cache-Control": "no-store" });
      return sendError(req, res, 503, runtime.DATABASE_BUSY_MESSAGE);
    }
    console.error(error);
    sendError(req, res, 500, "Помилка сервера");
  });

  return app;
}

function sendError(req: Request, res: Response, status: number, detail: string) {
  if (req.path.startsWith("/api/")) return res.status(status).json({ detail });
  res.status(status).type("text/plain; charset=utf-8").send(detail);
}

/**
 * Every loader and action of the build, with SQLITE_BUSY (another process held the write lock
 * past the busy timeout) turned into a thrown 503 Response: screens and forms show it in their
 * error boundary, /api answers `{detail}` (apiRoute maps it first). docs/decisions/007. Their
 * request's formData() answers a malformed form body with a 400 (guardFormData, issue 13).
 */
function withBusyMapping(build: ServerBuild, runtime: Runtime): ServerBuild {
  type Fn = (args: { request: globalThis.Request }) => unknown;
  const wrap = (fn: Fn | undefined) =>
    fn &&
    (async (args: { request: globalThis.Request }) => {
      guardFormData(args.request);
      try {
        return await fn(args);
      } catch (error) {
        if (runtime.isDatabaseBusy(error)) throw runtime.databaseBusyResponse(args.request);
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

/**
 * A document request's load context keeps the HTML its markup carries once
 * (app/utils/document-html.ts); a `.data` request (Remix single fetch) gets none, so its loader
 * data carries the HTML itself.
 */
function documentHtmlFor(path: string): Map<string, string> | undefined {
  return path.split("?", 1)[0].endsWith(".data") ? undefined : new Map();
}
