import { createHash, randomBytes } from "node:crypto";
import { db, writeTransaction, type DB } from "../../db/index";
import { DomainError } from "../utils/errors";
import { formatPublicDateTime } from "../utils/public-format";
import { recordAudit, type Actor } from "./audit.server";

// Preview links (issue 15, DESIGN §11): `/preview/{token}` shows an article, in any status, as
// readers would see it, to someone outside the newsroom. The token is 32 random bytes (base64url);
// only its SHA-256 is stored, so a copy of the database opens no preview. One active link per
// article: while one is live a new one is made only on request (`replace`, issue 31 item 10), and
// then the old URL stops working. A link ends after
// PREVIEW_DAYS, when revoked, or when its article is deleted (the row goes with it, FK cascade).

export const PREVIEW_DAYS = 7;

const hashOf = (token: string) => createHash("sha256").update(token).digest("hex");
const TOKEN_RE = /^[A-Za-z0-9_-]{43}$/;

const articleObject = async (trx: DB, articleId: string) => {
  const row = await trx.selectFrom("articles").select("title").where("id", "=", articleId).executeTakeFirst();
  return { type: "article" as const, id: articleId, label: row?.title ?? null };
};

/** The article's live link, if it has one: when it was made and when it ends (the token itself is never kept). */
export async function livePreviewLink({ articleId, now = new Date() }: { articleId: string; now?: Date }, executor: DB = db) {
  return executor
    .selectFrom("preview_links")
    .select(["created_at", "expires_at"])
    .where("article_id", "=", articleId)
    .where("expires_at", ">", now.toISOString())
    .executeTakeFirst();
}

/** A live link exists and the caller did not ask to replace it (409). */
export class PreviewLinkLive extends DomainError {
  constructor(readonly expiresAt: string) {
    super(
      409,
      `Посилання для перегляду вже діє до ${formatPublicDateTime(expiresAt)}. Нове посилання замінить його: старе перестане відкриватися. Щоб замінити, підтвердьте заміну.`,
    );
  }
}

/**
 * A new link for the article: the token is returned once, never stored (nor written in the audit
 * entry: it opens the article). While a link is live, only with `replace` (the old one ends), else
 * PreviewLinkLive: a second press must not silently kill a link already sent to someone.
 */
export async function createPreviewLink({
  articleId,
  actor,
  replace = false,
  now = new Date(),
}: {
  articleId: string;
  actor: Actor;
  replace?: boolean;
  now?: Date;
}) {
  const token = randomBytes(32).toString("base64url");
  const expiresAt = new Date(now.getTime() + PREVIEW_DAYS * 24 * 60 * 60 * 1000).toISOString();
  await writeTransaction(async (trx) => {
    const live = await livePreviewLink({ articleId, now }, trx);
    if (live && !replace) throw new PreviewLinkLive(live.expires_at);
    await trx.deleteFrom("preview_links").where("article_id", "=", articleId).execute();
    await trx
      .insertInto("preview_links")
      .values({ token_hash: hashOf(token), article_id: articleId, created_by: actor.id, created_at: now.toISOString(), expires_at: expiresAt })
      .execute();
    await recordAudit(trx, {
      actor,
      action: "article.preview_link",
      object: await articleObject(trx, articleId),
      details: { expires_at: expiresAt, ...(live && { replaced: true }) },
    });
  });
  return { token, expires_at: expiresAt };
}

/** Ends the article's preview link, if it has one. */
export async function revokePreviewLink({ articleId, actor }: { articleId: string; actor: Actor }): Promise<void> {
  await writeTransaction(async (trx) => {
    const result = await trx.deleteFrom("preview_links").where("article_id", "=", articleId).executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) return;
    await recordAudit(trx, { actor, action: "article.preview_link_revoke", object: await articleObject(trx, articleId) });
  });
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
