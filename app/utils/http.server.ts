import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import type { z, ZodTypeAny } from "zod";
import { isDatabaseBusy } from "../../db/index";
import { DomainError } from "./errors";
import { fieldErrors } from "./forms.server";

// DESIGN §7: JSON errors are `{ detail }`, plus `errors: { field: message }` for invalid fields.
// Limits are the same for forms and JSON: 8 MB bodies (a 5 MB image as a data URL fits).
export const MAX_BODY_BYTES = 8 * 1024 * 1024;

export function isApiRequest(request: Request): boolean {
  return new URL(request.url).pathname.startsWith("/api/");
}

const API_HEADERS = { "Cache-Control": "no-store" };

export function apiJson(data: unknown, init: ResponseInit = {}): Response {
  const headers = new Headers(init.headers);
  for (const [k, v] of Object.entries(API_HEADERS)) headers.set(k, v);
  return Response.json(data, { ...init, headers });
}

export function apiError(status: number, detail: string, extra: { errors?: Record<string, string>; headers?: HeadersInit } = {}): Response {
  const body = extra.errors ? { detail, errors: extra.errors } : { detail };
  return apiJson(body, { status, headers: extra.headers });
}

/** Reads a request body as text, refusing more than `limit` bytes even without Content-Length. */
export async function readBodyText(request: Request, limit = MAX_BODY_BYTES): Promise<string> {
  const declared = Number(request.headers.get("Content-Length") ?? "0");
  if (declared > limit) throw apiError(413, "Запит завеликий (більше 8 МБ)");
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw apiError(413, "Запит завеликий (більше 8 МБ)");
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

// Keys that must never reach an object merge (SECURITY.md 'API and input').
const FORBIDDEN_KEYS = new Set(["__proto__", "constructor", "prototype"]);

/**
 * Parses a JSON body with a zod schema: 415 for another content type, 413 when too large,
 * 400 for malformed JSON, 422 with `errors` for invalid fields.
 */
export async function parseJsonBody<S extends ZodTypeAny>(request: Request, schema: S): Promise<z.infer<S>> {
  const type = request.headers.get("Content-Type") ?? "";
  if (!/^application\/(.+\+)?json\b/i.test(type)) {
    throw apiError(415, "Очікується тіло запиту у форматі JSON (Content-Type: application/json)");
  }
  const text = await readBodyText(request);
  let body: unknown;
  try {
    body = JSON.parse(text, (key, value) => (FORBIDDEN_KEYS.has(key) ? undefined : value));
  } catch {
    throw apiError(400, "Некоректний JSON у тілі запиту");
  }
  if (body === null || typeof body !== "object" || Array.isArray(body)) {
    throw apiError(400, "Тіло запиту має бути JSON-об'єктом");
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    throw apiError(422, "Перевірте правильність полів", { errors: fieldErrors(parsed.error) });
  }
  return parsed.data;
}

/**
 * Like parseJsonBody, for calls whose body may be left out (DESIGN §11: publish `{publish_at?}`):
 * an empty body counts as `{}`, whatever its content type.
 */
export async function parseOptionalJsonBody<S extends ZodTypeAny>(request: Request, schema: S): Promise<z.infer<S>> {
  const declared = Number(request.headers.get("Content-Length") ?? "0");
  const empty = !request.body || (declared === 0 && !(await request.clone().text()).trim());
  if (!empty) return parseJsonBody(request, schema);
  const parsed = schema.safeParse({});
  if (!parsed.success) throw apiError(422, "Перевірте правильність полів", { errors: fieldErrors(parsed.error) });
  return parsed.data;
}

type Handler<A> = (args: A) => Promise<Response>;

/**
 * Wraps an API loader or action: thrown Responses pass through, a DomainError becomes its status
 * with `{detail, errors}`, anything else a JSON 500 without a stack trace (logged on the server).
 */
export function apiRoute<A extends LoaderFunctionArgs | ActionFunctionArgs>(handler: Handler<A>): Handler<A> {
  return async (args) => {
    try {
      return await handler(args);
    } catch (error) {
      if (error instanceof Response) return error;
      if (error instanceof DomainError) {
        return apiError(error.status, error.message, error.field ? { errors: { [error.field]: error.message } } : {});
      }
      if (isDatabaseBusy(error)) return databaseBusyResponse(args.request);
      console.error(`API ${args.request.method} ${new URL(args.request.url).pathname} failed:`, error);
      return apiError(500, "Помилка сервера");
    }
  };
}

/** `skip` and `limit` of a list request (DESIGN §7: limit at most 100). */
export function listParams(request: Request, defaultLimit = 20): { skip: number; limit: number } {
  const url = new URL(request.url);
  const int = (name: string, fallback: number, max: number) => {
    const value = Number.parseInt(url.searchParams.get(name) ?? "", 10);
    if (url.searchParams.has(name) && (!Number.isFinite(value) || value < 0 || String(value) !== url.searchParams.get(name)!.trim())) {
      throw apiError(422, "Перевірте параметри запиту", { errors: { [name]: `Ціле число від 0 до ${max}` } });
    }
    return Number.isFinite(value) ? Math.min(value, max) : fallback;
  };
  return { skip: int("skip", 0, Number.MAX_SAFE_INTEGER), limit: Math.max(1, int("limit", defaultLimit, 100)) };
}

/** 405 for a method the API route does not serve. */
export function methodNotAllowed(allowed: string[]): Response {
  return apiError(405, "Метод не підтримується", { headers: { Allow: allowed.join(", ") } });
}

/**
 * Whether a state-changing request comes from our own site (DESIGN §6): Origin, else Referer,
 * must match one of ours. Requests with neither and no session or sign-in cookie (API clients with a
 * bearer token) pass: a browser cannot attach those credentials cross-site.
 */
export function isSameOrigin(headers: { origin?: string | null; referer?: string | null; cookie?: string | null }, ours: string[]): boolean {
  const source = headers.origin || headers.referer;
  if (!source || source === "null") {
    // A session cookie, or the half-way sign-in cookie of the code screen, needs an origin we know.
    return !/__(session|signin)=/.test(headers.cookie ?? "") && source !== "null";
  }
  try {
    return ours.includes(new URL(source).origin);
  } catch {
    return false;
  }
}

// --- Database busy (issue 7, faults; docs/decisions/007) ---------------------------------------
// Another process (a backup, the sqlite3 shell, a migration) can hold SQLite's write lock. A write
// waits up to the busy timeout (5 s, db/index.ts); past that better-sqlite3 throws SQLITE_BUSY.
// That is a temporary condition, not a bug: the client gets a 503 with Retry-After and a message
// in Ukrainian, never a stack trace. apiRoute maps it for /api, server.ts for screens and forms.

export const DATABASE_BUSY_MESSAGE = "База даних тимчасово зайнята іншим процесом. Зміни не збережено: спробуйте ще раз за хвилину.";
export const DATABASE_BUSY_RETRY_AFTER = "30";

/** Whether an error is SQLite's "database is locked/busy" after the busy timeout ran out. */

export { isDatabaseBusy };

/** The 503 for a busy database: JSON `{detail}` for /api, plain text otherwise (screens render it in their error boundary). */
export function databaseBusyResponse(request: Request): Response {
  const headers = { "Retry-After": DATABASE_BUSY_RETRY_AFTER, "Cache-Control": "no-store" };
  if (isApiRequest(request)) return apiError(503, DATABASE_BUSY_MESSAGE, { headers });
  return new Response(DATABASE_BUSY_MESSAGE, { status: 503, headers: { ...headers, "Content-Type": "text/plain; charset=utf-8" } });
}
