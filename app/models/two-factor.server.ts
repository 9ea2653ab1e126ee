import { db, writeTransaction, type DB } from "../../db/index";
import { recordAudit, type Actor } from "./audit.server";

// The second factor's rows (docs/decisions/023): the sealed TOTP key with the last accepted time
// step, and the hashes of the recovery codes. Sealing, hashing and checking codes live in
// app/services/two-factor.server.ts; this module only stores and claims.

/** The two-factor row of a user (enrolled or still enrolling), or undefined. */
export async function getTwoFactor({ userId }: { userId: string }) {
  return db.selectFrom("user_two_factor").selectAll().where("user_id", "=", userId).executeTakeFirst();
}

/** True when the user has confirmed a code, i.e. sign-in asks them for one. */
export async function hasTwoFactor({ userId }: { userId: string }): Promise<boolean> {
  const row = await db.selectFrom("user_two_factor").select("user_id").where("user_id", "=", userId).where("enabled_at", "is not", null).executeTakeFirst();
  return Boolean(row);
}

/**
 * Keeps a new sealed key for a user who is not enrolled (a fresh start replaces an unfinished
 * one). Answers false when the user is already enrolled: an enrolment is never overwritten.
 */
export async function startEnrolment({ userId, sealedSecret }: { userId: string; sealedSecret: string }): Promise<boolean> {
  return writeTransaction(async (trx) => {
    const current = await trx.selectFrom("user_two_factor").select("enabled_at").where("user_id", "=", userId).executeTakeFirst();
    if (current?.enabled_at) return false;
    await trx.deleteFrom("user_two_factor").where("user_id", "=", userId).execute();
    await trx.insertInto("user_two_factor").values({ user_id: userId, secret: sealedSecret, enabled_at: null, last_step: null }).execute();
    return true;
  });
}

/** Drops an enrolment that was started and never confirmed. */
export async function cancelEnrolment({ userId }: { userId: string }): Promise<void> {
  await writeTransaction((trx) => trx.deleteFrom("user_two_factor").where("user_id", "=", userId).where("enabled_at", "is", null).execute());
}

/**
 * Finishes enrolment: the key whose code was just checked is switched on, that code's time step is
 * spent, and the recovery codes are replaced by `codeHashes`, all at once. Answers false when the
 * enrolment is no longer waiting (confirmed meanwhile, cancelled, or replaced by a new start).
 */
export async function confirmEnrolment({
  actor,
  userId,
  sealedSecret,
  step,
  codeHashes,
}: {
  actor: Actor;
  userId: string;
  sealedSecret: string;
  step: number;
  codeHashes: string[];
}): Promise<boolean> {
  return writeTransaction(async (trx) => {
    const result = await trx
      .updateTable("user_two_factor")
      .set({ enabled_at: new Date().toISOString(), last_step: step })
      .where("user_id", "=", userId)
      .where("secret", "=", sealedSecret)
      .where("enabled_at", "is", null)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) return false;
    await replaceCodes(trx, userId, codeHashes);
    await recordAudit(trx, { actor, action: "user.two_factor_enable", object: { type: "user", id: userId, label: actor.username } });
    return true;
  });
}

async function replaceCodes(trx: DB, userId: string, codeHashes: string[]) {
  await trx.deleteFrom("user_recovery_codes").where("user_id", "=", userId).execute();
  await trx
    .insertInto("user_recovery_codes")
    .values(codeHashes.map((code_hash) => ({ user_id: userId, code_hash, used_at: null })))
    .execute();
}

/** New recovery codes for an enrolled user (the old ones stop working). False when not enrolled. */
export async function replaceRecoveryCodes({ actor, userId, codeHashes }: { actor: Actor; userId: string; codeHashes: string[] }): Promise<boolean> {
  return writeTransaction(async (trx) => {
    const row = await trx.selectFrom("user_two_factor").select("user_id").where("user_id", "=", userId).where("enabled_at", "is not", null).executeTakeFirst();
    if (!row) return false;
    await replaceCodes(trx, userId, codeHashes);
    await recordAudit(trx, { actor, action: "user.recovery_codes_renew", object: { type: "user", id: userId, label: actor.username } });
    return true;
  });
}

/**
 * Spends a TOTP time step: succeeds only when it is later than the last one accepted, so a code
 * (and any code of an earlier step) works once, even when two requests race with it.
 */
export async function claimTimeStep({ userId, step }: { userId: string; step: number }): Promise<boolean> {
  const result = await writeTransaction((trx) =>
    trx
      .updateTable("user_two_factor")
      .set({ last_step: step })
      .where("user_id", "=", userId)
      .where("enabled_at", "is not", null)
      .where((eb) => eb.or([eb("last_step", "is", null), eb("last_step", "<", step)]))
      .executeTakeFirst(),
  );
  return Number(result.numUpdatedRows) === 1;
}

/** Spends a recovery code: true the first time only. */
export async function spendRecoveryCode({ userId, codeHash }: { userId: string; codeHash: string }): Promise<boolean> {
  const result = await writeTransaction((trx) =>
    trx
      .updateTable("user_recovery_codes")
      .set({ used_at: new Date().toISOString() })
      .where("user_id", "=", userId)
      .where("code_hash", "=", codeHash)
      .where("used_at", "is", null)
      .executeTakeFirst(),
  );
  return Number(result.numUpdatedRows) === 1;
}

/** How many recovery codes the user has left. */
export async function countUnusedRecoveryCodes({ userId }: { userId: string }): Promise<number> {
  const row = await db
    .selectFrom("user_recovery_codes")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("user_id", "=", userId)
    .where("used_at", "is", null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Turns the second factor off: the key and every recovery code go. */
export async function removeTwoFactor({ actor, userId }: { actor: Actor; userId: string }): Promise<void> {
  await writeTransaction(async (trx) => {
    await trx.deleteFrom("user_recovery_codes").where("user_id", "=", userId).execute();
    await trx.deleteFrom("user_two_factor").where("user_id", "=", userId).execute();
    await recordAudit(trx, { actor, action: "user.two_factor_disable", object: { type: "user", id: userId, label: actor.username } });
  });
}
