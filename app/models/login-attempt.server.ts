import { db } from "../../db/index";

// Lockout (SECURITY.md 'Sign-in'): per username, `max` failures within 15 minutes of each other
// (since the last success) lock that username for 15 minutes after the last of them, even for the
// right password; attempts refused during a lock are not recorded, so a lock ends on time.
// Per address: 100 failures in an hour, across usernames (password spraying).
export const LOCK_MINUTES = 15;
const ADDRESS_LIMIT = 100;
const ADDRESS_WINDOW_MINUTES = 60;

const minutes = (n: number) => n * 60_000;

/** Seconds until this username or address may try again, or 0 when it may try now. */
export async function getLockout({ username, ip, max }: { username: string; ip: string; max: number }) {
  const now = Date.now();
  const name = username.trim().toLowerCase();
  const lastSuccess = await db
    .selectFrom("login_attempts")
    .select("created_at")
    .where("username", "=", name)
    .where("success", "=", 1)
    .orderBy("created_at", "desc")
    .limit(1)
    .executeTakeFirst();
  const failures = await db
    .selectFrom("login_attempts")
    .select("created_at")
    .where("username", "=", name)
    .where("success", "=", 0)
    .where("created_at", ">", new Date(now - minutes(2 * LOCK_MINUTES)).toISOString())
    .$if(Boolean(lastSuccess), (qb) => qb.where("created_at", ">", lastSuccess!.created_at))
    .orderBy("created_at", "desc")
    .limit(max)
    .execute();
  let wait = 0;
  if (failures.length >= max) {
    const newest = Date.parse(failures[0].created_at);
    const oldest = Date.parse(failures[failures.length - 1].created_at);
    if (newest - oldest < minutes(LOCK_MINUTES)) wait = newest + minutes(LOCK_MINUTES) - now;
  }

  const since = new Date(now - minutes(ADDRESS_WINDOW_MINUTES)).toISOString();
  const byAddress = await db
    .selectFrom("login_attempts")
    .select([(eb) => eb.fn.countAll<number>().as("n"), (eb) => eb.fn.min("created_at").as("oldest")])
    .where("ip", "=", ip)
    .where("success", "=", 0)
    .where("created_at", ">", since)
    .executeTakeFirstOrThrow();
  if (Number(byAddress.n) >= ADDRESS_LIMIT && byAddress.oldest) {
    wait = Math.max(wait, Date.parse(byAddress.oldest as string) + minutes(ADDRESS_WINDOW_MINUTES) - now);
  }
  return Math.max(0, Math.ceil(wait / 1000));
}

export async function recordLoginAttempt({ username, ip, success }: { username: string; ip: string; success: boolean }) {
  await db
    .insertInto("login_attempts")
    .values({ username: username.trim().toLowerCase(), ip, success: success ? 1 : 0, created_at: new Date().toISOString() })
    .execute();
}

/** Drops attempts older than a day; called now and then so the table stays small. */
export async function pruneLoginAttempts() {
  await db
    .deleteFrom("login_attempts")
    .where("created_at", "<", new Date(Date.now() - 86_400_000).toISOString())
    .execute();
}
