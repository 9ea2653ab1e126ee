import { sql, type ExpressionBuilder } from "kysely";
import { z } from "zod";
import { db, writeTransaction, type DB } from "../../db/index";
import type { Database } from "../../db/schema";
import { DomainError } from "../utils/errors";
import { invalidateArticleChange, publicFootprint, type PublicFootprint } from "./article-cache.server";
import { refuseEarlyPublish } from "./article-desk-rules.server";
import { getArticleById, type ArticleView } from "./article-queries.server";
import { setArticleStatus } from "./article-writes.server";
import { recordAudit, SYSTEM, type Actor } from "./audit.server";

// The editorial desk (issue 14, DESIGN §11): submit for review, return to the author with a note,
// publish now or at a time (scheduled), and the scheduler that publishes what is due. The admin
// screens (admin.articles.desk.$id.tsx) and the JSON calls (api.articles.$id.submit/return/publish)
// call these same functions; permissions are checked here. Times are stored in UTC.

export const NOTE_MAX = 2_000;

export const DESK_TEXT = {
  notFound: "Статтю не знайдено",
  authorOnly: "Надіслати статтю на перевірку може лише її автор",
  submitFromDraft: "Надіслати на перевірку можна лише чернетку",
  editorsOnly: "Публікувати, планувати й повертати статті може лише редактор або адміністратор",
  returnFromReview: "Повернути автору можна лише статтю на перевірці",
  noteRequired: "Напишіть автору, що виправити: примітка обов'язкова",
  noteTooLong: `Примітка — не більше ${NOTE_MAX} символів`,
  timeMalformed: "Час публікації: дата й час ISO 8601 зі зсувом, наприклад 2026-11-25T09:00:00+02:00",
  timePast: "Час публікації вже минув: оберіть час у майбутньому або опублікуйте зараз",
  timeLocalMalformed: "Вкажіть дату й час публікації (за київським часом)",
} as const;

// The calls' bodies (DESIGN §11), checked at the boundary; what needs the article (its author,
// status) and the actor's role is checked in the functions below, so a role that may not make a
// call hears 403 before any complaint about its input.
const note = z.string({ invalid_type_error: "Примітка має бути текстом" }).max(NOTE_MAX, DESK_TEXT.noteTooLong).nullish();
export const SubmitBodySchema = z.object({ note });
export const ReturnBodySchema = z.object({ note });
export const PublishBodySchema = z.object({ publish_at: z.string({ invalid_type_error: DESK_TEXT.timeMalformed }).max(64, DESK_TEXT.timeMalformed).nullish() });

const ISO_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i;

/** An ISO 8601 time with an offset as a UTC ISO string; 422 when malformed or not in the future. */
export function futureTime(value: string, now = new Date()): string {
  const at = ISO_WITH_OFFSET.test(value.trim()) ? new Date(value.trim()) : null;
  if (!at || Number.isNaN(at.getTime())) throw new DomainError(422, DESK_TEXT.timeMalformed, "publish_at");
  if (at.getTime() <= now.getTime()) throw new DomainError(422, DESK_TEXT.timePast, "publish_at");
  return at.toISOString();
}

const isReporter = (actor: Actor) => actor.role === "reporter";
const articleObject = (article: { id: string; title: string }) => ({ type: "article" as const, id: article.id, label: article.title });

async function requireArticle(trx: DB, id: string) {
  const row = await trx
    .selectFrom("articles")
    .select(["id", "status", "author_id", "published_at", "title", "embargo_until"])
    .where("id", "=", id)
    .executeTakeFirst();
  if (!row) throw new DomainError(404, DESK_TEXT.notFound);
  return row;
}

async function setStatus(
  trx: DB,
  { actor, id, status, publishedAt }: { actor: Actor; id: string; status: "draft" | "review" | "scheduled"; publishedAt?: string },
) {
  const now = new Date().toISOString();
  await trx
    .updateTable("articles")
    .set({
      status,
      ...(publishedAt ? { published_at: publishedAt } : {}),
      updated_at: now,
      updated_by: actor.id,
      version: sql`version + 1`,
    })
    .where("id", "=", id)
    .execute();
  return now;
}

async function addNote(trx: DB, { id, actor, kind, text, at }: { id: string; actor: Actor; kind: "submit" | "return"; text: string | null; at: string }) {
  await trx.insertInto("article_desk_notes").values({ article_id: id, kind, note: text, user_id: actor.id, created_at: at }).execute();
}

/** POST /api/articles/{id}/submit: the author (any role) sends a draft to the desk: draft → review. */
export async function submitArticle({ actor, id, note }: { actor: Actor; id: string; note?: string | null }): Promise<ArticleView> {
  await writeTransaction(async (trx) => {
    const current = await requireArticle(trx, id);
    if (current.author_id !== actor.id) throw new DomainError(403, DESK_TEXT.authorOnly);
    if (current.status !== "draft") throw new DomainError(409, DESK_TEXT.submitFromDraft);
    const at = await setStatus(trx, { actor, id, status: "review" });
    await addNote(trx, { id, actor, kind: "submit", text: note?.trim() || null, at });
    await recordAudit(trx, { actor, action: "article.submit", object: articleObject(current), details: { from: current.status, to: "review" } });
  });
  return (await getArticleById({ id }))!;
}

/** POST /api/articles/{id}/return: an editor or admin sends an article in review back to its author with a note. */
export async function returnArticle({ actor, id, note }: { actor: Actor; id: string; note?: string | null }): Promise<ArticleView> {
  await writeTransaction(async (trx) => {
    const current = await requireArticle(trx, id);
    if (isReporter(actor)) throw new DomainError(403, DESK_TEXT.editorsOnly);
    const text = note?.trim();
    if (!text) throw new DomainError(422, DESK_TEXT.noteRequired, "note");
    if (current.status !== "review") throw new DomainError(409, DESK_TEXT.returnFromReview);
    const at = await setStatus(trx, { actor, id, status: "draft" });
    await addNote(trx, { id, actor, kind: "return", text, at });
    await recordAudit(trx, { actor, action: "article.return", object: articleObject(current), details: { from: current.status, to: "draft" } });
  });
  return (await getArticleById({ id }))!;
}

/**
 * POST /api/articles/{id}/publish: without a time, publishes now (setArticleStatus); with one in
 * the future, the article becomes `scheduled` with that `published_at` and leaves the public site
 * if it was on it. Editors and admins only.
 */
export async function publishArticle({ actor, id, publishAt }: { actor: Actor; id: string; publishAt?: string | null }): Promise<ArticleView> {
  if (!publishAt) return setArticleStatus({ actor, id, status: "published" });
  const footprints = await writeTransaction(async (trx) => {
    const current = await requireArticle(trx, id);
    if (isReporter(actor)) throw new DomainError(403, DESK_TEXT.editorsOnly);
    const at = futureTime(publishAt);
    refuseEarlyPublish({ status: "scheduled", embargoUntil: current.embargo_until, publishedAt: at }, new Date().toISOString()); // issue 29
    const before = await publicFootprint(trx, id);
    await setStatus(trx, { actor, id, status: "scheduled", publishedAt: at });
    await recordAudit(trx, {
      actor,
      action: "article.schedule",
      object: articleObject(current),
      details: { from: current.status, to: "scheduled", publish_at: at },
    });
    return [before, await publicFootprint(trx, id)];
  });
  await invalidateArticleChange(...footprints);
  return (await getArticleById({ id }))!;
}

/**
 * The scheduler's step: publishes every scheduled article whose time has come, in one
 * transaction, then clears the cached pages as a publish does. Answers the ids it published.
 */
export async function publishDue({ now = new Date() }: { now?: Date } = {}): Promise<string[]> {
  const at = now.toISOString();
  // A read first: the common case (nothing due) takes no write lock.
  // Issue 29: an article whose embargo has not lifted waits (a schedule before it was refused; this
  // holds an embargo set after the schedule too).
  const lifted = (eb: ExpressionBuilder<Database, "articles">) => eb.or([eb("embargo_until", "is", null), eb("embargo_until", "<=", at)]);
  const due = await db.selectFrom("articles").select("id").where("status", "=", "scheduled").where("published_at", "<=", at).where(lifted).execute();
  if (!due.length) return [];
  const done = await writeTransaction(async (trx) => {
    const ids: string[] = [];
    const footprints: (PublicFootprint | undefined)[] = [];
    for (const { id } of due) {
      const result = await trx
        .updateTable("articles")
        .set({ status: "published", updated_at: at, version: sql`version + 1` })
        .where("id", "=", id)
        .where("status", "=", "scheduled")
        .where("published_at", "<=", at)
        .where(lifted)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) continue;
      ids.push(id);
      // The site itself publishes a story that fell due (its scheduling was audited with its editor).
      const { title } = await trx.selectFrom("articles").select("title").where("id", "=", id).executeTakeFirstOrThrow();
      await recordAudit(trx, {
        actor: SYSTEM,
        action: "article.publish",
        object: articleObject({ id, title }),
        details: { from: "scheduled", to: "published", scheduled: true },
      });
      footprints.push(await publicFootprint(trx, id));
    }
    return { ids, footprints };
  });
  await invalidateArticleChange(...done.footprints);
  return done.ids;
}

const SCHEDULER_EVERY_MS = 1_000;
let scheduler: ReturnType<typeof setTimeout> | null = null;
let schedulerRun = 0;

/**
 * Starts the scheduler (runtime.startJobs): publishDue now, which publishes whatever fell due
 * while the server was down, then once a second. Its timer never holds the process.
 */
export function startScheduler(): void {
  stopScheduler();
  const run = ++schedulerRun;
  const tick = async () => {
    try {
      const ids = await publishDue();
      if (ids.length) console.log(`Scheduler published ${ids.length} article(s): ${ids.join(", ")}`);
    } catch (error) {
      console.error(`Scheduled publishing failed: ${(error as Error)?.message ?? error}`);
    }
    if (run !== schedulerRun) return;
    scheduler = setTimeout(tick, SCHEDULER_EVERY_MS);
    scheduler.unref();
  };
  void tick();
}

export function stopScheduler(): void {
  schedulerRun++;
  if (scheduler) clearTimeout(scheduler);
  scheduler = null;
}

export interface DeskNote {
  kind: "submit" | "return";
  note: string | null;
  created_at: string;
  by: string | null;
}

/** The newest desk note of an article (a submit's or a return's), with who wrote it. */
export async function latestDeskNote({ id }: { id: string }): Promise<DeskNote | null> {
  const row = await db
    .selectFrom("article_desk_notes as n")
    .leftJoin("users as u", "u.id", "n.user_id")
    .select(["n.kind", "n.note", "n.created_at", "u.name", "u.username"])
    .where("n.article_id", "=", id)
    .orderBy("n.id", "desc")
    .limit(1)
    .executeTakeFirst();
  return row ? { kind: row.kind, note: row.note, created_at: row.created_at, by: row.name || row.username || null } : null;
}

/** The dashboard's "Awaiting review" queue (oldest submission first) and the next scheduled stories. */
export async function getDeskOverview({ limit = 10 } = {}) {
  const [review, scheduled] = await Promise.all([
    db
      .selectFrom("articles")
      .leftJoin("users as author", "author.id", "articles.author_id")
      .select([
        "articles.id",
        "articles.title",
        "author.name as author_name",
        "author.username as author_username",
        (eb) =>
          eb
            .selectFrom("article_desk_notes as n")
            .select((e) => e.fn.max("n.created_at").as("at"))
            .whereRef("n.article_id", "=", "articles.id")
            .where("n.kind", "=", "submit")
            .as("submitted_at"),
      ])
      .where("articles.status", "=", "review")
      .orderBy("submitted_at", "asc")
      .limit(limit)
      .execute(),
    db.selectFrom("articles").select(["id", "title", "published_at"]).where("status", "=", "scheduled").orderBy("published_at", "asc").limit(limit).execute(),
  ]);
  return {
    review: review.map((r) => ({
      id: r.id,
      title: r.title,
      author: r.author_name || r.author_username || null,
      submitted_at: (r.submitted_at as string | null) ?? null,
    })),
    scheduled: scheduled.map((r) => ({ id: r.id, title: r.title, publish_at: r.published_at })),
  };
}
