import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { createRequestHandler, type ServerBuild } from "@remix-run/node";
import { expect } from "vitest";
import type { Actor } from "../app/models/audit.server";
import { db, getSqlite } from "../db/index";
import { migrateToLatest } from "../db/migrate";

/** Who the tests' own setup calls of model functions act as (the audit log records them as it would anyone). */
export const TEST_ACTOR: Actor = { id: "test-setup", username: "test-setup", role: "admin", ip: null };

/** A model's actor for a user: their id, username and role, and the address they act from. */
export const actorOf = (user: Pick<Actor, "id" | "username" | "role">, ip: string | null = "203.0.113.9"): Actor => ({
  id: user.id,
  username: user.username,
  role: user.role,
  ip,
});

/** Migrates this test file's fresh database. */
export async function migrated() {
  await migrateToLatest(db);
  return db;
}

/**
 * After a migration rebuilt the articles table: the search index (rowids) still leads to the
 * article with `word`, the four indexes are back, and the foreign keys are on and hold.
 */
export function expectArticlesRebuiltWhole({ word, id }: { word: string; id: string }) {
  const sqlite = getSqlite();
  const found = sqlite.prepare("select a.id from articles_fts f join articles a on a.rowid = f.rowid where articles_fts match ?").all(word);
  expect(found).toEqual([{ id }]);
  const indexes = (
    sqlite.prepare("select name from sqlite_master where type = 'index' and tbl_name = 'articles' and sql is not null").all() as { name: string }[]
  ).map((r) => r.name);
  expect(indexes).toEqual(expect.arrayContaining(["articles_status_published", "articles_category_published", "articles_created_at", "articles_author_id"]));
  expect(sqlite.pragma("foreign_keys", { simple: true })).toBe(1);
  expect(sqlite.pragma("foreign_key_check")).toEqual([]);
}

let handler: ((request: Request) => Promise<Response>) | undefined;
let loaded: ServerBuild | undefined;

/**
 * Sends a request through the real production Remix build (npm run build), as Express would,
 * against this test file's database.
 */
export async function request(path: string, init: RequestInit & { ip?: string } = {}): Promise<Response> {
  if (!handler) {
    const build = (loaded = (await import(pathToFileURL(resolve("build/remix/index.js")).href)) as ServerBuild);
    const handle = createRequestHandler(build, "production");
    handler = (req) => handle(req, { cspNonce: "test-nonce" });
  }
  const headers = new Headers(init.headers);
  headers.set("X-Client-IP", init.ip ?? "203.0.113.7");
  return handler(new Request(`http://localhost${path}`, { ...init, headers }));
}

/** JSON POST through the Remix handler. */
export function postJson(path: string, body: unknown, init: RequestInit & { ip?: string } = {}) {
  const headers = new Headers(init.headers);
  headers.set("Content-Type", "application/json");
  return request(path, { ...init, method: "POST", headers, body: typeof body === "string" ? body : JSON.stringify(body) });
}

/**
 * Releases what the build's copy of the app holds (its database connection, sanitiser worker,
 * pending views): the tests import app modules from source too, so a process holds two copies
 * (docs/decisions/012). tests/setup.ts calls this after every file.
 */
export async function stopBuild(): Promise<void> {
  if (!loaded) return;
  const { runtime } = loaded.entry.module as unknown as { runtime: { stop: () => Promise<void> } };
  loaded = undefined;
  handler = undefined;
  await runtime.stop();
}

/** The build's runtime export (app/services/runtime.server.ts), once request() has loaded the build. */
export function buildRuntime(): typeof import("../app/services/runtime.server").runtime {
  if (!loaded) throw new Error("buildRuntime: no request() has loaded the build yet");
  return (loaded.entry.module as unknown as { runtime: typeof import("../app/services/runtime.server").runtime }).runtime;
}

/** A bearer token for a user made with the tests' common password (each sign-in from its own address, so lockout never trips). */
export async function tokenFor(username: string): Promise<string> {
  const res = await postJson("/api/auth/login", { username, password: "correct-horse" }, { ip: `198.51.100.${Math.floor(Math.random() * 200)}` });
  if (res.status !== 200) throw new Error(`sign-in as ${username} answered ${res.status}`);
  return (await res.json()).access_token as string;
}

/** A JSON API call through the build, with a bearer token when given and a body when given. */
export function sendJson(method: string, path: string, token: string | null, body?: unknown): Promise<Response> {
  return request(path, {
    method,
    headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}
