import { createHash } from "node:crypto";
import type { Insertable } from "kysely";
import { db, writeTransaction } from "../../db/index";
import type { SessionsTable } from "../../db/schema";
import { recordAudit, type Actor } from "./audit.server";

// The sessions table (DESIGN §6, SECURITY.md 'Sessions'): a row per signed-in cookie or bearer
// token, keyed by the token's SHA-256; the token itself never reaches the database. The cookie
// storage and the expiry rules live in app/services/session.server.ts.

export const tokenHash = (token: string) => createHash("sha256").update(token).digest("hex");

export async function insertSession(row: Insertable<SessionsTable>): Promise<void> {
  await db.insertInto("sessions").values(row).execute();
}

export async function findSession({ id }: { id: string }) {
  return db.selectFrom("sessions").selectAll().where("id", "=", id).executeTakeFirst();
}

/** Slides a session's expiry; `ip`, when given, is where it was last seen from (issue 25, "your sessions"). */
export async function touchSession({ id, lastSeenAt, expiresAt, ip }: { id: string; lastSeenAt: string; expiresAt: string; ip?: string }) {
  await db
    .updateTable("sessions")
    .set({ last_seen_at: lastSeenAt, expires_at: expiresAt, ...(ip !== undefined && { ip }) })
    .where("id", "=", id)
    .execute();
}

export async function updateSessionData({ id, data }: { id: string; data: string }) {
  await db.updateTable("sessions").set({ data }).where("id", "=", id).execute();
}

export async function deleteSession({ id }: { id: string }): Promise<void> {
  await db.deleteFrom("sessions").where("id", "=", id).execute();
}

/**
 * Sign-out: ends one session and records who signed out (`auth.sign_out`) in one transaction.
 * Nothing is written when the session is already gone (expired, or ended by another door).
 */
export async function signOut({ id, ip }: { id: string; ip: string | null }): Promise<void> {
  // Most sign-outs without a live session (a second click, an expired cookie) take no write lock.
  if (!(await findSession({ id }))) return;
  await writeTransaction(async (trx) => {
    const row = await trx
      .selectFrom("sessions")
      .innerJoin("users", "users.id", "sessions.user_id")
      .select(["sessions.kind", "users.id as userId", "users.username"])
      .where("sessions.id", "=", id)
      .executeTakeFirst();
    if (!row) return;
    await trx.deleteFrom("sessions").where("id", "=", id).execute();
    await recordAudit(trx, {
      actor: { id: row.userId, username: row.username, ip },
      action: "auth.sign_out",
      object: { type: "user", id: row.userId, label: row.username },
      details: { via: row.kind === "bearer" ? "api" : "form" },
    });
  });
}

/**
 * Ends every session of a user (deactivation, password change, two-factor turned off), optionally
 * sparing one token, and any sign-in of theirs still waiting for its second step. Answers how many
 * sessions ended.
 */
export async function revokeUserSessions({ userId, except, actor }: { userId: string; except?: string; actor?: Actor }): Promise<number> {
  return writeTransaction(async (trx) => {
    const result = await trx
      .deleteFrom("sessions")
      .where("user_id", "=", userId)
      .$if(Boolean(except), (qb) => qb.where("id", "!=", tokenHash(except!)))
      .executeTakeFirst();
    await trx.deleteFrom("sign_in_challenges").where("user_id", "=", userId).execute();
    const ended = Number(result.numDeletedRows);
    // A person ending their own other sessions (their profile); a change that ends them as a
    // consequence (password, deactivation) is recorded as that change.
    if (actor && ended > 0)
      await recordAudit(trx, { actor, action: "user.sessions_end", object: { type: "user", id: userId, label: actor.username }, details: { ended } });
    return ended;
  });
}

/** The sessions of one user that are still alive (idle expiry not passed, younger than `createdAfter`), newest first. */
export async function listUserSessions({ userId, now, createdAfter }: { userId: string; now: string; createdAfter: string }) {
  return db
    .selectFrom("sessions")
    .select(["id", "kind", "user_agent", "ip", "created_at", "last_seen_at"])
    .where("user_id", "=", userId)
    .where("expires_at", ">", now)
    .where("created_at", ">", createdAfter)
    .orderBy("last_seen_at", "desc")
    .orderBy("created_at", "desc")
    .execute();
}

/** Ends one session of one user; answers whether there was such a session (another user's id ends nothing). */
export async function deleteUserSession({ actor, userId, id }: { actor: Actor; userId: string; id: string }): Promise<boolean> {
  return writeTransaction(async (trx) => {
    const result = await trx.deleteFrom("sessions").where("id", "=", id).where("user_id", "=", userId).executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) return false;
    await recordAudit(trx, { actor, action: "user.sessions_end", object: { type: "user", id: userId, label: actor.username }, details: { ended: 1 } });
    return true;
  });
}

/** Deletes the sessions whose idle expiry has passed (a job of app/services/runtime.server.ts). */
export async function pruneExpiredSessions(): Promise<void> {
  await db.deleteFrom("sessions").where("expires_at", "<", new Date().toISOString()).execute();
}
