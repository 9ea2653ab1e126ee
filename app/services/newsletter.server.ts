import { tz } from "@date-fns/tz";
import { format } from "date-fns";
import { db } from "../../db/index";
import type { Actor } from "../models/audit.server";
import { claimDue, createIssue, digestArticles, getIssueContent, markAttemptFailed, markSent, sweepSends } from "../models/newsletter-issue.server";
import { subscribe, voidConfirmation } from "../models/newsletter.server";
import { getSettings } from "../models/settings.server";
import { getEnv } from "../utils/env.server";
import { DomainError } from "../utils/errors";
import { closeMail, MAIL_NOT_SET_UP, mailConfigured, mailFrom, sendMail } from "./mail.server";
import { articleEmail, confirmationEmail, digestEmail, UNSUBSCRIBE_PLACEHOLDER } from "./newsletter-mail.server";

// The newsletter's service (issue 28 items 3–4, docs/decisions/027): subscribing with its
// confirmation email, creating issues (the weekly digest, "send this article now") and the
// background sender that every server process runs, paced at MAIL_RATE_PER_MINUTE site-wide.

const kyiv = tz("Europe/Kyiv");

async function site() {
  return { name: (await getSettings("seo")).site_title, publicUrl: getEnv().PUBLIC_URL };
}

/** The reader's one-click unsubscribe address (also the page with its button). */
export const unsubscribeUrl = (publicUrl: string, token: string) => `${publicUrl}/newsletter/unsubscribe?token=${token}`;

export type SubscribeResult = "sent" | "already" | "mail-off" | "failed";

/**
 * A reader asks to subscribe: a new address (or one whose link ran out) gets the confirmation
 * email; a pending or confirmed one gets nothing (answered `already`); without mail nothing is
 * recorded. A refused email voids the request, so asking again later sends again.
 */
export async function requestSubscription({ email, now = new Date() }: { email: string; now?: Date }): Promise<SubscribeResult> {
  if (!mailConfigured()) return "mail-off";
  const outcome = await subscribe({ email, now });
  if (outcome.kind === "already") return "already";
  const { name, publicUrl } = await site();
  const mail = confirmationEmail({ site: name, confirmUrl: `${publicUrl}/newsletter/confirm?token=${outcome.token}` });
  try {
    await sendMail({ ...mail, to: outcome.email, from: mailFrom(name) });
    return "sent";
  } catch (error) {
    console.error(`Newsletter confirmation email failed: ${(error as Error)?.message ?? error}`);
    await voidConfirmation({ email: outcome.email });
    return "failed";
  }
}

/** "Надіслати розсилку зараз": queues one published article for every confirmed subscriber. */
export async function sendArticleNow({ articleId, actor, now = new Date() }: { articleId: string; actor: Actor; now?: Date }) {
  if (!mailConfigured()) throw new DomainError(409, MAIL_NOT_SET_UP);
  const article = await db
    .selectFrom("articles")
    .select(["id", "slug", "title", "subtitle", "published_at", "status"])
    .where("id", "=", articleId)
    .executeTakeFirst();
  if (!article) throw new DomainError(404, "Статтю не знайдено");
  if (article.status !== "published") throw new DomainError(409, "Розіслати можна лише опубліковану статтю");
  const { name, publicUrl } = await site();
  const mail = articleEmail({ site: name, publicUrl, article });
  const issue = await createIssue({ content: { kind: "article", articleId, ...mail }, actor, now });
  return issue!;
}

/** The digest's week when `now` is at or past the digest's day and hour (Kyiv) on that day, else undefined. */
export function digestPeriod({ now, day, hour }: { now: Date; day: number; hour: number }): string | undefined {
  const weekday = Number(format(now, "i", { in: kyiv }));
  const localHour = Number(format(now, "H", { in: kyiv }));
  if (weekday !== day || localHour < hour) return undefined;
  return format(now, "RRRR-'W'II", { in: kyiv });
}

/**
 * The weekly digest's step: when its day and hour (settings, Europe/Kyiv) have come and this
 * week's digest does not exist, creates it (one per week across processes: `period` is unique and
 * created in a write transaction) for the confirmed subscribers. Answers the issue, if made.
 */
export async function runDigest({ now = new Date() }: { now?: Date } = {}) {
  if (!mailConfigured()) return undefined;
  const settings = await getSettings("newsletter");
  if (!settings.digest_enabled) return undefined;
  const period = digestPeriod({ now, day: settings.digest_day, hour: settings.digest_hour });
  if (!period) return undefined;
  const made = await db.selectFrom("newsletter_issues").select("id").where("period", "=", period).executeTakeFirst();
  if (made) return undefined;
  const confirmed = await db.selectFrom("newsletter_subscribers").select("id").where("status", "=", "confirmed").limit(1).executeTakeFirst();
  if (!confirmed) return undefined;
  const { mostRead, newest } = await digestArticles({ now });
  if (!mostRead.length && !newest.length) return undefined;
  const { name, publicUrl } = await site();
  const mail = digestEmail({ site: name, publicUrl, mostRead, newest });
  return createIssue({ content: { kind: "digest", period, ...mail }, now });
}

/** Sends what is due now within the pace; answers how many emails the SMTP server accepted. */
export async function sendDueMail({ now = new Date(), limit }: { now?: Date; limit?: number } = {}): Promise<number> {
  if (!mailConfigured()) return 0;
  const perMinute = getEnv().MAIL_RATE_PER_MINUTE;
  const claimed = await claimDue({ perMinute, limit: limit ?? Math.max(1, Math.ceil(perMinute / 60)), now });
  if (!claimed.length) return 0;
  const { name, publicUrl } = await site();
  const from = mailFrom(name);
  const issues = new Map<number, Awaited<ReturnType<typeof getIssueContent>>>();
  let sent = 0;
  for (const row of claimed) {
    if (!issues.has(row.issue_id)) issues.set(row.issue_id, await getIssueContent({ id: row.issue_id }));
    const issue = issues.get(row.issue_id);
    if (!issue || !row.email || !row.unsubscribe_token) {
      await markAttemptFailed({ id: row.id, attempts: Number.MAX_SAFE_INTEGER, error: "Підписника видалено", now });
      continue;
    }
    const link = unsubscribeUrl(publicUrl, row.unsubscribe_token);
    try {
      await sendMail({
        from,
        to: row.email,
        subject: issue.subject,
        text: issue.body_text.replaceAll(UNSUBSCRIBE_PLACEHOLDER, link),
        html: issue.body_html.replaceAll(UNSUBSCRIBE_PLACEHOLDER, link),
        // RFC 8058 one-click unsubscribe (and RFC 2369's link).
        headers: { "List-Unsubscribe": `<${link}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
      });
      await markSent({ id: row.id, now });
      sent++;
    } catch (error) {
      await markAttemptFailed({ id: row.id, attempts: row.attempts, error: String((error as Error)?.message ?? error), now });
    }
  }
  return sent;
}

const SENDER_EVERY_MS = 1_000;
const HOUSEKEEPING_EVERY_MS = 30_000;
let timer: ReturnType<typeof setTimeout> | null = null;
let senderRun = 0;

/**
 * Starts this process's sender (runtime.startJobs): every second it sends what is due; every
 * half minute it makes the weekly digest when its time has come and tidies the queue. Safe with
 * WORKERS=N and several boxes: claims are exclusive (newsletter-issue.server.ts). Never holds the process.
 */
export function startNewsletterSender(): void {
  stopNewsletterSender();
  if (!mailConfigured()) return;
  const run = ++senderRun;
  let lastHousekeeping = 0;
  const tick = async () => {
    try {
      if (Date.now() - lastHousekeeping >= HOUSEKEEPING_EVERY_MS) {
        lastHousekeeping = Date.now();
        await sweepSends();
        await runDigest();
      }
      await sendDueMail();
    } catch (error) {
      console.error(`Newsletter sender: ${(error as Error)?.message ?? error}`);
    }
    if (run !== senderRun) return;
    timer = setTimeout(tick, SENDER_EVERY_MS);
    timer.unref();
  };
  void tick();
}

export function stopNewsletterSender(): void {
  senderRun++;
  if (timer) clearTimeout(timer);
  timer = null;
  closeMail();
}
