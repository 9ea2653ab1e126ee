import { createHash, randomBytes } from "node:crypto";
import { sql } from "kysely";
import { db, writeTransaction } from "../../db/index";
import { contains } from "../../db/sql/text";
import { recordAudit, type Actor } from "./audit.server";

// Newsletter subscribers (issue 28 item 3, DESIGN §15, docs/decisions/027). Double opt-in: a new
// address is `pending` with a confirmation link valid 48 hours (only the token's SHA-256 is kept);
// an address that has not confirmed is not mailed again while its link is valid, and a pending
// row whose link ran out is deleted by the hourly prune. A subscriber who leaves, or whom an
// editor removes, is deleted (issue 28 item 5: removed, not flagged).

export const CONFIRM_HOURS = 48;
const HOUR = 3_600_000;

const hashOf = (token: string) => createHash("sha256").update(token).digest("hex");
const newToken = () => randomBytes(32).toString("base64url");
/** Tokens this module issues: 32 random bytes, base64url. */
export const TOKEN_RE = /^[A-Za-z0-9_-]{43}$/;

export type SubscribeOutcome =
  /** A new address, or a pending one whose link ran out: send `token` in a confirmation email. */
  | { kind: "confirm"; email: string; token: string; unsubscribeToken: string }
  /** Pending with a live link, or confirmed already: no email (nothing is sent twice). */
  | { kind: "already" };

/** Records a subscription request; answers whether a confirmation email must go out. */
export async function subscribe({ email, now = new Date() }: { email: string; now?: Date }): Promise<SubscribeOutcome> {
  const key = email.trim().toLowerCase();
  const token = newToken();
  const expires = new Date(now.getTime() + CONFIRM_HOURS * HOUR).toISOString();
  return writeTransaction(async (trx) => {
    const row = await trx
      .selectFrom("newsletter_subscribers")
      .select(["id", "status", "confirm_expires_at", "unsubscribe_token"])
      .where("email_key", "=", key)
      .executeTakeFirst();
    if (row && (row.status === "confirmed" || (row.confirm_expires_at && row.confirm_expires_at > now.toISOString()))) return { kind: "already" as const };
    if (row) {
      await trx
        .updateTable("newsletter_subscribers")
        .set({ confirm_token_hash: hashOf(token), confirm_expires_at: expires })
        .where("id", "=", row.id)
        .execute();
      return { kind: "confirm" as const, email: email.trim(), token, unsubscribeToken: row.unsubscribe_token };
    }
    const unsubscribeToken = newToken();
    await trx
      .insertInto("newsletter_subscribers")
      .values({
        email: email.trim(),
        email_key: key,
        status: "pending",
        confirm_token_hash: hashOf(token),
        confirm_expires_at: expires,
        unsubscribe_token: unsubscribeToken,
        created_at: now.toISOString(),
      })
      .execute();
    return { kind: "confirm" as const, email: email.trim(), token, unsubscribeToken };
  });
}

/** The confirmation email could not be sent: the link is void at once, so asking again sends a new one. */
export async function voidConfirmation({ email }: { email: string }): Promise<void> {
  await writeTransaction(async (trx) => {
    await trx.deleteFrom("newsletter_subscribers").where("email_key", "=", email.trim().toLowerCase()).where("status", "=", "pending").execute();
  });
}

/** Confirms the subscription a link names: `confirmed` (now or before), `expired`, or `invalid`. */
export async function confirmSubscription({ token, now = new Date() }: { token: string; now?: Date }): Promise<"confirmed" | "expired" | "invalid"> {
  if (!TOKEN_RE.test(token)) return "invalid";
  return writeTransaction(async (trx) => {
    const row = await trx
      .selectFrom("newsletter_subscribers")
      .select(["id", "status", "confirm_expires_at"])
      .where("confirm_token_hash", "=", hashOf(token))
      .executeTakeFirst();
    if (!row) return "invalid";
    if (row.status === "confirmed") return "confirmed";
    if (!row.confirm_expires_at || row.confirm_expires_at <= now.toISOString()) return "expired";
    await trx
      .updateTable("newsletter_subscribers")
      .set({ status: "confirmed", confirmed_at: now.toISOString(), confirm_expires_at: null })
      .where("id", "=", row.id)
      .execute();
    return "confirmed";
  });
}

/** The subscriber an unsubscribe link names (its address, to show), or undefined. */
export async function subscriberByUnsubscribeToken({ token }: { token: string }) {
  if (!TOKEN_RE.test(token)) return undefined;
  return db.selectFrom("newsletter_subscribers").select(["id", "email"]).where("unsubscribe_token", "=", token).executeTakeFirst();
}

async function deleteSubscriber(trx: Parameters<Parameters<typeof writeTransaction>[0]>[0], id: number) {
  // Sends still waiting for them go; what was sent stays counted in the send log, without the address.
  await trx.deleteFrom("newsletter_queue").where("subscriber_id", "=", id).where("status", "=", "queued").execute();
  const result = await trx.deleteFrom("newsletter_subscribers").where("id", "=", id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** A reader leaves by their link (one click or the page's button): the row is deleted. Answers whether there was one. */
export async function unsubscribe({ token }: { token: string }): Promise<boolean> {
  if (!TOKEN_RE.test(token)) return false;
  return writeTransaction(async (trx) => {
    const row = await trx.selectFrom("newsletter_subscribers").select("id").where("unsubscribe_token", "=", token).executeTakeFirst();
    return row ? deleteSubscriber(trx, row.id) : false;
  });
}

/** An editor removes a subscriber (the row is deleted; the audit entry names no address). */
export async function removeSubscriber({ id, actor }: { id: number; actor: Actor }): Promise<boolean> {
  return writeTransaction(async (trx) => {
    const removed = await deleteSubscriber(trx, id);
    if (removed) await recordAudit(trx, { actor, action: "newsletter.subscriber_remove", object: { type: "newsletter", id: String(id), label: `#${id}` } });
    return removed;
  });
}

export type SubscriberStatus = "pending" | "confirmed";

/** Subscribers for the admin screen, newest first, by address search and status. */
export async function listSubscribers({ q = "", status, skip = 0, limit = 50 }: { q?: string; status?: SubscriberStatus; skip?: number; limit?: number }) {
  const base = db
    .selectFrom("newsletter_subscribers")
    .$if(Boolean(q.trim()), (qb) => qb.where(contains(sql.ref("email_key"), q.trim().toLowerCase())))
    .$if(Boolean(status), (qb) => qb.where("status", "=", status!));
  const [rows, count] = await Promise.all([
    base.select(["id", "email", "status", "created_at", "confirmed_at"]).orderBy("id", "desc").offset(skip).limit(limit).execute(),
    base.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
  ]);
  return { data: rows, total: Number(count.n), skip, limit };
}

/** How many addresses are confirmed and how many wait for confirmation. */
export async function subscriberCounts(): Promise<{ confirmed: number; pending: number }> {
  const rows = await db
    .selectFrom("newsletter_subscribers")
    .select(["status", (eb) => eb.fn.countAll<number>().as("n")])
    .groupBy("status")
    .execute();
  const of = (s: string) => Number(rows.find((r) => r.status === s)?.n ?? 0);
  return { confirmed: of("confirmed"), pending: of("pending") };
}

/** Every subscriber, oldest first, for the CSV export. */
export function allSubscribers() {
  return db.selectFrom("newsletter_subscribers").select(["email", "status", "created_at", "confirmed_at"]).orderBy("id").execute();
}

/** Deletes pending addresses whose link ran out (runtime's hourly prune): an unconfirmed address is not kept. */
export async function pruneUnconfirmedSubscribers({ now = new Date() }: { now?: Date } = {}): Promise<void> {
  await db.deleteFrom("newsletter_subscribers").where("status", "=", "pending").where("confirm_expires_at", "<", now.toISOString()).execute();
}
