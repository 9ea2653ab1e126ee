import { randomBytes } from "node:crypto";
import { createCookie, createSessionStorage, type Session } from "@remix-run/node";
import { getClientIPAddress } from "remix-utils/get-client-ip-address";
import { deleteSession, findSession, insertSession, signOut, tokenHash, touchSession, updateSessionData } from "../models/session.server";
import { getSettings } from "../models/settings.server";
import { getEnv } from "../utils/env.server";

// DESIGN §6 / SECURITY.md 'Sessions': server-side sessions in SQLite; the cookie (or bearer
// header) carries only a random 256-bit token, and the table keeps its SHA-256, so logout,
// deactivation and password changes end a session on the server.
const ABSOLUTE_LIMIT_MS = 12 * 3_600_000;
// Sliding expiry is written at most once a minute per session, not on every request.
const TOUCH_EVERY_MS = 60_000;

export interface SessionData {
  userId: string;
}
export interface FlashData {
  flash: string;
}

export { pruneExpiredSessions, revokeUserSessions, tokenHash } from "../models/session.server";

async function idleTimeoutMs(): Promise<number> {
  const { session_timeout } = await getSettings("security");
  return session_timeout * 60_000;
}

/** Creates a session row for userId and returns the token the client keeps. */
export async function createSessionToken({
  userId,
  kind,
  userAgent,
  data = {},
}: {
  userId: string;
  kind: "cookie" | "bearer";
  userAgent?: string | null;
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
    created_at: new Date(now).toISOString(),
    last_seen_at: new Date(now).toISOString(),
    expires_at: new Date(now + (await idleTimeoutMs())).toISOString(),
  });
  return token;
}

/** The session row behind a token, or undefined when unknown, expired or revoked; slides expiry. */
export async function readSessionToken(token: string) {
  if (!token || token.length > 200) return undefined;
  const id = tokenHash(token);
  const row = await findSession({ id });
  if (!row) return undefined;
  const now = Date.now();
  if (Date.parse(row.expires_at) <= now || Date.parse(row.created_at) + ABSOLUTE_LIMIT_MS <= now) {
    await deleteSession({ id });
    return undefined;
  }
  if (now - Date.parse(row.last_seen_at) > TOUCH_EVERY_MS) {
    await touchSession({ id, lastSeenAt: new Date(now).toISOString(), expiresAt: new Date(now + (await idleTimeoutMs())).toISOString() });
  }
  return row;
}

export async function revokeSessionToken(token: string): Promise<void> {
  await deleteSession({ id: tokenHash(token) });
}

let storage: ReturnType<typeof buildStorage> | undefined;

function buildStorage() {
  const env = getEnv();
  const cookie = createCookie("__session", {
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    // Secure when the site is served over https (PUBLIC_URL); no Domain, no Expires: the
    // server decides when a session ends.
    secure: env.PUBLIC_URL.startsWith("https://"),
    secrets: [env.SESSION_SECRET],
  });
  return createSessionStorage<SessionData, FlashData>({
    cookie,
    async createData(data) {
      if (!data.userId) throw new Error("a session needs a user");
      return createSessionToken({ userId: data.userId, kind: "cookie", data });
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
