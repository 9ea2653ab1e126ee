// Small HTTP clients for the fault and load tests (tests/integration/faults.test.ts, load.test.ts):
// staff sign in through the JSON API (bearer token) or the admin sign-in form (session cookie),
// then create, save and publish articles. Every request is bounded in time.
import { expect } from "vitest";

export const REQUEST_TIMEOUT_MS = 20_000;

export interface Staff {
  url: string;
  /** Headers that authenticate a request (Authorization, or Cookie + Origin for forms). */
  auth: Record<string, string>;
}

/** Bearer token for the JSON API. */
export async function apiSignIn(url: string, username: string, password: string): Promise<Staff> {
  const res = await fetch(`${url}/api/auth/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ username, password }),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  expect(res.status).toBe(200);
  return { url, auth: { Authorization: `Bearer ${(await res.json()).access_token}` } };
}

/** Session cookie from the admin sign-in form, for the screens' forms (same-origin Origin header). */
export async function formSignIn(url: string, username: string, password: string): Promise<Staff> {
  const res = await fetch(`${url}/admin/login`, {
    method: "POST",
    headers: { Origin: url },
    body: new URLSearchParams({ username, password }),
    redirect: "manual",
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  expect(res.status).toBe(302);
  const cookie = (res.headers.get("set-cookie") ?? "").split(";")[0];
  expect(cookie).toMatch(/^__session=/);
  return { url, auth: { Cookie: cookie, Origin: url } };
}

export async function firstCategoryId(staff: Staff): Promise<string> {
  const res = await fetch(`${staff.url}/api/categories/`, { headers: staff.auth, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
  expect(res.status).toBe(200);
  return ((await res.json()).data as { id: string }[])[0].id;
}

export interface ArticleBody {
  title: string;
  content: string;
  category_id: string;
  status?: "draft" | "published";
  version?: number;
}

/** Sends a JSON request; the response body is read whole (an acknowledgement is a complete 2xx answer). */
export async function apiSend(staff: Staff, method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
  const res = await fetch(`${staff.url}${path}`, {
    method,
    headers: { ...staff.auth, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  const text = await res.text();
  let json: any = text;
  try {
    json = JSON.parse(text);
  } catch {
    // not JSON (an HTML error page): kept as text for the failure message
  }
  return { status: res.status, json };
}

/** Posts the article editor form (no JavaScript); answers the status, Location and body. */
export async function formSend(
  staff: Staff,
  path: string,
  fields: Record<string, string>,
): Promise<{ status: number; location: string | null; text: string; type: string }> {
  const res = await fetch(`${staff.url}${path}`, {
    method: "POST",
    headers: staff.auth,
    body: new URLSearchParams(fields),
    redirect: "manual",
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  return { status: res.status, location: res.headers.get("location"), text: await res.text(), type: res.headers.get("content-type") ?? "" };
}

export const ARTICLE_TEXT = "Перший абзац тексту статті.\n\n## Підзаголовок\n\nДругий абзац із **виділенням** і [посиланням](https://example.org).";
