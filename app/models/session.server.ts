import { createHash } from "node:crypto";
import type { Insertable } from "kysely";
import { db, writeTransaction } from "../../db/index";
import type { SessionsTable } from "../../db/schema";
import { recordAudit } from "./audit.server";

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

export async function touchSession({ id, lastSeenAt, expiresAt }: { id: string; lastSeenAt: string; expiresAt: string }) {
  await db.updateTable("sessions").set({ last_seen_at: lastSeenAt, expires_at: expiresAt }).where("id", "=", id).execute();
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

/** Ends every session of a user (deactivation, password change), optionally sparing one token. */
export async function revokeUserSessions({ userId, except }: { userId: string; except?: string }) {
  await db
    .deleteFrom("sessions")
    .where("user_id", "=", userId)
    .$if(Boolean(except), (qb) => qb.where("id", "!=", tokenHash(except!)))
    .execute();
}

/** Deletes the sessions whose idle expiry has passed (a job of app/services/runtime.server.ts). */
export async function pruneExpiredSessions(): Promise<void> {
  await db.deleteFrom("sessions").where("expires_at", "<", new Date().toISOString()).execute();
}
