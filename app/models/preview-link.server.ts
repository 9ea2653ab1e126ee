import { createHash, randomBytes } from "node:crypto";
import { db, writeTransaction } from "../../db/index";

// Preview links (issue 15, DESIGN §11): `/preview/{token}` shows an article, in any status, as
// readers would see it, to someone outside the newsroom. The token is 32 random bytes (base64url);
// only its SHA-256 is stored, so a copy of the database opens no preview. One active link per
// article: a new link replaces the previous one (the old URL stops working). A link ends after
// PREVIEW_DAYS, when revoked, or when its article is deleted (the row goes with it, FK cascade).

export const PREVIEW_DAYS = 7;

const hashOf = (token: string) => createHash("sha256").update(token).digest("hex");
const TOKEN_RE = /^[A-Za-z0-9_-]{43}$/;

/** A new link for the article, replacing any earlier one: the token is returned once, never stored. */
export async function createPreviewLink({ articleId, actorId, now = new Date() }: { articleId: string; actorId: string; now?: Date }) {
  const token = randomBytes(32).toString("base64url");
  const expiresAt = new Date(now.getTime() + PREVIEW_DAYS * 24 * 60 * 60 * 1000).toISOString();
  await writeTransaction(async (trx) => {
    await trx.deleteFrom("preview_links").where("article_id", "=", articleId).execute();
    await trx
      .insertInto("preview_links")
      .values({ token_hash: hashOf(token), article_id: articleId, created_by: actorId, created_at: now.toISOString(), expires_at: expiresAt })
      .execute();
  });
  return { token, expires_at: expiresAt };
}

/** Ends the article's preview link, if it has one. */
export async function revokePreviewLink({ articleId }: { articleId: string }): Promise<void> {
  await db.deleteFrom("preview_links").where("article_id", "=", articleId).execute();
}

/** The article a live token opens, or undefined (unknown, malformed, revoked or expired alike). */
export async function previewArticleId({ token, now = new Date() }: { token: string; now?: Date }): Promise<string | undefined> {
  if (!TOKEN_RE.test(token)) return undefined;
  const row = await db
    .selectFrom("preview_links")
    .select("article_id")
    .where("token_hash", "=", hashOf(token))
    .where("expires_at", ">", now.toISOString())
    .executeTakeFirst();
  return row?.article_id;
}
