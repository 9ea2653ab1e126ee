import { createHash } from "node:crypto";
import type { Request, Response } from "express";
import type { PageStore, StoredPage } from "./page-store.server";

// What a kept page's response is made of and how it is sent (DESIGN §12): its CSP hashes, its ETag,
// a conditional request's answer, the encoding a client takes. Used by the page store's middleware
// (app/services/public-middleware.server.ts).

const INLINE_SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi;

/** The CSP hash sources of a document's inline scripts (JSON-LD data blocks are not scripts). */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const [, attrs, content] of html.matchAll(INLINE_SCRIPT)) {
    if (/\bsrc\s*=/i.test(attrs)) continue;
    const type = /\btype\s*=\s*["']?([^"'\s>]+)/i.exec(attrs)?.[1]?.toLowerCase();
    if (type && type !== "module" && type !== "text/javascript" && type !== "application/javascript") continue;
    hashes.add(`'sha256-${createHash("sha256").update(content, "utf8").digest("base64")}'`);
  }
  return [...hashes];
}

/** The weak ETag of a body. */
export function etagOf(body: Buffer): string {
  return `W/"${createHash("sha1").update(body).digest("base64url")}"`;
}

/** Whether the request's If-None-Match names this ETag (weak comparison). */
export function notModified(req: Request, etag: string): boolean {
  const header = req.headers["if-none-match"];
  if (!header) return false;
  const bare = etag.replace(/^W\//, "");
  return header.split(",").some((tag) => {
    const t = tag.trim();
    return t === "*" || t.replace(/^W\//, "") === bare;
  });
}

/** The stored encoding the client takes: br, then gzip, else identity (q=0 refuses one). */
export function negotiate(header: string | undefined, hasBr: boolean): "br" | "gzip" | "identity" {
  if (!header) return "identity";
  const accepted = new Set<string>();
  for (const part of header.toLowerCase().split(",")) {
    const [name, ...params] = part.trim().split(";");
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    if (q && Number(q.slice(2)) === 0) continue;
    accepted.add(name.trim());
  }
  if (hasBr && (accepted.has("br") || accepted.has("*"))) return "br";
  if (accepted.has("gzip") || accepted.has("*")) return "gzip";
  return "identity";
}

/** A page rendered for the store: what is sent, and what is kept of it. */
export interface Built {
  status: number;
  headers: [string, string][];
  /** The uncompressed body (not kept in the store). */
  body: Buffer;
  storable: boolean;
  etag: string;
  tags: string[];
  cookies: string[];
  /** Settles once the page is compressed and stored (or found not worth storing): after the response. */
  kept?: Promise<void>;
}

/**
 * Sends a stored page as stored: headers, the encoding the client takes, or a 304. Answers false
 * (nothing sent) when its body is gone: another process replaced or removed the page meanwhile.
 */
export function sendStored(req: Request, res: Response, page: StoredPage, store: PageStore): boolean {
  const revalidated = notModified(req, page.etag);
  const encoding = negotiate(req.headers["accept-encoding"], page.hasBr);
  const body = revalidated ? undefined : store.body(page, encoding);
  if (!revalidated && !body) return false;
  res.status(page.status);
  for (const [name, value] of page.headers) res.setHeader(name, value);
  res.setHeader("ETag", page.etag);
  res.setHeader("Vary", "Accept-Encoding");
  res.setHeader("X-Cache", page.stale ? "STALE" : "HIT");
  if (!body) send304(res);
  else sendBody(req, res, body, encoding);
  return true;
}

function sendBody(req: Request, res: Response, body: Buffer, encoding: "br" | "gzip" | "identity"): void {
  if (encoding !== "identity") res.setHeader("Content-Encoding", encoding);
  res.setHeader("Content-Length", body.length);
  res.end(req.method === "HEAD" ? undefined : body);
}

/** Sends a page just rendered (a miss, or the store off), uncompressed: compression() handles it. */
export function sendBuilt(req: Request, res: Response, built: Built): void {
  res.status(built.status);
  for (const [name, value] of built.headers) res.setHeader(name, value);
  if (built.cookies.length) res.setHeader("Set-Cookie", built.cookies);
  res.setHeader("X-Cache", "MISS");
  if (built.status === 200) {
    res.setHeader("ETag", built.etag);
    res.setHeader("Vary", "Accept-Encoding");
    if (notModified(req, built.etag)) return void send304(res);
  }
  res.setHeader("Content-Length", built.body.length);
  res.end(req.method === "HEAD" ? undefined : built.body);
}

function send304(res: Response): void {
  // No CSP or body headers on a 304: browsers merge a 304's headers into their stored copy.
  for (const name of ["Content-Security-Policy", "Content-Type", "Content-Length", "Content-Encoding"]) res.removeHeader(name);
  res.status(304).end();
}
