import { createHash, randomBytes } from "node:crypto";
import { createCookie, createSessionStorage, type Cookie, type Session } from "@remix-run/node";
import { getClientIPAddress } from "remix-utils/get-client-ip-address";
import type { Actor } from "../models/audit.server";
import {
  deleteSession,
  deleteUserSession,
  findSession,
  insertSession,
  listUserSessions,
  revokeUserSessions,
  signOut,
  tokenHash,
  touchSession,
  updateSessionData,
} from "../models/session.server";
import { getSettings } from "../models/settings.server";
import { getEnv } from "../utils/env.server";
import { DomainError } from "../utils/errors";
import { describeDevice } from "../utils/user-agent";

// DESIGN §6 / SECURITY.md 'Sessions': server-side sessions in SQLite; the cookie (or bearer
// header) carries only a random 256-bit token, and the table keeps its SHA-256, so logout,
// deactivation and password changes end a session on the server.
const ABSOLUTE_LIMIT_MS = 12 * 3_600_000;
// Sliding expiry is written at most once a minute per session, not on every request.
const TOUCH_EVERY_MS = 60_000;

export interface SessionData {
  userId: string;
  /** Where a new session signs in from: read once by the store when it creates the row, never kept in its data. */
  signIn?: { ip: string; userAgent: string | null };
}
export interface FlashData {
  flash: string;
}

export { pruneExpiredSessions, revokeUserSessions, tokenHash } from "../models/session.server";

/** The client's address (the trust-proxy setting resolves it into X-Client-IP, server/app.ts). */
export function clientAddress(request: Request): string {
  return getClientIPAddress(request) ?? "unknown";
}

async function idleTimeoutMs(): Promise<number> {
  const { session_timeout } = await getSettings("security");
  return session_timeout * 60_000;
}

/** Creates a session row for userId and returns the token the client keeps. */
export async function createSessionToken({
  userId,
  kind,
  userAgent,
  ip,
  data = {},
}: {
  userId: string;
  kind: "cookie" | "bearer";
  userAgent?: string | null;
  ip?: string | null;
  data?: Record<string, unknown>;
}): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  const now = Date.now();
  await insertSession({
    id: tokenHash(token),
    user_id: userId,
    data: JSON.stringify({ ...data, userId }),
    kind,
    user_agent: userAgent?.slice(0, 300) ?? null,
    ip: ip?.slice(0, 100) ?? null,
    created_at: new Date(now).toISOString(),
    last_seen_at: new Date(now).toISOString(),
    expires_at: new Date(now + (await idleTimeoutMs())).toISOString(),
  });
  return token;
}

/**
 * The session row behind a token, or undefined when unknown, expired or revoked; slides expiry.
 * `ip`, when the request is known, is recorded as where the session was last seen from.
 */
export async function readSessionToken(token: string, { ip }: { ip?: string } = {}) {
  if (!token || token.length > 200) return undefined;
  const id = tokenHash(token);
  const row = await findSession({ id });
  if (!row) return undefined;
  const now = Date.now();
  if (Date.parse(row.expires_at) <= now || Date.parse(row.created_at) + ABSOLUTE_LIMIT_MS <= now) {
    await deleteSession({ id });
    return undefined;
  }
  const moved = ip !== undefined && ip !== row.ip;
  if (moved || now - Date.parse(row.last_seen_at) > TOUCH_EVERY_MS) {
    await touchSession({
      id,
      lastSeenAt: new Date(now).toISOString(),
      expiresAt: new Date(now + (await idleTimeoutMs())).toISOString(),
      ip: ip?.slice(0, 100),
    });
  }
  return row;
}

export async function revokeSessionToken(token: string): Promise<void> {
  await deleteSession({ id: tokenHash(token) });
}

let storage: ReturnType<typeof buildStorage> | undefined;
let sessionCookie: Cookie | undefined;

function buildStorage() {
  const env = getEnv();
  const cookie = (sessionCookie = createCookie("__session", {
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    // Secure when the site is served over https (PUBLIC_URL); no Domain, no Expires: the
    // server decides when a session ends.
    secure: env.PUBLIC_URL.startsWith("https://"),
    secrets: [env.SESSION_SECRET],
  }));
  return createSessionStorage<SessionData, FlashData>({
    cookie,
    async createData({ signIn, ...data }) {
      if (!data.userId) throw new Error("a session needs a user");
      return createSessionToken({ userId: data.userId, kind: "cookie", userAgent: signIn?.userAgent, ip: signIn?.ip, data });
    },
    async readData(token) {
      const row = await readSessionToken(token);
      return row ? JSON.parse(row.data) : null;
    },
    async updateData(token, data) {
      await updateSessionData({ id: tokenHash(token), data: JSON.stringify(data) });
    },
    async deleteData(token) {
      await revokeSessionToken(token);
    },
  });
}

export function sessionStorage() {
  return (storage ??= buildStorage());
}

/**
 * Ends whatever session `request` was made with, whichever door (SECURITY.md 'Logout'): a bearer
 * token is revoked; a cookie session is deleted on the server. Returns the Set-Cookie header that
 * clears the cookie, when there was one.
 */
export async function endSession(request: Request): Promise<string | undefined> {
  // The sign-out is recorded with the session's end, in its transaction (the audit log).
  const ip = getClientIPAddress(request) ?? null;
  const token = request.headers.get("Authorization")?.match(/^Bearer\s+(\S+)$/i)?.[1];
  if (token) await signOut({ id: tokenHash(token), ip });
  if (!request.headers.get("Cookie")?.includes("__session=")) return undefined;
  const session = await getSession(request);
  if (session.id) await signOut({ id: tokenHash(session.id), ip });
  // The row is gone already; this clears the cookie.
  return sessionStorage().destroySession(session);
}

export async function getSession(request: Request): Promise<Session<SessionData, FlashData>> {
  return sessionStorage().getSession(request.headers.get("Cookie"));
}

/** The token in the request's signed `__session` cookie, or undefined (no cookie, or a forged one). */
export async function sessionCookieToken(request: Request): Promise<string | undefined> {
  const header = request.headers.get("Cookie");
  if (!header?.includes("__session=")) return undefined;
  sessionStorage();
  const value: unknown = await sessionCookie!.parse(header);
  return typeof value === "string" && value ? value : undefined;
}

/**
 * A fresh cookie session for `userId` at sign-in (SECURITY.md 'Sessions': a new id every time, the
 * request's old session deleted), recording the address and browser it signs in from. Answers the
 * Set-Cookie headers.
 */
export async function startCookieSession(request: Request, userId: string): Promise<Headers> {
  const storage = sessionStorage();
  const previous = await getSession(request);
  const headers = new Headers();
  if (previous.id) headers.append("Set-Cookie", await storage.destroySession(previous));
  const session = await storage.getSession();
  session.set("userId", userId);
  session.set("signIn", { ip: clientAddress(request), userAgent: request.headers.get("User-Agent") });
  headers.append("Set-Cookie", await storage.commitSession(session));
  return headers;
}

// ---------------------------------------------------------------------------------------------
// Your sessions (issue 25, item 12): the profile lists a person's live sessions and bearer tokens
// and ends any one of them, or all but the one in use.

/** One live session as the profile shows it; `ref` names it in forms (not the stored key). */
export interface SessionView {
  ref: string;
  kind: "cookie" | "bearer";
  device: string;
  ip: string | null;
  created_at: string;
  last_seen_at: string;
  current: boolean;
}

// A form names a session by a digest of its key, so the page never carries the key itself.
const sessionRef = (id: string) => createHash("sha256").update(`session-ref:${id}`).digest("base64url").slice(0, 22);

/** The live sessions of a user, newest first; `currentToken` (the request's own) is marked. */
export async function listSessions({ userId, currentToken }: { userId: string; currentToken?: string }): Promise<SessionView[]> {
  const now = Date.now();
  const rows = await listUserSessions({
    userId,
    now: new Date(now).toISOString(),
    createdAfter: new Date(now - ABSOLUTE_LIMIT_MS).toISOString(),
  });
  const current = currentToken ? tokenHash(currentToken) : undefined;
  // The session in use first, then the others by last activity (the query's order).
  rows.sort((a, b) => Number(b.id === current) - Number(a.id === current));
  return rows.map((row) => ({
    ref: sessionRef(row.id),
    kind: row.kind,
    device: describeDevice(row.user_agent),
    // An IPv4 client of a dual-stack server arrives as ::ffff:a.b.c.d; people know it as a.b.c.d.
    ip: row.ip?.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, "") ?? null,
    created_at: row.created_at,
    last_seen_at: row.last_seen_at,
    current: row.id === current,
  }));
}

/**
 * Ends one session of the user by its `ref`. Another person's session, an ended one or a made-up
 * ref is not found (404); the session in use is ended by signing out, not here (409).
 */
export async function endSessionByRef({ actor, ref, currentToken }: { actor: Actor; ref: string; currentToken?: string }): Promise<void> {
  const userId = actor.id;
  const now = Date.now();
  const rows = await listUserSessions({ userId, now: new Date(now).toISOString(), createdAfter: new Date(now - ABSOLUTE_LIMIT_MS).toISOString() });
  const row = rows.find((r) => sessionRef(r.id) === ref);
  if (!row) throw new DomainError(404, "Сеанс не знайдено: можливо, він уже завершився. Оновіть сторінку.");
  if (currentToken && row.id === tokenHash(currentToken)) {
    throw new DomainError(409, "Це сеанс, у якому ви зараз працюєте: щоб його завершити, натисніть «Вийти».");
  }
  if (!(await deleteUserSession({ actor, userId, id: row.id })))
    throw new DomainError(404, "Сеанс не знайдено: можливо, він уже завершився. Оновіть сторінку.");
}

/** Ends every session of the user but the one in use; 409 when there is none to end. Answers how many ended. */
export async function endOtherSessions({ actor, currentToken }: { actor: Actor; currentToken?: string }): Promise<number> {
  const ended = await revokeUserSessions({ userId: actor.id, except: currentToken, actor });
  if (ended === 0) throw new DomainError(409, "Інших сеансів немає: завершувати нічого.");
  return ended;
}
