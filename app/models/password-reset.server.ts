import { createHash, randomBytes } from "node:crypto";
import { sql } from "kysely";
import { db, writeTransaction } from "../../db/index";
import { lowerCase } from "../../db/sql/text";
import { recordAudit } from "./audit.server";

// "Forgot password" (issue 31 item 20, docs/decisions/027): a link by email, valid an hour, used
// once; using it sets the new password and ends every session of the person (and any sign-in of
// theirs waiting for its second step). Only the token's SHA-256 is stored. At most
// RESETS_PER_HOUR links per person an hour, whoever asks (the store is the limit, so it holds
// across processes and boxes): nobody can flood a colleague's inbox.

export const RESET_MINUTES = 60;
export const RESETS_PER_HOUR = 3;
const TOKEN_RE = /^[A-Za-z0-9_-]{43}$/;
const hashOf = (token: string) => createHash("sha256").update(token).digest("hex");

/** The active people with this email (case aside). */
export function resetCandidates({ email }: { email: string }) {
  return db
    .selectFrom("users")
    .select(["id", "username", "email"])
    .where(lowerCase(sql.ref<string>("email")), "=", email.trim().toLowerCase())
    .where("is_active", "=", 1)
    .execute();
}

/**
 * A new reset link's token for the person (returned once, never stored), or undefined when they
 * had RESETS_PER_HOUR links in the last hour. The count and the insert share one write
 * transaction, so simultaneous requests cannot slip past the limit.
 */
export async function createPasswordReset({ userId, now = new Date() }: { userId: string; now?: Date }): Promise<string | undefined> {
  const token = randomBytes(32).toString("base64url");
  const hourAgo = new Date(now.getTime() - 3_600_000).toISOString();
  return writeTransaction(async (trx) => {
    const recent = await trx
      .selectFrom("password_resets")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("user_id", "=", userId)
      .where("created_at", ">", hourAgo)
      .executeTakeFirstOrThrow();
    if (Number(recent.n) >= RESETS_PER_HOUR) return undefined;
    await trx
      .insertInto("password_resets")
      .values({
        token_hash: hashOf(token),
        user_id: userId,
        created_at: now.toISOString(),
        expires_at: new Date(now.getTime() + RESET_MINUTES * 60_000).toISOString(),
      })
      .execute();
    return token;
  });
}

/** Whether a token opens the reset form now (unused, not expired, its person active). */
export async function resetTokenValid({ token, now = new Date() }: { token: string; now?: Date }): Promise<boolean> {
  if (!TOKEN_RE.test(token)) return false;
  const row = await db
    .selectFrom("password_resets as r")
    .innerJoin("users as u", "u.id", "r.user_id")
    .select("r.user_id")
    .where("r.token_hash", "=", hashOf(token))
    .where("r.used_at", "is", null)
    .where("r.expires_at", ">", now.toISOString())
    .where("u.is_active", "=", 1)
    .executeTakeFirst();
  return Boolean(row);
}

/**
 * Sets a new password with a reset token (already hashed by the caller: bcrypt stays outside the
 * write lock), marks the token used and ends every session of the person, in one transaction.
 * Answers false for an unknown, used or expired token.
 */
export async function completePasswordReset({
  token,
  passwordHash,
  ip,
  now = new Date(),
}: {
  token: string;
  passwordHash: string;
  ip: string | null;
  now?: Date;
}) {
  if (!TOKEN_RE.test(token)) return false;
  return writeTransaction(async (trx) => {
    const at = now.toISOString();
    const row = await trx
      .selectFrom("password_resets as r")
      .innerJoin("users as u", "u.id", "r.user_id")
      .select(["r.user_id", "u.username", "u.role"])
      .where("r.token_hash", "=", hashOf(token))
      .where("r.used_at", "is", null)
      .where("r.expires_at", ">", at)
      .where("u.is_active", "=", 1)
      .executeTakeFirst();
    if (!row) return false;
    const used = await trx
      .updateTable("password_resets")
      .set({ used_at: at })
      .where("token_hash", "=", hashOf(token))
      .where("used_at", "is", null)
      .executeTakeFirst();
    if (Number(used.numUpdatedRows) === 0) return false;
    // Every other link of theirs ends too: the person has a password they know again.
    await trx.updateTable("password_resets").set({ used_at: at }).where("user_id", "=", row.user_id).where("used_at", "is", null).execute();
    await trx.updateTable("users").set({ password_hash: passwordHash, updated_at: at }).where("id", "=", row.user_id).execute();
    const ended = await trx.deleteFrom("sessions").where("user_id", "=", row.user_id).executeTakeFirst();
    await trx.deleteFrom("sign_in_challenges").where("user_id", "=", row.user_id).execute();
    await recordAudit(trx, {
      actor: { id: row.user_id, username: row.username, ip },
      action: "user.password_reset",
      object: { type: "user", id: row.user_id, label: row.username },
      details: { ended: Number(ended.numDeletedRows) },
    });
    return true;
  });
}

/** Deletes links expired more than a day ago (runtime's hourly prune). */
export async function prunePasswordResets({ now = new Date() }: { now?: Date } = {}): Promise<void> {
  await db
    .deleteFrom("password_resets")
    .where("expires_at", "<", new Date(now.getTime() - 24 * 3_600_000).toISOString())
    .execute();
}
