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
