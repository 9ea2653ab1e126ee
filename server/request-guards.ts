import type { NextFunction, Request, Response } from "express";

// Guards that run before anything else reads the request (SECURITY.md 'API and input' and
// 'Headers'). They import nothing from the app.

type Refuse = (req: Request, res: Response, status: number, detail: string) => void;

/** `X-Content-Type-Options: nosniff` on every response: pages, assets, media and /healthz alike. */
export function nosniff(_req: Request, res: Response, next: NextFunction) {
  res.setHeader("X-Content-Type-Options", "nosniff");
  next();
}

/**
 * The request target as a path. HTTP/1.1 lets a request name its target in absolute form
 * (`GET http://host/path`, RFC 9112 §3.2.2: a server must accept it) and lets `OPTIONS *` ask about
 * the server as a whole (§3.2.4); everything after this guard (Express's `req.path`, the Remix URL
 * built from `originalUrl`) expects a path, and both forms were a 500 (issue 25). An absolute
 * target is served as its path and query (the site answers for PUBLIC_URL whatever authority the
 * target names, as it does for `Host`); `OPTIONS *` answers 204 with what the server allows; any
 * other target that is not a path (`*` with another method, `host:port`, a bare word) is a 400.
 */
export function requestTarget(refuse: Refuse) {
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.url.startsWith("/")) return next();
    if (req.url === "*") {
      if (req.method !== "OPTIONS") return refuse(req, res, 400, "Некоректна адреса сторінки");
      return res.status(204).set({ Allow: "GET, HEAD, POST, PUT, DELETE, OPTIONS", "Cache-Control": "no-store" }).end();
    }
    let target: URL | undefined;
    try {
      target = new URL(req.url);
    } catch {
      target = undefined;
    }
    if (!target || (target.protocol !== "http:" && target.protocol !== "https:")) return refuse(req, res, 400, "Некоректна адреса сторінки");
    // The raw path and query as sent (URL keeps their percent-encoding); the later guards judge them.
    req.url = req.originalUrl = `${target.pathname}${target.search}`;
    next();
  };
}

/**
 * 400 for a path no browser sends: malformed percent-encoding (`%E0%A4%A`, `%ZZ`, overlong
 * `%c0%af`), control characters or a backslash, raw or encoded. Every route would otherwise meet
 * it first in a decoder that throws.
 */
export function refuseMalformedPath(refuse: Refuse) {
  return (req: Request, res: Response, next: NextFunction) => {
    let decoded: string;
    try {
      decoded = decodeURIComponent(req.path);
    } catch {
      return refuse(req, res, 400, "Некоректна адреса сторінки");
    }
    if (/[\u0000-\u001f\u007f\\]/.test(decoded)) return refuse(req, res, 400, "Некоректна адреса сторінки");
    next();
  };
}

/**
 * One URL per page: `/article/x/` answers 301 to `/article/x` (not /api, whose paths take an
 * optional slash). The target always starts with exactly one slash, so `//evil.example/` can never
 * become a Location a browser reads as another site.
 */
export function trailingSlashRedirect(req: Request, res: Response, next: NextFunction) {
  if ((req.method === "GET" || req.method === "HEAD") && req.path.length > 1 && req.path.endsWith("/") && !req.path.startsWith("/api/")) {
    const query = req.url.slice(req.path.length);
    return res.redirect(301, `/${req.path.replace(/^[/\\]+/, "").replace(/\/+$/, "")}${query}`);
  }
  next();
}

const FORM_TYPES = /^(application\/x-www-form-urlencoded|multipart\/form-data)\s*(;|$)/i;

/**
 * Screens (every path outside /api) take forms only. A body of another type (JSON, text) is a
 * 415 before any action tries to read it as a form (which threw: a 500); a request with no body
 * and no type (a bare `POST /admin/logout`) is an empty form.
 */
export function screensTakeForms(refuse: Refuse) {
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.method === "GET" || req.method === "HEAD" || req.method === "OPTIONS" || req.path.startsWith("/api/")) return next();
    const type = req.headers["content-type"];
    const hasBody = req.headers["transfer-encoding"] !== undefined || Number(req.headers["content-length"] ?? 0) > 0;
    if (type === undefined && !hasBody) {
      req.headers["content-type"] = "application/x-www-form-urlencoded";
      return next();
    }
    if (!FORM_TYPES.test(type ?? "")) return refuse(req, res, 415, "Непідтримуваний тип даних: надішліть форму");
    next();
  };
}

/**
 * A body that claims to be a form and is not one (a multipart body without its closing boundary,
 * say) made `request.formData()` throw inside an action: a 500. Every loader and action gets its
 * request with formData() answering such a body with a thrown 400 instead (server/app.ts wraps
 * them), in the envelope of its door.
 */
export function guardFormData(request: globalThis.Request): void {
  const parse = request.formData.bind(request);
  request.formData = async () => {
    try {
      return await parse();
    } catch (error) {
      // The body cap (413) and a client that went away are answered elsewhere.
      if (request.signal.aborted || (error instanceof Error && error.name === "BodyTooLargeError")) throw error;
      const detail = "Некоректна форма";
      throw new URL(request.url).pathname.startsWith("/api/")
        ? Response.json({ detail }, { status: 400 })
        : new Response(detail, { status: 400, headers: { "Content-Type": "text/plain; charset=utf-8" } });
    }
  };
}
