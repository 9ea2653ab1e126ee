import { db, type DB } from "../../db/index";

// The editor's server-side autosave copy (issue 15, DESIGN §11): one row per article and user,
// replaced every time (not a revision). It is offered back only while it is newer than the
// article's saved text (articles.updated_at), and a save by that user clears it.

/** The editor's values as the form holds them (text fields; app/services/article-form.server.ts). */
export type AutosaveFields = Record<string, string>;

export async function saveAutosave({ articleId, userId, fields, now = new Date() }: { articleId: string; userId: string; fields: AutosaveFields; now?: Date }) {
  const savedAt = now.toISOString();
  await db
    .insertInto("article_autosaves")
    .values({ article_id: articleId, user_id: userId, saved_at: savedAt, fields: JSON.stringify(fields) })
    .onConflict((oc) => oc.columns(["article_id", "user_id"]).doUpdateSet({ saved_at: savedAt, fields: JSON.stringify(fields) }))
    .execute();
  return { saved_at: savedAt };
}

/** The user's autosave of the article when it is newer than the saved article, else null. */
export async function getNewerAutosave({ articleId, userId }: { articleId: string; userId: string }) {
  const row = await db
    .selectFrom("article_autosaves")
    .innerJoin("articles", "articles.id", "article_autosaves.article_id")
    .select(["article_autosaves.saved_at", "article_autosaves.fields"])
    .where("article_autosaves.article_id", "=", articleId)
    .where("article_autosaves.user_id", "=", userId)
    .whereRef("article_autosaves.saved_at", ">", "articles.updated_at")
    .executeTakeFirst();
  return row ? { saved_at: row.saved_at, fields: JSON.parse(row.fields) as AutosaveFields } : null;
}

/** Drops the user's autosave of the article (discarded, or saved for real). */
export async function clearAutosave({ articleId, userId }: { articleId: string; userId: string }, executor: DB = db) {
  await executor.deleteFrom("article_autosaves").where("article_id", "=", articleId).where("user_id", "=", userId).execute();
}
