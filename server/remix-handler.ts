import { Transform } from "node:stream";
import {
  createReadableStreamFromReadable,
  createRequestHandler as createRemixRequestHandler,
  writeReadableStreamToWritable,
  type AppLoadContext,
  type ServerBuild,
} from "@remix-run/node";
import type { NextFunction, Request, Response } from "express";

// The Remix request handler for Express: @remix-run/express's createRequestHandler (same request
// and response mapping) with two differences (docs/decisions/013):
// - The URL and the Host that Remix sees come from PUBLIC_URL, not from the Host header: behind a
//   proxy that rewrites Host (nginx's default passes the upstream address) Remix's own check
//   ("host header does not match origin") failed every form post, sign-in included. The same-origin
//   middleware has already refused any post whose Origin is not ours.
// - Every request body is capped while it streams, whether or not it declares a Content-Length: a
//   chunked body past the limit is answered 413 at once and reading stops; the action sees an
//   error, never a truncated body.

export class BodyTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`request body over ${limit} bytes`);
    this.name = "BodyTooLargeError";
  }
}

export interface BodyLimit {
  bytes: number;
  message: string;
}

interface Options {
  build: ServerBuild;
  mode: string;
  getLoadContext: (req: Request, res: Response) => AppLoadContext | Promise<AppLoadContext>;
  /** The site's public address (PUBLIC_URL). */
  publicUrl: string;
  /** The largest body this request may send, and what to say past it. */
  bodyLimit: (req: Request) => BodyLimit;
  /** True when the answer is for a signed-in person: it is then `private, no-store`, whatever the route said. */
  isPrivate: (req: Request) => boolean;
  /** Answers a refused request in the envelope of its door (JSON for /api, text otherwise). */
  refuse: (req: Request, res: Response, status: number, detail: string) => void;
}

export function createRequestHandler({ build, mode, getLoadContext, publicUrl, bodyLimit, isPrivate, refuse }: Options) {
  const handle = createRemixRequestHandler(build, mode);
  const origin = new URL(publicUrl);
  return async (req: Request, res: Response, next: NextFunction) => {
    try {
      const request = createRemixRequest(req, res, origin, bodyLimit(req), refuse);
      const response = await handle(request, await getLoadContext(req, res));
      // A body refused while streaming was answered already; what Remix made of the error is dropped.
      if (res.headersSent) return;
      if (isPrivate(req)) response.headers.set("Cache-Control", "private, no-store");
      await sendRemixResponse(res, response);
    } catch (error) {
      if (res.headersSent) return;
      next(error);
    }
  };
}

function createRemixRequest(req: Request, res: Response, site: URL, limit: BodyLimit, refuse: Options["refuse"]): globalThis.Request {
  const headers = new Headers();
  for (const [key, values] of Object.entries(req.headers)) {
    for (const value of Array.isArray(values) ? values : values ? [values] : []) headers.append(key, value);
  }
  // The host Remix compares a form post's Origin with: the Origin itself when the same-origin
  // middleware accepted it, else the public one. Never a forwarded host a client could set.
  headers.delete("x-forwarded-host");
  const claimed = req.get("origin");
  headers.set("host", claimed && /^https?:\/\/[^/]+$/.test(claimed) ? new URL(claimed).host : site.host);
  // req.url (originalUrl, or the sitemap route's address for a sitemap file: server/app.ts) starts
  // with "/"; concatenating (not resolving) keeps `//host/...` a path.
  const url = new URL(`${site.origin}${req.url}`);
  const controller = new AbortController();
  const init: RequestInit & { duplex?: "half" } = { method: req.method, headers, signal: controller.signal };
  if (req.method !== "GET" && req.method !== "HEAD") {
    const body = req.pipe(capped(req, res, limit, refuse, /^application\/x-www-form-urlencoded\b/i.test(req.get("content-type") ?? "")));
    // pipe() does not pass on an abort: a client that goes away mid-body must end the body with an
    // error, so an upload in flight removes its temp file instead of waiting for bytes that never come.
    req.once("close", () => {
      if (!req.complete) body.destroy(new Error("the client went away before the body was complete"));
    });
    init.body = createReadableStreamFromReadable(body);
    init.duplex = "half";
  }
  // Abort loaders and actions once no response can be written (close without finish).
  let done = false;
  res.on("finish", () => (done = true));
  res.on("close", () => done || controller.abort());
  return new Request(url.href, init);
}

/**
 * Passes the body through while it stays within `limit` bytes; past it, answers 413 and stops
 * reading. A url-encoded form has each `+` turned into a space byte on the way (the same meaning
 * to the parser, WHATWG URL 'application/x-www-form-urlencoded parsing'): Node 20's URLSearchParams
 * builds its string one piece per `+`, so 4 MB of them (a 2,000-level indented list) held the
 * request thread for 300–700 ms, against ~15 ms for the same text sent as spaces (issue 25).
 */
function capped(req: Request, res: Response, limit: BodyLimit, refuse: Options["refuse"], urlEncoded: boolean) {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      seen += chunk.length;
      if (urlEncoded) for (let i = 0; i < chunk.length; i++) if (chunk[i] === 0x2b) chunk[i] = 0x20;
      if (seen <= limit.bytes) return callback(null, chunk);
      req.unpipe();
      req.pause();
      res.set("Connection", "close");
      refuse(req, res, 413, limit.message);
      // The action sees an error (never a truncated body) once the 413 has gone out; the
      // connection then closes, so the rest of the body is never read.
      callback(new BodyTooLargeError(limit.bytes));
      res.once("finish", () => req.socket.destroy());
    },
  });
}

async function sendRemixResponse(res: Response, response: globalThis.Response) {
  res.statusMessage = response.statusText;
  res.status(response.status);
  for (const [key, value] of response.headers.entries()) res.append(key, value);
  if (/text\/event-stream/i.test(response.headers.get("Content-Type") ?? "")) res.flushHeaders();
  if (response.body) await writeReadableStreamToWritable(response.body, res);
  else res.end();
}
