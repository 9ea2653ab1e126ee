import { db, writeTransaction } from "../../db/index";
import { tokenHash } from "./session.server";

// The half-signed-in state (docs/decisions/023): after the right password of a person with a second
// factor, and before their code, the browser holds only a random token in the `__signin` cookie and
// this table its SHA-256, the user and where to go next. It is never a session: no screen and no API
// accepts it; it lives a few minutes and is spent by the second step.

export interface SignInChallenge {
  userId: string;
  redirectTo: string | null;
  ip: string | null;
  userAgent: string | null;
}

/** Keeps a challenge under the hash of `token` until `expiresAt`. */
export async function insertSignInChallenge({ token, challenge, expiresAt }: { token: string; challenge: SignInChallenge; expiresAt: string }) {
  await writeTransaction((trx) =>
    trx
      .insertInto("sign_in_challenges")
      .values({
        id: tokenHash(token),
        user_id: challenge.userId,
        redirect_to: challenge.redirectTo,
        ip: challenge.ip,
        user_agent: challenge.userAgent,
        expires_at: expiresAt,
      })
      .execute(),
  );
}

/** The challenge behind `token` while it has not expired, else undefined. */
export async function findSignInChallenge({ token, now }: { token: string; now: string }): Promise<SignInChallenge | undefined> {
  const row = await db
    .selectFrom("sign_in_challenges")
    .select(["user_id", "redirect_to", "ip", "user_agent"])
    .where("id", "=", tokenHash(token))
    .where("expires_at", ">", now)
    .executeTakeFirst();
  return row && { userId: row.user_id, redirectTo: row.redirect_to, ip: row.ip, userAgent: row.user_agent };
}

/** Spends a challenge; true only for the request that removed it (two racing second steps: one wins). */
export async function deleteSignInChallenge({ token }: { token: string }): Promise<boolean> {
  const result = await writeTransaction((trx) => trx.deleteFrom("sign_in_challenges").where("id", "=", tokenHash(token)).executeTakeFirst());
  return Number(result.numDeletedRows) > 0;
}

/** Drops challenges whose time has passed (a job of app/services/runtime.server.ts). */
export async function pruneSignInChallenges(): Promise<void> {
  await db.deleteFrom("sign_in_challenges").where("expires_at", "<", new Date().toISOString()).execute();
}
