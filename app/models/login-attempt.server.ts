import { db, writeTransaction } from "../../db/index";
import type { User } from "../../db/schema";
import { recordAudit } from "./audit.server";

// Lockout (SECURITY.md 'Sign-in'), three rules, so nobody can keep a colleague out:
// - one username from one address: `max` failures within 15 minutes of each other (since that
//   pair's last success) lock the pair for 15 minutes after the last of them, even for the right
//   password; the same username from another address, and other usernames, are unaffected;
// - one username from many addresses: after 20 failures in an hour it is slowed to one attempt a
//   minute, never locked;
// - one address across usernames: 100 failures in an hour are refused (password spraying).
// Attempts refused by any rule are not recorded, so a lock ends on time.
export const LOCK_MINUTES = 15;
const USERNAME_SLOW_AFTER = 20;
const USERNAME_SLOW_SECONDS = 60;
const ADDRESS_LIMIT = 100;
const HOUR = 60;

const minutes = (n: number) => n * 60_000;

/** Why a sign-in must wait: the pair is locked, the username is slowed, or the address is refused. */
export type LockoutReason = "pair" | "username" | "address";

/** Seconds until this username may try again from this address (0: now), and why. */
export async function getLockout({ username, ip, max }: { username: string; ip: string; max: number }): Promise<{ wait: number; reason?: LockoutReason }> {
  const now = Date.now();
  const name = username.trim().toLowerCase();
  const waits: { ms: number; reason: LockoutReason }[] = [];

  // The failures of a username (from one address, or from all) since its last success.
  const failuresSince = async (windowMinutes: number, limit: number, fromIp?: string) => {
    const lastSuccess = await db
      .selectFrom("login_attempts")
      .select("created_at")
      .where("username", "=", name)
      .where("success", "=", 1)
      .$if(fromIp !== undefined, (qb) => qb.where("ip", "=", fromIp!))
      .orderBy("created_at", "desc")
      .limit(1)
      .executeTakeFirst();
    return db
      .selectFrom("login_attempts")
      .select("created_at")
      .where("username", "=", name)
      .where("success", "=", 0)
      .where("created_at", ">", new Date(now - minutes(windowMinutes)).toISOString())
      .$if(fromIp !== undefined, (qb) => qb.where("ip", "=", fromIp!))
      .$if(Boolean(lastSuccess), (qb) => qb.where("created_at", ">", lastSuccess!.created_at))
      .orderBy("created_at", "desc")
      .limit(limit)
      .execute();
  };

  const pair = await failuresSince(2 * LOCK_MINUTES, max, ip);
  if (pair.length >= max) {
    const newest = Date.parse(pair[0].created_at);
    const oldest = Date.parse(pair[pair.length - 1].created_at);
    if (newest - oldest < minutes(LOCK_MINUTES)) waits.push({ ms: newest + minutes(LOCK_MINUTES) - now, reason: "pair" });
  }

  const anywhere = await failuresSince(HOUR, USERNAME_SLOW_AFTER);
  if (anywhere.length >= USERNAME_SLOW_AFTER) {
    waits.push({ ms: Date.parse(anywhere[0].created_at) + USERNAME_SLOW_SECONDS * 1000 - now, reason: "username" });
  }

  const byAddress = await db
    .selectFrom("login_attempts")
    .select([(eb) => eb.fn.countAll<number>().as("n"), (eb) => eb.fn.min("created_at").as("oldest")])
    .where("ip", "=", ip)
    .where("success", "=", 0)
    .where("created_at", ">", new Date(now - minutes(HOUR)).toISOString())
    .executeTakeFirstOrThrow();
  if (Number(byAddress.n) >= ADDRESS_LIMIT && byAddress.oldest) {
    waits.push({ ms: Date.parse(byAddress.oldest as string) + minutes(HOUR) - now, reason: "address" });
  }

  const longest = waits.filter((w) => w.ms > 0).sort((a, b) => b.ms - a.ms)[0];
  return longest ? { wait: Math.ceil(longest.ms / 1000), reason: longest.reason } : { wait: 0 };
}

/** How a checked sign-in ended: signed in, wrong username or password, or a deactivated account. */
/** How a checked sign-in ended: signed in, a wrong password, a deactivated account, or a wrong second-factor code. */
export type SignInOutcome = "ok" | "credentials" | "inactive" | "code";

// A username as the audit log keeps it for a failed sign-in: only when it looks like one (what
// UsernameSchema allows), so a password typed into the username box by mistake (most have capitals,
// spaces or symbols) is not written down.
const USERNAME_SHAPE = /^[a-z0-9_.-]{1,50}$/;

/**
 * Records one checked sign-in in one transaction: the attempt (the lockout counts it), the user's
 * `last_login` when it succeeded, and its audit entry (`auth.sign_in` or `auth.sign_in_failed`
 * with the reason). The password never reaches this function.
 */
export async function recordSignIn({
  username,
  ip,
  user,
  outcome,
  via,
}: {
  username: string;
  ip: string;
  user?: Pick<User, "id" | "username">;
  outcome: SignInOutcome;
  via: "form" | "api";
}): Promise<void> {
  const name = username.trim().toLowerCase();
  const now = new Date().toISOString();
  const address = ip === "unknown" ? null : ip;
  await writeTransaction(async (trx) => {
    await trx
      .insertInto("login_attempts")
      .values({ username: name, ip, success: outcome === "credentials" || outcome === "code" ? 0 : 1, created_at: now })
      .execute();
    if (outcome === "ok" && user) {
      await trx.updateTable("users").set({ last_login: now }).where("id", "=", user.id).execute();
      await recordAudit(trx, {
        actor: { id: user.id, username: user.username, ip: address },
        action: "auth.sign_in",
        object: { type: "user", id: user.id, label: user.username },
        details: { via },
      });
      return;
    }
    const tried = user?.username ?? (USERNAME_SHAPE.test(name) ? name : null);
    await recordAudit(trx, {
      actor: { id: user?.id ?? null, username: tried, ip: address },
      action: "auth.sign_in_failed",
      object: user ? { type: "user", id: user.id, label: user.username } : undefined,
      details: { via, reason: outcome, ...(tried === null && { unusual_username: true }) },
    });
  });
}

/** Drops attempts older than a day; called now and then so the table stays small. */
export async function pruneLoginAttempts() {
  await db
    .deleteFrom("login_attempts")
    .where("created_at", "<", new Date(Date.now() - 86_400_000).toISOString())
    .execute();
}
