// Small HTTP clients for the fault and load tests (tests/integration/faults.test.ts, load.test.ts):
// staff sign in through the JSON API (bearer token) or the admin sign-in form (session cookie),
// then create, save and publish articles. Every request is bounded in time.
import { expect } from "vitest";
import { integrityOf, withDatabaseOf } from "./database-of";

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

/** What writers were told was saved (startWriters). */
export interface Acknowledged {
  /** Created articles: id → title. */
  created: Map<string, string>;
  /**
   * One article saved over and over: its last acknowledged title, and the title of the save in
   * flight (which may or may not have landed when the process serving it was killed).
   */
  target: { id: string; title: string; inFlight: string };
}

/**
 * Two writers creating articles (draft and published in turn, or `drafts` only) and one saving
 * `acked.target` over and over, each acknowledgement (a 201 or 200 read in full) recorded in
 * `acked`, until stop(); call stop() before killing the only process, and requests left without
 * an answer are not acknowledged. With `keepGoing` a request without an answer (the process
 * serving it was killed) is tried again, as another process answers. Anything else fails the test.
 * The SIGKILL tests: tests/integration/faults.test.ts (one process), workers.test.ts (one of two).
 */
export function startWriters({
  staff,
  categoryId,
  acked,
  label,
  keepGoing = false,
  drafts = false,
}: {
  staff: Staff;
  categoryId: string;
  acked: Acknowledged;
  label: string;
  keepGoing?: boolean;
  drafts?: boolean;
}): { stop: () => Promise<void>; unanswered: () => number } {
  let stopped = false;
  let unanswered = 0;
  // Runs one request; answers whether the writer goes on.
  const attempt = async (send: () => Promise<{ status: number; json: any }>, ok: number, acknowledge: (json: any) => void) => {
    let res: { status: number; json: any };
    try {
      res = await send();
    } catch (error) {
      if (stopped) return false;
      if (!keepGoing) throw error;
      unanswered++;
      await new Promise((r) => setTimeout(r, 20));
      return true;
    }
    if (res.status === ok) acknowledge(res.json);
    else if (!stopped) throw new Error(`${label}: answered ${res.status}: ${JSON.stringify(res.json)}`);
    return !stopped;
  };
  const creator = async (name: string) => {
    for (let n = 0; ; n++) {
      const title = `${label}-${name}-${n}`;
      const body = { title, content: ARTICLE_TEXT, category_id: categoryId, status: drafts || n % 2 === 0 ? "draft" : "published" };
      if (
        !(await attempt(
          () => apiSend(staff, "POST", "/api/articles/", body),
          201,
          (json) => acked.created.set(json.id, title),
        ))
      )
        return;
    }
  };
  const saver = async () => {
    for (let n = 0; ; n++) {
      const title = `${label}-збережено-${n}`;
      acked.target.inFlight = title;
      const body = { title, content: `${ARTICLE_TEXT}\n\n${n}`, category_id: categoryId };
      if (
        !(await attempt(
          () => apiSend(staff, "PUT", `/api/articles/${acked.target.id}`, body),
          200,
          () => (acked.target.title = title),
        ))
      )
        return;
    }
  };
  const writers = Promise.all([creator("a"), creator("b"), saver()]);
  return {
    stop: async () => {
      stopped = true;
      await writers;
    },
    unanswered: () => unanswered,
  };
}

/** The database as the processes left it: intact, with every acknowledged write (read by another connection). */
export async function expectAcknowledgedWrites(dataDir: string, acked: Acknowledged): Promise<void> {
  expect(await integrityOf(dataDir)).toBe("ok");
  const titles = await withDatabaseOf(dataDir, async (db) => {
    const ids = [...acked.created.keys(), acked.target.id];
    const rows = ids.length ? await db.selectFrom("articles").select(["id", "title"]).where("id", "in", ids).execute() : [];
    return new Map(rows.map((r) => [r.id, r.title]));
  });
  const missing = [...acked.created].filter(([id, title]) => titles.get(id) !== title);
  expect(missing).toEqual([]);
  expect([acked.target.title, acked.target.inFlight]).toContain(titles.get(acked.target.id));
}
