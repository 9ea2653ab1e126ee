import { createHash, createHmac, randomBytes, randomUUID, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import { db, writeTransaction } from "../../db/index";
import { listArticleComments, listOwnComments, refreshCommentedArticles, type PublicComment } from "../models/comment.server";
import { getSettings } from "../models/settings.server";
import { blocklistEntries, COMMENT_LIMITS, countLinks, findBlocked, READER_DELETE_MINUTES } from "../utils/comment-text";
import { getEnv } from "../utils/env.server";
import type { FieldErrors } from "../utils/forms";
import { fieldErrors } from "../utils/forms.server";

// A reader posts a comment (issue 28 item 1, DESIGN §15, docs/decisions/026-comments.md): no account,
// no JavaScript, no third-party script. The spam checks, in the order they run:
// - the honeypot (`website`, hidden from people): filled in, the comment is kept as spam;
// - the minimum fill time: the form carries the time it was rendered, signed with SESSION_SECRET;
//   a post sooner than MIN_FILL_MS after it is refused (the form comes back with a fresh stamp);
// - a per-address limit (COMMENTS_PER_WINDOW in WINDOW_MINUTES), counted in the database so every
//   process shares it; RATE_LIMIT=0 turns it off like the other write limits;
// - more links than the setting allows, or a blocklisted word: the comment waits for a moderator.
// Then "require moderation" decides between pending and approved.

/** At most 5 s (issue 28): a person reads and types longer; a script posts at once. */
export const MIN_FILL_MS = 3_000;
export const COMMENTS_PER_WINDOW = 5;
export const WINDOW_MINUTES = 10;
/** The one cookie a reader gets: a random token whose hash marks their comments for 15 minutes. */
export const READER_COOKIE = "comment_token";
export const HONEYPOT = "website";

const secret = () => getEnv().SESSION_SECRET;
const sign = (text: string) => createHmac("sha256", secret()).update(`comment-form:${text}`).digest("base64url");

/** The form's stamp: when it was rendered, signed. */
export function formStamp(now = Date.now()): string {
  const at = String(now);
  return `${at}.${sign(at)}`;
}

/** Milliseconds since a valid stamp was made, or undefined for a forged or malformed one. */
function stampAge(stamp: string, now: number): number | undefined {
  const [at, mac] = stamp.split(".");
  if (!at || !mac || !/^\d{1,16}$/.test(at)) return undefined;
  const expected = Buffer.from(sign(at));
  const given = Buffer.from(mac);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
  return now - Number(at);
}

export const tokenHash = (token: string) => createHash("sha256").update(token).digest("hex");

/** The reader's deletion token from the request's cookie, if it has a well-formed one. */
export function readerToken(cookieHeader: string | null): string | undefined {
  const match = /(?:^|;\s*)comment_token=([A-Za-z0-9_-]{43})(?:;|$)/.exec(cookieHeader ?? "");
  return match?.[1];
}

/** Set-Cookie for the reader's token: HttpOnly, SameSite=Lax, 15 minutes (Secure over https). */
export function readerCookie(token: string): string {
  const secure = getEnv().PUBLIC_URL.startsWith("https://") ? "; Secure" : "";
  return `${READER_COOKIE}=${token}; Path=/; Max-Age=${READER_DELETE_MINUTES * 60}; HttpOnly; SameSite=Lax${secure}`;
}

const optionalEmail = z.preprocess(
  (v) => (typeof v === "string" && v.trim() === "" ? undefined : v),
  z.string().trim().toLowerCase().max(COMMENT_LIMITS.email, `Не більше ${COMMENT_LIMITS.email} символів`).email("Невірний формат email").optional(),
);
// Control characters other than line breaks and tabs have no place in a comment.
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F\u200B-\u200F\u202A-\u202E\u2066-\u2069]/g;
const clean = (v: unknown) => (typeof v === "string" ? v.replace(CONTROL, "").replace(/\r\n?/g, "\n") : v);

/** The comment form (and the fields a JSON client would send). */
export const CommentFormSchema = z.object({
  author_name: z.preprocess(
    clean,
    z.string({ required_error: "Вкажіть ім'я" }).trim().min(1, "Вкажіть ім'я").max(COMMENT_LIMITS.name, `Ім'я: не більше ${COMMENT_LIMITS.name} символів`),
  ),
  author_email: optionalEmail,
  body: z.preprocess(
    clean,
    z
      .string({ required_error: "Напишіть коментар" })
      .trim()
      .min(1, "Напишіть коментар")
      .max(COMMENT_LIMITS.body, `Коментар: не більше ${COMMENT_LIMITS.body} символів`)
      .transform((text) => text.replace(/\n{3,}/g, "\n\n")),
  ),
  parent_id: z.preprocess((v) => (v === "" ? undefined : v), z.string().uuid("Невідомий коментар").optional()),
  stamp: z.string().max(200).default(""),
  [HONEYPOT]: z.string().max(2000).default(""),
});

export const COMMENT_MESSAGES = {
  pending: "Коментар очікує на модерацію. Він з'явиться, щойно його схвалить редактор.",
  approved: "Коментар опубліковано.",
  closed: "Коментарі до цієї статті закрито.",
  off: "Коментарі на сайті вимкнено.",
  tooFast: "Коментар надіслано надто швидко. Перевірте текст і надішліть його ще раз.",
  stale: "Форма застаріла. Надішліть коментар ще раз.",
  tooMany: `Забагато коментарів з вашої адреси. Спробуйте знову за ${WINDOW_MINUTES} хв.`,
  parent: "Коментар, на який ви відповідаєте, не знайдено.",
  deleted: "Ваш коментар видалено.",
  notDeletable: "Цей коментар уже не можна видалити: минуло понад 15 хвилин або його видалено.",
} as const;

export type PostOutcome =
  | { ok: true; id: string; status: "pending" | "approved" | "spam"; token: string }
  | { ok: false; status: 400 | 403 | 404 | 422 | 429; message: string; errors?: FieldErrors; retryAfter?: number };

/** Whether the site takes comments for an article: "open", "closed" (shown, no new ones) or "hidden". */
export async function commentsState(mode: "open" | "closed" | "hidden"): Promise<"open" | "closed" | "hidden"> {
  const { allow_comments } = await getSettings("content");
  return allow_comments ? mode : "hidden";
}

/**
 * Checks and stores one comment for a published article. `token` is the reader's existing deletion
 * token (kept, so all their comments of the next 15 minutes share one cookie) or a new one.
 */
export async function postComment({
  articleId,
  input,
  ip,
  token,
  now = Date.now(),
}: {
  articleId: string;
  input: Record<string, unknown>;
  ip: string | null;
  token?: string;
  now?: number;
}): Promise<PostOutcome> {
  const article = await db
    .selectFrom("articles")
    .select(["id", "slug", "comments_mode"])
    .where("id", "=", articleId)
    .where("status", "=", "published")
    .executeTakeFirst();
  if (!article) return { ok: false, status: 404, message: "Статтю не знайдено" };
  const content = await getSettings("content");
  if (!content.allow_comments) return { ok: false, status: 403, message: COMMENT_MESSAGES.off };
  if (article.comments_mode !== "open") return { ok: false, status: 403, message: COMMENT_MESSAGES.closed };

  const parsed = CommentFormSchema.safeParse(input);
  if (!parsed.success) return { ok: false, status: 422, message: "Перевірте поля форми", errors: fieldErrors(parsed.error) };
  const form = parsed.data;

  const age = stampAge(form.stamp, now);
  if (age === undefined || age < -60_000) return { ok: false, status: 400, message: COMMENT_MESSAGES.stale };
  if (age < MIN_FILL_MS) return { ok: false, status: 400, message: COMMENT_MESSAGES.tooFast };

  if (ip && getEnv().RATE_LIMIT !== "0") {
    const since = new Date(now - WINDOW_MINUTES * 60_000).toISOString();
    const recent = await db
      .selectFrom("comments")
      .select("created_at")
      .where("ip", "=", ip)
      .where("created_at", ">", since)
      .orderBy("created_at")
      .limit(COMMENTS_PER_WINDOW)
      .execute();
    if (recent.length >= COMMENTS_PER_WINDOW) {
      const retryAfter = Math.max(1, Math.ceil((Date.parse(recent[0].created_at) + WINDOW_MINUTES * 60_000 - now) / 1000));
      return { ok: false, status: 429, message: COMMENT_MESSAGES.tooMany, retryAfter };
    }
  }

  let parentId: string | null = null;
  if (form.parent_id) {
    const parent = await db
      .selectFrom("comments")
      .select(["id", "parent_id"])
      .where("id", "=", form.parent_id)
      .where("article_id", "=", article.id)
      .where("status", "=", "approved")
      .executeTakeFirst();
    if (!parent) return { ok: false, status: 422, message: COMMENT_MESSAGES.parent, errors: { parent_id: COMMENT_MESSAGES.parent } };
    // One level of replies: a reply to a reply joins its thread.
    parentId = parent.parent_id ?? parent.id;
  }

  let status: "pending" | "approved" | "spam" = content.moderation_required ? "pending" : "approved";
  let heldReason: string | null = null;
  const blocked = findBlocked([form.author_name, form.author_email ?? "", form.body], blocklistEntries(content.comment_blocklist));
  if (form[HONEYPOT].trim() !== "") [status, heldReason] = ["spam", "honeypot"];
  else if (countLinks(form.body) > content.comment_max_links) [status, heldReason] = ["pending", "links"];
  else if (blocked) [status, heldReason] = ["pending", "blocklist"];

  const readerToken = token ?? randomBytes(32).toString("base64url");
  const id = randomUUID();
  await writeTransaction(async (trx) => {
    await trx
      .insertInto("comments")
      .values({
        id,
        article_id: article.id,
        parent_id: parentId,
        author_name: form.author_name,
        author_email: form.author_email ?? null,
        body: form.body,
        status,
        held_reason: heldReason,
        ip,
        delete_token_hash: status === "spam" ? null : tokenHash(readerToken),
        created_at: new Date(now).toISOString(),
      })
      .execute();
  });
  if (status === "approved") refreshCommentedArticles([article]);
  return { ok: true, id, status, token: readerToken };
}

/**
 * A reader deletes their own comment: the token's hash must match and the comment be at most 15
 * minutes old. Answers false when it may not (or is gone).
 */
export async function deleteOwnComment({ id, token, now = Date.now() }: { id: string; token: string | undefined; now?: number }): Promise<boolean> {
  if (!token || !/^[0-9a-f-]{36}$/i.test(id)) return false;
  const since = new Date(now - READER_DELETE_MINUTES * 60_000).toISOString();
  const done = await writeTransaction(async (trx) => {
    const comment = await trx
      .selectFrom("comments")
      .innerJoin("articles", "articles.id", "comments.article_id")
      .select(["comments.id", "comments.status", "articles.id as article_id", "articles.slug"])
      .where("comments.id", "=", id)
      .where("comments.delete_token_hash", "=", tokenHash(token))
      .where("comments.created_at", ">", since)
      .where("comments.status", "in", ["pending", "approved"])
      .executeTakeFirst();
    if (!comment) return undefined;
    await trx.updateTable("comments").set({ status: "deleted", delete_token_hash: null }).where("id", "=", id).execute();
    return comment;
  });
  if (!done) return false;
  if (done.status === "approved") refreshCommentedArticles([{ id: done.article_id, slug: done.slug }]);
  return true;
}

/** What the article page's comment section shows: the state, the approved list and this browser's own recent comments. */
export async function commentSection({
  article,
  cookieHeader,
  now = Date.now(),
}: {
  article: { id: string; comments_mode: "open" | "closed" | "hidden" };
  cookieHeader: string | null;
  now?: number;
}): Promise<{ state: "open" | "closed"; comments: PublicComment[]; own: (PublicComment & { status: string })[]; stamp: string } | null> {
  const state = await commentsState(article.comments_mode);
  if (state === "hidden") return null;
  const token = readerToken(cookieHeader);
  const [comments, own] = await Promise.all([
    listArticleComments({ articleId: article.id }),
    token
      ? listOwnComments({ articleId: article.id, tokenHash: tokenHash(token), since: new Date(now - READER_DELETE_MINUTES * 60_000).toISOString() })
      : Promise.resolve([]),
  ]);
  return { state, comments, own, stamp: formStamp(now) };
}
