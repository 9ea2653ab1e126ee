import { db, type DB } from "../../db/index";
import { DomainError } from "../utils/errors";
import { formatPublicDateTime } from "../utils/public-format";
import type { KeptFields } from "../utils/revision-fields";
import { getArticleById } from "./article-queries.server";

// Article revisions (issue 15, DESIGN §11): every save that changes a kept field writes one row, in
// the save's own transaction (hooks in createArticle/updateArticle, article-writes.server.ts). The
// newest REVISIONS_KEPT per article stay. Restoring one is a normal save through updateArticle
// (app/services/article-history.server.ts), so it is itself a revision.

export const REVISIONS_KEPT = 100;

export type { KeptFields };

/** Each kept field with its Ukrainian name, in the order a summary lists them. */
export const KEPT_FIELD_LABELS: Record<keyof KeptFields, string> = {
  title: "заголовок",
  subtitle: "підзаголовок",
  content: "вміст",
  tags: "теги",
  category_id: "категорію",
  seo_title: "SEO-заголовок",
  seo_description: "SEO-опис",
  featured_image: "головне зображення",
  featured_image_alt: "опис зображення",
  featured_image_caption: "підпис зображення",
};
const KEPT = Object.keys(KEPT_FIELD_LABELS) as (keyof KeptFields)[];

export const FIRST_VERSION = "Перша версія";

/** The line of a revision written by a restore (issue 31 item 17): "Відновлено з версії від 25.11.2026 о 14:05". */
export const restoredSummary = (revisionCreatedAt: string) => `Відновлено з версії від ${formatPublicDateTime(revisionCreatedAt)}`;

/** The kept fields of an article as stored now (inside the caller's transaction), or undefined. */
export async function keptFields(executor: DB, articleId: string): Promise<(KeptFields & { updated_at: string; updated_by: string | null }) | undefined> {
  const a = await getArticleById({ id: articleId }, executor);
  if (!a) return undefined;
  const row = await executor.selectFrom("articles").select(["updated_at", "updated_by"]).where("id", "=", articleId).executeTakeFirstOrThrow();
  return { ...pickKept(a), updated_at: row.updated_at, updated_by: row.updated_by };
}

/** Only the kept fields of an article or a revision. */
export function pickKept(a: KeptFields): KeptFields {
  return {
    title: a.title,
    subtitle: a.subtitle ?? null,
    content: a.content,
    tags: [...(a.tags ?? [])],
    category_id: a.category_id ?? null,
    seo_title: a.seo_title ?? null,
    seo_description: a.seo_description ?? null,
    featured_image: a.featured_image ?? null,
    featured_image_alt: a.featured_image_alt ?? null,
    featured_image_caption: a.featured_image_caption ?? null,
  };
}

/** The kept fields that differ between two versions. */
export function changedFields(before: KeptFields, after: KeptFields): (keyof KeptFields)[] {
  return KEPT.filter((k) => JSON.stringify(before[k] ?? null) !== JSON.stringify(after[k] ?? null));
}

/** One line in Ukrainian naming the changed fields: "Змінено: заголовок, вміст". */
export function summarise(changed: (keyof KeptFields)[]): string {
  return changed.length ? `Змінено: ${changed.map((k) => KEPT_FIELD_LABELS[k]).join(", ")}` : "Без змін";
}

async function insertRevision(trx: DB, row: { articleId: string; authorId: string | null; createdAt?: string; summary: string; fields: KeptFields }) {
  await trx
    .insertInto("article_revisions")
    .values({
      article_id: row.articleId,
      author_id: row.authorId,
      created_at: row.createdAt ?? new Date().toISOString(),
      title: row.fields.title,
      summary: row.summary,
      fields: JSON.stringify(row.fields),
    })
    .execute();
}

/**
 * The hook of a save: call it inside the save's transaction, after the write. `before` is what
 * keptFields answered before the write (null for a new article: its first revision). Writes one
 * revision when a kept field changed and prunes the article's history to the newest 100. An
 * article saved before revisions existed (or seeded) first gets its previous text as a revision,
 * so that version can be compared and restored too. Answers the kept fields the save changed (the
 * audit entry of the save names them).
 */
export async function recordRevision(
  trx: DB,
  {
    articleId,
    actorId,
    before,
    summary,
  }: {
    articleId: string;
    actorId: string;
    before: Awaited<ReturnType<typeof keptFields>> | null;
    /** Replaces the list of changed fields as the revision's line (a restore, issue 31 item 17). */
    summary?: string;
  },
): Promise<(keyof KeptFields)[]> {
  const after = await keptFields(trx, articleId);
  if (!after) return [];
  const fields = pickKept(after);
  if (!before) {
    await insertRevision(trx, { articleId, authorId: actorId, summary: FIRST_VERSION, fields });
    return [];
  }
  const changed = changedFields(before, fields);
  if (!changed.length) return [];
  const any = await trx.selectFrom("article_revisions").select("id").where("article_id", "=", articleId).limit(1).executeTakeFirst();
  if (!any) {
    await insertRevision(trx, { articleId, authorId: before.updated_by, createdAt: before.updated_at, summary: FIRST_VERSION, fields: pickKept(before) });
  }
  await insertRevision(trx, { articleId, authorId: actorId, summary: summary ?? summarise(changed), fields });
  await pruneRevisions(trx, articleId);
  return changed;
}

/** Keeps the newest REVISIONS_KEPT revisions of an article. */
export async function pruneRevisions(trx: DB, articleId: string) {
  await trx
    .deleteFrom("article_revisions")
    .where("article_id", "=", articleId)
    .where("id", "not in", (eb) =>
      eb.selectFrom("article_revisions").select("id").where("article_id", "=", articleId).orderBy("id", "desc").limit(REVISIONS_KEPT),
    )
    .execute();
}

export interface RevisionListItem {
  id: number;
  created_at: string;
  author: { username: string; name: string | null } | null;
  title: string;
  summary: string;
}

/** An article's revisions, newest first: `{data, total, skip, limit}`. */
export async function listRevisions({ articleId, skip, limit }: { articleId: string; skip: number; limit: number }) {
  const [rows, total] = await Promise.all([
    db
      .selectFrom("article_revisions as r")
      .leftJoin("users as u", "u.id", "r.author_id")
      .select(["r.id", "r.created_at", "r.title", "r.summary", "u.username", "u.name"])
      .where("r.article_id", "=", articleId)
      .orderBy("r.id", "desc")
      .limit(limit)
      .offset(skip)
      .execute(),
    db
      .selectFrom("article_revisions")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("article_id", "=", articleId)
      .executeTakeFirstOrThrow(),
  ]);
  const data: RevisionListItem[] = rows.map((r) => ({
    id: r.id,
    created_at: r.created_at,
    author: r.username ? { username: r.username, name: r.name } : null,
    title: r.title,
    summary: r.summary,
  }));
  return { data, total: Number(total.n), skip, limit };
}

/** One revision of an article with its kept fields; 404 when it is not one of this article's. */
export async function getRevision({ articleId, revisionId }: { articleId: string; revisionId: number }) {
  const row = await db
    .selectFrom("article_revisions as r")
    .leftJoin("users as u", "u.id", "r.author_id")
    .select(["r.id", "r.article_id", "r.created_at", "r.title", "r.summary", "r.fields", "u.username", "u.name"])
    .where("r.article_id", "=", articleId)
    .where("r.id", "=", revisionId)
    .executeTakeFirst();
  if (!row) throw new DomainError(404, "Версію не знайдено");
  return {
    ...(JSON.parse(row.fields) as KeptFields),
    id: row.id,
    article_id: row.article_id,
    created_at: row.created_at,
    author: row.username ? { username: row.username, name: row.name } : null,
    summary: row.summary,
  };
}

export type Revision = Awaited<ReturnType<typeof getRevision>>;
