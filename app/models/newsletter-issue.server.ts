import { sql } from "kysely";
import { db, writeTransaction } from "../../db/index";
import { utcDayBefore } from "../utils/dates";
import { recordAudit, SYSTEM, type Actor, type AuditWho } from "./audit.server";
import { getSettings, saveSettings, type NewsletterSettings } from "./settings.server";

// Newsletter sends (issue 28 items 3–4, docs/decisions/027): an issue is one email (the weekly
// digest or one article), rendered once; the queue holds one row per issue and confirmed subscriber
// (unique together). Every process's sender claims due rows inside a writeTransaction (one writer
// at a time on both engines), marking them `sending` before SMTP is spoken to, so exactly one
// process sends each row, and a process that dies between the claim and the SMTP answer leaves
// the row `sending`: it is never sent again (at most once), and the sweep marks it failed.

export const MAX_ATTEMPTS = 3;
/** After a failed attempt, the next one waits this long × the attempts so far. */
export const RETRY_AFTER_MS = 60_000;
/** A row still `sending` this long after its claim belonged to a process that died. */
export const INTERRUPTED_AFTER_MS = 10 * 60_000;

export interface IssueContent {
  kind: "digest" | "article";
  subject: string;
  /** HTML and text with `{{unsubscribe_url}}` where each recipient's own link goes. */
  html: string;
  text: string;
  articleId?: string | null;
  /** The digest's week ('2026-W48'): one digest per week, whichever process comes first. */
  period?: string | null;
}

/**
 * Creates an issue and queues it for every confirmed subscriber, in one transaction. Answers the
 * issue id and how many were queued, or undefined when this week's digest exists already.
 */
export async function createIssue({ content, actor = SYSTEM, now = new Date() }: { content: IssueContent; actor?: Actor | AuditWho; now?: Date }) {
  const at = now.toISOString();
  return writeTransaction(async (trx) => {
    if (content.period) {
      const existing = await trx.selectFrom("newsletter_issues").select("id").where("period", "=", content.period).executeTakeFirst();
      if (existing) return undefined;
    }
    const { id } = await trx
      .insertInto("newsletter_issues")
      .values({
        kind: content.kind,
        article_id: content.articleId ?? null,
        subject: content.subject,
        period: content.period ?? null,
        body_html: content.html,
        body_text: content.text,
        status: "sending",
        created_by: actor.id,
        created_at: at,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await trx
      .insertInto("newsletter_queue")
      .columns(["issue_id", "subscriber_id", "status", "next_attempt_at"])
      .expression(
        trx
          .selectFrom("newsletter_subscribers")
          .select([sql.lit(id).as("issue_id"), "id", sql.lit("queued").as("status"), sql.lit(at).as("next_attempt_at")])
          .where("status", "=", "confirmed"),
      )
      .executeTakeFirst();
    const queued = await trx
      .selectFrom("newsletter_queue")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("issue_id", "=", id)
      .executeTakeFirstOrThrow();
    const count = Number(queued.n);
    await recordAudit(trx, {
      actor,
      action: "newsletter.send",
      object: { type: "newsletter", id: String(id), label: content.subject },
      details: { kind: content.kind, recipients: count },
    });
    return { id, queued: count };
  });
}

export interface ClaimedSend {
  id: number;
  issue_id: number;
  attempts: number;
  email: string | null;
  unsubscribe_token: string | null;
}

/**
 * Claims up to `limit` due rows for this process: queued, their time come, within the site-wide
 * rate (rows claimed in the last minute by any process count against `perMinute`). Claimed rows
 * are `sending`: no other process will take them.
 */
export async function claimDue({ perMinute, limit, now = new Date() }: { perMinute: number; limit: number; now?: Date }): Promise<ClaimedSend[]> {
  const at = now.toISOString();
  // A read first: the common case (nothing due) takes no write lock.
  const any = await db
    .selectFrom("newsletter_queue")
    .select("id")
    .where("status", "=", "queued")
    .where("next_attempt_at", "<=", at)
    .limit(1)
    .executeTakeFirst();
  if (!any) return [];
  return writeTransaction(async (trx) => {
    const minuteAgo = new Date(now.getTime() - 60_000).toISOString();
    const recent = await trx
      .selectFrom("newsletter_queue")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("attempted_at", ">", minuteAgo)
      .executeTakeFirstOrThrow();
    const room = Math.min(limit, perMinute - Number(recent.n));
    if (room <= 0) return [];
    const rows = await trx
      .selectFrom("newsletter_queue as q")
      .leftJoin("newsletter_subscribers as s", "s.id", "q.subscriber_id")
      .select(["q.id", "q.issue_id", "q.attempts", "s.email", "s.unsubscribe_token"])
      .where("q.status", "=", "queued")
      .where("q.next_attempt_at", "<=", at)
      .orderBy("q.id")
      .limit(room)
      .execute();
    if (!rows.length) return [];
    await trx
      .updateTable("newsletter_queue")
      .set({ status: "sending", attempts: sql`attempts + 1`, attempted_at: at })
      .where(
        "id",
        "in",
        rows.map((r) => r.id),
      )
      .where("status", "=", "queued")
      .execute();
    return rows.map((r) => ({ ...r, attempts: r.attempts + 1 }));
  });
}

/** The rendered email of an issue. */
export function getIssueContent({ id }: { id: number }) {
  return db.selectFrom("newsletter_issues").select(["id", "subject", "body_html", "body_text"]).where("id", "=", id).executeTakeFirst();
}

/** The SMTP server accepted the email. */
export async function markSent({ id, now = new Date() }: { id: number; now?: Date }): Promise<void> {
  await writeTransaction(async (trx) => {
    await trx.updateTable("newsletter_queue").set({ status: "sent", sent_at: now.toISOString(), last_error: null }).where("id", "=", id).execute();
  });
}

/** The attempt failed: queued again later, or `failed` after the last attempt. */
export async function markAttemptFailed({ id, attempts, error, now = new Date() }: { id: number; attempts: number; error: string; now?: Date }): Promise<void> {
  const last = attempts >= MAX_ATTEMPTS;
  await writeTransaction(async (trx) => {
    await trx
      .updateTable("newsletter_queue")
      .set({
        status: last ? "failed" : "queued",
        last_error: error.slice(0, 500),
        next_attempt_at: new Date(now.getTime() + RETRY_AFTER_MS * attempts).toISOString(),
      })
      .where("id", "=", id)
      .execute();
  });
}

/**
 * Housekeeping of the sender: rows left `sending` by a process that died are failed (not sent
 * again: it cannot be known whether the SMTP server took them), and issues with nothing left to
 * send are done.
 */
export async function sweepSends({ now = new Date() }: { now?: Date } = {}): Promise<void> {
  const stale = new Date(now.getTime() - INTERRUPTED_AFTER_MS).toISOString();
  const open = await db.selectFrom("newsletter_issues").select("id").where("status", "=", "sending").execute();
  const stuck = await db
    .selectFrom("newsletter_queue")
    .select("id")
    .where("status", "=", "sending")
    .where("attempted_at", "<", stale)
    .limit(1)
    .executeTakeFirst();
  if (!open.length && !stuck) return;
  await writeTransaction(async (trx) => {
    await trx
      .updateTable("newsletter_queue")
      .set({ status: "failed", last_error: "Надсилання перервано (сервер зупинився): лист не надіслано повторно, щоб ніхто не отримав його двічі" })
      .where("status", "=", "sending")
      .where("attempted_at", "<", stale)
      .execute();
    for (const { id } of open) {
      const left = await trx
        .selectFrom("newsletter_queue")
        .select("id")
        .where("issue_id", "=", id)
        .where("status", "in", ["queued", "sending"])
        .limit(1)
        .executeTakeFirst();
      if (!left)
        await trx
          .updateTable("newsletter_issues")
          .set({ status: "done", finished_at: now.toISOString() })
          .where("id", "=", id)
          .where("status", "=", "sending")
          .execute();
    }
  });
}

/** The send log: newest first, with counts per status. */
export async function listIssues({ skip = 0, limit = 20 }: { skip?: number; limit?: number } = {}) {
  const [rows, total] = await Promise.all([
    db
      .selectFrom("newsletter_issues as i")
      .leftJoin("newsletter_queue as q", "q.issue_id", "i.id")
      .select(["i.id", "i.kind", "i.subject", "i.status", "i.created_at", "i.finished_at", "i.article_id"])
      .select((eb) => [
        eb.fn.count<number>("q.id").as("total"),
        eb.fn.countAll().filterWhere("q.status", "=", "sent").as("sent"),
        eb.fn.countAll().filterWhere("q.status", "=", "failed").as("failed"),
        eb.fn.countAll().filterWhere("q.status", "in", ["queued", "sending"]).as("waiting"),
      ])
      .groupBy(["i.id", "i.kind", "i.subject", "i.status", "i.created_at", "i.finished_at", "i.article_id"])
      .orderBy("i.id", "desc")
      .offset(skip)
      .limit(limit)
      .execute(),
    db
      .selectFrom("newsletter_issues")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow(),
  ]);
  return {
    data: rows.map((r) => ({ ...r, total: Number(r.total), sent: Number(r.sent), failed: Number(r.failed), waiting: Number(r.waiting) })),
    total: Number(total.n),
    skip,
    limit,
  };
}

/** The failed sends of an issue (address, when still subscribed, and the last error). */
export function listFailures({ issueId, limit = 50 }: { issueId: number; limit?: number }) {
  return db
    .selectFrom("newsletter_queue as q")
    .leftJoin("newsletter_subscribers as s", "s.id", "q.subscriber_id")
    .select(["q.id", "s.email", "q.attempts", "q.last_error"])
    .where("q.issue_id", "=", issueId)
    .where("q.status", "=", "failed")
    .orderBy("q.id")
    .limit(limit)
    .execute();
}

export interface DigestArticle {
  id: string;
  slug: string;
  title: string;
  subtitle: string | null;
  published_at: string | null;
}

/** The week before `now`: its most-read articles (page views) and its newest, no article twice. */
export async function digestArticles({ now = new Date(), limit = 5 }: { now?: Date; limit?: number } = {}) {
  const weekAgo = new Date(now.getTime() - 7 * 24 * 3_600_000).toISOString();
  const columns = ["a.id", "a.slug", "a.title", "a.subtitle", "a.published_at"] as const;
  const mostRead = await db
    .selectFrom("page_views as v")
    .innerJoin("articles as a", "a.id", "v.article_id")
    .select(columns)
    .select((eb) => eb.fn.sum<number>("v.views").as("week_views"))
    .where("a.status", "=", "published")
    .where("a.published_at", "<=", now.toISOString())
    .where("v.day", ">=", utcDayBefore(now, 7))
    .where("v.day", "<=", now.toISOString().slice(0, 10))
    .groupBy([...columns])
    .orderBy("week_views", "desc")
    .orderBy("a.published_at", "desc")
    .limit(limit)
    .execute();
  const taken = new Set(mostRead.map((r) => r.id));
  const newest = await db
    .selectFrom("articles as a")
    .select(columns)
    .where("a.status", "=", "published")
    .where("a.published_at", ">", weekAgo)
    .where("a.published_at", "<=", now.toISOString())
    .orderBy("a.published_at", "desc")
    .limit(limit + taken.size)
    .execute();
  const strip = ({ week_views: _, ...r }: DigestArticle & { week_views?: unknown }): DigestArticle => r;
  return { mostRead: mostRead.map(strip), newest: newest.filter((r) => !taken.has(r.id)).slice(0, limit) };
}

/** An admin changes the digest's day and hour (settings group `newsletter`), audited like any setting. */
export async function saveDigestSchedule({ value, actor }: { value: NewsletterSettings; actor: Actor }): Promise<void> {
  await writeTransaction(async (trx) => {
    const before = await getSettings("newsletter", trx);
    await saveSettings("newsletter", value, trx);
    const changed = (Object.keys(value) as (keyof NewsletterSettings)[]).filter((k) => before[k] !== value[k]).map((k) => `newsletter.${k}`);
    if (changed.length) await recordAudit(trx, { actor, action: "settings.save", object: { type: "settings", label: "Розсилка" }, details: { keys: changed } });
  });
}
