import { z } from "zod";
import { db, writeTransaction, type DB } from "../../db/index";
import type { CommentStatus, CommentsMode } from "../../db/schema";
import { containsFolded } from "../../db/sql/text";
import { CACHE_TAG, invalidatePublicCache } from "../page-store/page-cache.server";
import { COMMENT_STATUSES } from "../utils/comment-statuses";
import { DomainError } from "../utils/errors";
import { formatPublicDateTime } from "../utils/public-format";
import { recordAudit, type Actor } from "./audit.server";

// Readers' comments (issue 28, DESIGN §15, docs/decisions/026-comments.md): the reads of the article
// page and of the moderation queues, and the moderators' changes. Posting (with the spam checks)
// lives in app/services/comment-post.server.ts. The author's email and the address are for staff:
// the public shape never carries them.

export { COMMENT_STATUSES };
export const COMMENTS_MODES = ["open", "closed", "hidden"] as const satisfies readonly CommentsMode[];

/** How many approved comments one article page shows (oldest first); more is a forum, not a page. */
export const PAGE_COMMENTS_LIMIT = 500;

/** One comment as readers see it: no email, no address. */
export interface PublicComment {
  id: string;
  parent_id: string | null;
  author_name: string;
  body: string;
  created_at: string;
  time: string;
}

const toPublic = (row: { id: string; parent_id: string | null; author_name: string; body: string; created_at: string }): PublicComment => ({
  id: row.id,
  parent_id: row.parent_id,
  author_name: row.author_name,
  body: row.body,
  created_at: row.created_at,
  time: formatPublicDateTime(row.created_at),
});

/** The approved comments of an article, oldest first (replies are placed under their parent by the page). */
export async function listArticleComments({ articleId }: { articleId: string }): Promise<PublicComment[]> {
  const rows = await db
    .selectFrom("comments")
    .select(["id", "parent_id", "author_name", "body", "created_at"])
    .where("article_id", "=", articleId)
    .where("status", "=", "approved")
    .orderBy("created_at")
    .orderBy("id")
    .limit(PAGE_COMMENTS_LIMIT)
    .execute();
  return rows.map(toPublic);
}

/** The comments written from one browser (its deletion token) still within their deletion window. */
export async function listOwnComments({ articleId, tokenHash, since }: { articleId: string; tokenHash: string; since: string }) {
  const rows = await db
    .selectFrom("comments")
    .select(["id", "parent_id", "author_name", "body", "created_at", "status"])
    .where("article_id", "=", articleId)
    .where("delete_token_hash", "=", tokenHash)
    .where("created_at", ">", since)
    .where("status", "in", ["pending", "approved"])
    .orderBy("created_at")
    .execute();
  return rows.map((row) => ({ ...toPublic(row), status: row.status }));
}

// ---------------------------------------------------------------------------------------------
// Moderation: the /admin/comments screen and GET/PATCH/DELETE /api/comments share these.

const blankToUndefined = (value: unknown) => (value == null || (typeof value === "string" && value.trim() === "") ? undefined : value);

/** The queue filter: a status (pending by default), one article, a search over name, email and text. */
export const CommentFilterSchema = z.object({
  status: z.preprocess(
    blankToUndefined,
    z.enum(COMMENT_STATUSES, { errorMap: () => ({ message: "Статус: pending, approved, spam або deleted" }) }).default("pending"),
  ),
  article_id: z.preprocess(blankToUndefined, z.string().uuid("Невідомий ідентифікатор статті").optional()),
  q: z.preprocess(blankToUndefined, z.string().trim().max(200, "Не більше 200 символів").optional()),
});
export type CommentFilter = z.infer<typeof CommentFilterSchema>;

/** A comment as moderators see it (email and address included). */
export interface ModeratedComment {
  id: string;
  article_id: string;
  article_title: string;
  article_slug: string;
  parent_id: string | null;
  author_name: string;
  author_email: string | null;
  body: string;
  status: CommentStatus;
  held_reason: string | null;
  ip: string | null;
  created_at: string;
  moderated_at: string | null;
  moderated_by: string | null;
}

function queueQuery(filter: CommentFilter) {
  let query = db.selectFrom("comments").innerJoin("articles", "articles.id", "comments.article_id").where("comments.status", "=", filter.status);
  if (filter.article_id) query = query.where("comments.article_id", "=", filter.article_id);
  if (filter.q) {
    const q = filter.q;
    query = query.where((eb) =>
      eb.or([
        containsFolded(eb.ref("comments.author_name"), q),
        containsFolded(eb.ref("comments.body"), q),
        containsFolded(eb.ref("comments.author_email"), q),
      ]),
    );
  }
  return query;
}

/** What a moderator sees of a comment (its article, and who moderated it last). */
const MODERATED_COLUMNS = [
  "comments.id",
  "comments.article_id",
  "articles.title as article_title",
  "articles.slug as article_slug",
  "comments.parent_id",
  "comments.author_name",
  "comments.author_email",
  "comments.body",
  "comments.status",
  "comments.held_reason",
  "comments.ip",
  "comments.created_at",
  "comments.moderated_at",
  "moderator.username as moderated_by",
] as const;

/** One page of a queue, newest first, with its total. */
export async function listComments({ filter, skip, limit }: { filter: CommentFilter; skip: number; limit: number }) {
  const [rows, total] = await Promise.all([
    queueQuery(filter)
      .leftJoin("users as moderator", "moderator.id", "comments.moderated_by")
      .select(MODERATED_COLUMNS)
      .orderBy("comments.created_at", "desc")
      .orderBy("comments.id", "desc")
      .limit(limit)
      .offset(skip)
      .execute(),
    queueQuery(filter)
      .select((eb) => eb.fn.countAll<number | string>().as("n"))
      .executeTakeFirstOrThrow(),
  ]);
  return { comments: rows as ModeratedComment[], total: Number(total.n) };
}

/** How many comments wait in each queue (the screen's tabs; `pending` is the sidebar's badge). */
export async function countCommentsByStatus({ articleId }: { articleId?: string } = {}): Promise<Record<CommentStatus, number>> {
  const rows = await db
    .selectFrom("comments")
    .select(["status", (eb) => eb.fn.countAll<number | string>().as("n")])
    .$if(Boolean(articleId), (qb) => qb.where("article_id", "=", articleId!))
    .groupBy("status")
    .execute();
  const counts = { pending: 0, approved: 0, spam: 0, deleted: 0 };
  for (const row of rows) counts[row.status] = Number(row.n);
  return counts;
}

/** The pending count only: read by the admin shell on every screen, from the (status, created_at) index. */
export async function countPendingComments(): Promise<number> {
  const row = await db
    .selectFrom("comments")
    .select((eb) => eb.fn.countAll<number | string>().as("n"))
    .where("status", "=", "pending")
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The article a comment belongs to, or a moderated comment's own row, for one id. */
export async function getModeratedComment({ id }: { id: string }): Promise<ModeratedComment | undefined> {
  const { comments } = await listCommentsByIds([id]);
  return comments[0];
}

async function listCommentsByIds(ids: string[], executor: DB = db) {
  if (!ids.length) return { comments: [] as ModeratedComment[] };
  const rows = await executor
    .selectFrom("comments")
    .innerJoin("articles", "articles.id", "comments.article_id")
    .leftJoin("users as moderator", "moderator.id", "comments.moderated_by")
    .select(MODERATED_COLUMNS)
    .where("comments.id", "in", ids)
    .execute();
  return { comments: rows as ModeratedComment[] };
}

/**
 * The article pages that show these comments are refreshed: each article's own page (by its slug)
 * goes at once, so an approved comment is there on the next request, and every other page showing
 * the article (its card's count) is re-rendered in the background. No other article is touched.
 */
export function refreshCommentedArticles(articles: { id: string; slug: string }[]): void {
  if (!articles.length) return;
  invalidatePublicCache(
    articles.map((a) => CACHE_TAG.article(a.id)),
    { remove: articles.map((a) => CACHE_TAG.article(a.slug)) },
  );
}

const excerpt = (text: string) => (text.length > 60 ? `${text.slice(0, 59)}…` : text);

/**
 * Moves comments to a queue (approve, back to pending, spam, deleted), with one audit entry each;
 * ids that do not exist are skipped and reported as `missing`. Pages showing a comment whose
 * visibility changed are refreshed.
 */
export async function moderateComments({ ids, status, actor }: { ids: string[]; status: CommentStatus; actor: Actor }) {
  const unique = [...new Set(ids)];
  const now = new Date().toISOString();
  const { changed, missing } = await writeTransaction(async (trx) => {
    const { comments } = await listCommentsByIds(unique, trx);
    const found = new Set(comments.map((c) => c.id));
    const changed = comments.filter((c) => c.status !== status);
    if (changed.length) {
      await trx
        .updateTable("comments")
        .set({ status, moderated_by: actor.id, moderated_at: now })
        .where(
          "id",
          "in",
          changed.map((c) => c.id),
        )
        .execute();
    }
    for (const c of changed) {
      await recordAudit(trx, {
        actor,
        action: "comment.moderate",
        object: { type: "comment", id: c.id, label: `${c.author_name}: ${excerpt(c.body)}` },
        details: { from: c.status, to: status, slug: c.article_slug, ...(changed.length > 1 ? { bulk: true } : {}) },
      });
    }
    return { changed, missing: unique.filter((id) => !found.has(id)) };
  });
  const visible = changed.filter((c) => c.status === "approved" || status === "approved");
  refreshCommentedArticles(uniqueArticles(visible));
  return { changed: changed.length, missing };
}

/** Removes a comment for good (and its replies), with an audit entry; false when there is none. */
export async function deleteCommentForGood({ id, actor }: { id: string; actor: Actor }): Promise<boolean> {
  const removed = await writeTransaction(async (trx) => {
    const { comments } = await listCommentsByIds([id], trx);
    const comment = comments[0];
    if (!comment) return undefined;
    const replies = await trx.selectFrom("comments").select(["id", "status"]).where("parent_id", "=", id).execute();
    await trx.deleteFrom("comments").where("parent_id", "=", id).execute();
    await trx.deleteFrom("comments").where("id", "=", id).execute();
    await recordAudit(trx, {
      actor,
      action: "comment.delete",
      object: { type: "comment", id, label: `${comment.author_name}: ${excerpt(comment.body)}` },
      details: { status: comment.status, slug: comment.article_slug, replies: replies.length },
    });
    return { comment, shown: comment.status === "approved" || replies.some((r) => r.status === "approved") };
  });
  if (!removed) return false;
  if (removed.shown) refreshCommentedArticles(uniqueArticles([removed.comment]));
  return true;
}

function uniqueArticles(comments: { article_id: string; article_slug: string }[]) {
  const byId = new Map(comments.map((c) => [c.article_id, { id: c.article_id, slug: c.article_slug }]));
  return [...byId.values()];
}

// ---------------------------------------------------------------------------------------------
// Per article: open, closed (shown, no new ones) or hidden.

export const CommentsModeSchema = z.enum(COMMENTS_MODES, { errorMap: () => ({ message: "Оберіть: відкриті, закриті або приховані" }) });

/** An article's comments mode, or undefined when there is no such article. */
export async function getCommentsMode({ articleId }: { articleId: string }): Promise<CommentsMode | undefined> {
  const row = await db.selectFrom("articles").select("comments_mode").where("id", "=", articleId).executeTakeFirst();
  return row?.comments_mode;
}

/** Sets an article's comments mode (an article edit: audited as one); its pages are refreshed. */
export async function setCommentsMode({ articleId, mode, actor }: { articleId: string; mode: CommentsMode; actor: Actor }): Promise<void> {
  const article = await writeTransaction(async (trx) => {
    const row = await trx.selectFrom("articles").select(["id", "slug", "title", "comments_mode"]).where("id", "=", articleId).executeTakeFirst();
    if (!row) throw new DomainError(404, "Статтю не знайдено");
    if (row.comments_mode === mode) return undefined;
    await trx.updateTable("articles").set({ comments_mode: mode }).where("id", "=", articleId).execute();
    await recordAudit(trx, {
      actor,
      action: "article.update",
      object: { type: "article", id: row.id, label: row.title },
      details: { fields: ["comments_mode"], from: row.comments_mode, to: mode },
    });
    return row;
  });
  if (article) refreshCommentedArticles([article]);
}
