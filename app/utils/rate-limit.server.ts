import type { Request, RequestHandler, Response } from "express";
import { rateLimit } from "express-rate-limit";
import { getEnv, type Env } from "./env.server";

// Rate limits on write paths (SECURITY.md 'Sign-in', issue 7 item 5). Per client address: req.ip,
// which honours X-Forwarded-For only from the proxies TRUST_PROXY names (server.ts), so a client
// talking to the app directly cannot pick a new address per request. Sign-in is left to its own
// lockout (app/models/login-attempt.server.ts: per username, and 100 failures an hour per address),
// which answers 429 with Retry-After itself. Counters live in memory, per process: with WORKERS=N
// the effective limit is up to N times higher (docs/scaling.md §3, docs/decisions/020).

type RateLimitConfig = Pick<Env, "RATE_LIMIT" | "RATE_LIMIT_WINDOW" | "RATE_LIMIT_WRITES" | "RATE_LIMIT_VIEWS">;

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
// Sign-in has its own lockout; page views have their own, tighter limit.
const SIGN_IN = /^\/(admin\/login|api\/auth\/login)(\.data)?\/?$/;
const TRACK_VIEW = /^\/api\/analytics\/track-view\/?$/;

const seconds = (s: number) => (s >= 60 ? `${Math.ceil(s / 60)} хв.` : `${s} с.`);

function escapeHtml(text: string) {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** 429: `{detail}` for the JSON API, a small Ukrainian page for forms; Retry-After is set already. */
function tooMany(req: Request, res: Response) {
  const retry = Number(res.getHeader("Retry-After")) || 60;
  const detail = `Забагато запитів. Спробуйте знову через ${seconds(retry)}`;
  res.status(429).set("Cache-Control", "no-store");
  if (req.path.startsWith("/api/")) return void res.json({ detail });
  res
    .type("html")
    .send(
      `<!doctype html><html lang="uk"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
        `<title>Забагато запитів</title></head><body style="font-family:system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem">` +
        `<h1>Забагато запитів</h1><p>${escapeHtml(detail)}</p>` +
        `<p>Ваші зміни з останньої спроби не збережено. Поверніться назад і надішліть форму ще раз трохи пізніше.</p>` +
        `<p><a href="/admin">До панелі керування</a></p></body></html>`,
    );
}

const noop: RequestHandler = (_req, _res, next) => next();

/**
 * Two limiters for server.ts, both per address and window (RATE_LIMIT_WINDOW seconds):
 * every state-changing request except sign-in and track-view (RATE_LIMIT_WRITES, generous: a
 * newsroom behind one NAT shares an address) and POST /api/analytics/track-view
 * (RATE_LIMIT_VIEWS). Reads are never limited. RATE_LIMIT=0 turns both off.
 */
export function rateLimiters(config: RateLimitConfig = getEnv()): { writes: RequestHandler; views: RequestHandler } {
  if (config.RATE_LIMIT === "0") return { writes: noop, views: noop };
  const common = {
    windowMs: config.RATE_LIMIT_WINDOW * 1000,
    standardHeaders: "draft-7" as const,
    legacyHeaders: false,
    handler: tooMany,
  };
  return {
    writes: rateLimit({
      ...common,
      limit: config.RATE_LIMIT_WRITES,
      skip: (req) => SAFE_METHODS.has(req.method) || SIGN_IN.test(req.path) || TRACK_VIEW.test(req.path),
    }),
    views: rateLimit({
      ...common,
      limit: config.RATE_LIMIT_VIEWS,
      skip: (req) => req.method !== "POST" || !TRACK_VIEW.test(req.path),
    }),
  };
}

// One counted track-view per address and article per VIEW_REPEAT_MINUTES: the endpoint needs no
// sign-in, so without this anyone could add thousands of views to an article (within the rate
// limit, from one address). Repeats are answered 202 with `counted: false`. Bounded memory. Per
// process: with WORKERS=N a reader may be counted up to N times a window (docs/scaling.md §3).
// 100,000 keys of ~100 bytes: about 10 MB at most, inside the memory budget of DESIGN §9.
const MAX_SEEN = 100_000;
const seen = new Map<string, number>();
let repeatMinutes: number | undefined;

/** Whether this address has not had a counted view of this article within the window (and records it). */
export function firstViewInWindow({ ip, articleId }: { ip: string; articleId: string }, now = Date.now()): boolean {
  repeatMinutes ??= getEnv().VIEW_REPEAT_MINUTES;
  const windowMs = repeatMinutes * 60_000;
  if (windowMs <= 0) return true;
  const key = `${ip}\u0000${articleId}`;
  const until = seen.get(key);
  if (until !== undefined && until > now) return false;
  if (until !== undefined) seen.delete(key);
  if (seen.size >= MAX_SEEN) {
    // Insertion order is expiry order (one window for all): drop the expired, else the oldest.
    for (const [k, t] of seen) {
      if (t > now && seen.size < MAX_SEEN) break;
      seen.delete(k);
    }
  }
  seen.set(key, now + windowMs);
  return true;
}
