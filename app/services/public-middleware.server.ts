import { createHash } from "node:crypto";
import type { Request, RequestHandler, Response } from "express";
import { CACHE_CONTROL, cacheTagsFor, getCachedResponse, pageCacheEnabled, setCachedResponse, type CachedResponse } from "../utils/page-cache.server";
import { countArticleView, countedPage, countPageView, isReaderRequest } from "./view-counter.server";

// The Express middleware of DESIGN §9 for public responses: view counting (before the cache, so a
// cache hit counts too) and the in-process page cache with Cache-Control and ETag.
// docs/decisions/004-page-cache-and-view-counting.md says why each choice is what it is.

type Kind = "page" | "feed" | "json";

const NEVER_PUBLIC = /^\/(admin|api|build|media|healthz)(\/|$)/;
// The public JSON and XML under /api (SPEC §7, DESIGN §8): the same for every reader.
const PUBLIC_API = /^\/api\/(homepage\/public|articles\/slug\/[^/]+|seo\/sitemap\.xml)\/?$/;

// Public pages that are private to whoever holds the link: never stored, replayed or shared,
// whoever asks (issue 15: preview links send `Cache-Control: private, no-store` and
// `X-Robots-Tag: noindex` themselves). Any page store must keep this exclusion.
export const PRIVATE_PUBLIC_PATHS = /^\/preview(\/|\.data$|$)/;

/** What kind of public response a path gives, or undefined when it is never cached. */
export function publicKind(pathname: string): Kind | undefined {
  if (PUBLIC_API.test(pathname)) return pathname.endsWith(".xml") ? "feed" : "json";
  if (NEVER_PUBLIC.test(pathname) || PRIVATE_PUBLIC_PATHS.test(pathname)) return undefined;
  if (/\.(xml|txt)$/.test(pathname)) return "feed";
  // Single-fetch data of a public page (client-side navigation): the same content as JSON.
  if (pathname.endsWith(".data")) return "json";
  return "page";
}

/** Staff carry a session cookie or a bearer token; everyone else sees the same public site. */
export function isAnonymous(req: Request): boolean {
  return !req.headers.authorization && !(req.headers.cookie ?? "").includes("__session=");
}

/**
 * Counts a view of each public page served with 200 (or 304: the browser showed its copy) to a
 * reader: GET only (not HEAD), not bots or scripts, not prefetches, not signed-in staff.
 */
export function countViews(): RequestHandler {
  return (req, res, next) => {
    if (req.method !== "GET") return next();
    const page = countedPage(req.path);
    if (!page || !isAnonymous(req) || !isReaderRequest({ get: (name) => req.get(name) })) return next();
    res.once("finish", () => {
      if (res.statusCode !== 200 && res.statusCode !== 304) return;
      // One view per reader (address) and article per VIEW_REPEAT_MINUTES (view-counter.server.ts).
      if (page.articleRef !== undefined) countArticleView({ ref: page.articleRef, reader: req.ip ?? "unknown" });
      else countPageView({ path: page.path });
    });
    next();
  };
}

// Headers that belong to one response, not to the cached representation.
const PER_RESPONSE = new Set(["content-length", "etag", "x-cache", "date", "connection", "transfer-encoding", "set-cookie"]);

function etagOf(parts: Buffer[]): string {
  const hash = createHash("sha1");
  parts.forEach((part, i) => {
    if (i) hash.update("\u0000nonce\u0000");
    hash.update(part);
  });
  // Weak: replayed bodies differ in their CSP nonce, otherwise they are the same page.
  return `W/"${hash.digest("base64url")}"`;
}

function splitOnNonce(body: Buffer, nonce: string | undefined, html: boolean): Buffer[] {
  if (!html || !nonce) return [body];
  const parts: Buffer[] = [];
  let from = 0;
  for (let at = body.indexOf(nonce, from, "latin1"); at !== -1; at = body.indexOf(nonce, from, "latin1")) {
    parts.push(body.subarray(from, at));
    from = at + nonce.length;
  }
  parts.push(body.subarray(from));
  return parts;
}

function notModified(req: Request, etag: string): boolean {
  const header = req.headers["if-none-match"];
  if (!header) return false;
  const bare = etag.replace(/^W\//, "");
  return header.split(",").some((tag) => {
    const t = tag.trim();
    return t === "*" || t.replace(/^W\//, "") === bare;
  });
}

type End = (this: Response, chunk?: Buffer) => Response;

/** Sends a cached (or just captured) representation through `end`, honouring If-None-Match. */
function replay(req: Request, res: Response, entry: CachedResponse, state: "HIT" | "MISS", end: End) {
  res.status(entry.status);
  for (const [name, value] of entry.headers) res.setHeader(name, value);
  res.setHeader("ETag", entry.etag);
  res.setHeader("X-Cache", state);
  if (notModified(req, entry.etag)) {
    // No CSP on a 304: browsers merge a 304's headers into their stored copy, and a fresh nonce
    // there would no longer match the scripts of the stored body.
    for (const name of ["Content-Security-Policy", "Content-Type", "Content-Length"]) res.removeHeader(name);
    res.status(304);
    return end.call(res);
  }
  const nonce = String(res.locals.cspNonce ?? "");
  let body = entry.parts[0];
  if (entry.parts.length > 1) {
    const nonceBytes = Buffer.from(nonce);
    const pieces: Buffer[] = [];
    entry.parts.forEach((part, i) => {
      if (i) pieces.push(nonceBytes);
      pieces.push(part);
    });
    body = Buffer.concat(pieces);
  }
  res.setHeader("Content-Length", body.length);
  return end.call(res, req.method === "HEAD" ? undefined : body);
}

const toBuffer = (chunk: unknown, encoding?: unknown): Buffer =>
  Buffer.isBuffer(chunk)
    ? chunk
    : chunk instanceof Uint8Array
      ? Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)
      : Buffer.from(String(chunk), typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8");

/**
 * The in-process cache of anonymous public responses (DESIGN §9). Anonymous GET/HEAD of public
 * pages, feeds and public JSON are served from memory when stored; otherwise the response is
 * captured (before compression, which runs again on every replay), stored when it is a 200 without
 * cookies, and sent with its Cache-Control policy, a weak ETag and X-Cache. Staff bypass it and
 * get `private, no-store`. PAGE_CACHE=0 keeps the headers but stores nothing (the bench's cold runs).
 */
export function publicPageCache(): RequestHandler {
  return (req, res, next) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    const kind = publicKind(req.path);
    if (!kind) return next();

    if (!isAnonymous(req)) {
      const writeHead = res.writeHead;
      res.writeHead = function (this: Response, ...args: unknown[]) {
        res.setHeader("Cache-Control", CACHE_CONTROL.private);
        res.setHeader("X-Cache", "BYPASS");
        return (writeHead as (...a: unknown[]) => Response).apply(this, args);
      } as Response["writeHead"];
      return next();
    }

    const key = req.originalUrl;
    const enabled = pageCacheEnabled();
    const hit = enabled ? getCachedResponse(key) : undefined;
    if (hit) return void replay(req, res, hit, "HIT", res.end as End);
    // Remix sends no body for HEAD, so there is nothing to store: let it answer.
    if (req.method === "HEAD") return next();

    const before = new Set(res.getHeaderNames());
    const chunks: Buffer[] = [];
    const { write } = res;
    const end = res.end as End;
    const flush = (res as unknown as { flush?: () => void }).flush;
    const restore = () => {
      res.write = write;
      res.end = end as Response["end"];
      (res as unknown as { flush?: () => void }).flush = flush;
    };

    res.write = function (chunk: unknown, encoding?: unknown, callback?: unknown) {
      if (chunk != null) chunks.push(toBuffer(chunk, encoding));
      const cb = typeof encoding === "function" ? encoding : callback;
      if (typeof cb === "function") process.nextTick(cb as () => void);
      return true;
    } as Response["write"];
    // compression's flush() would push each streamed chunk out; we send the whole body at once.
    (res as unknown as { flush?: () => void }).flush = () => undefined;

    res.end = function (this: Response, chunk?: unknown, encoding?: unknown, _callback?: unknown) {
      if (chunk != null && typeof chunk !== "function") chunks.push(toBuffer(chunk, encoding));
      restore();
      const body = Buffer.concat(chunks);
      const routeCacheControl = String(res.getHeader("cache-control") ?? "");
      const storable = res.statusCode === 200 && !res.getHeader("set-cookie") && !/\bprivate\b/.test(routeCacheControl) && !res.headersSent;
      if (!storable) return end.call(res, body);
      const headers: [string, string][] = [];
      for (const name of res.getHeaderNames()) {
        if (before.has(name) || PER_RESPONSE.has(name)) continue;
        const value = res.getHeader(name);
        headers.push([name, Array.isArray(value) ? value.join(", ") : String(value)]);
      }
      // The server names the policy of every public response (a route's no-store default of the
      // JSON helpers included); a route that must not be shared says `private`.
      const policy = headers.find(([name]) => name === "cache-control");
      if (policy) policy[1] = CACHE_CONTROL[kind];
      else headers.push(["cache-control", CACHE_CONTROL[kind]]);
      const html = /text\/html/i.test(String(res.getHeader("content-type") ?? ""));
      const parts = splitOnNonce(body, res.locals.cspNonce as string | undefined, html);
      const entry: CachedResponse = { status: 200, headers, parts, size: body.length, etag: etagOf(parts), storedAt: Date.now(), tags: cacheTagsFor(req.path) };
      if (enabled) setCachedResponse(key, entry);
      return replay(req, res, entry, "MISS", end);
    } as Response["end"];

    next();
  };
}
