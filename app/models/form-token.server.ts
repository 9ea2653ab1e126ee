import { randomBytes } from "node:crypto";
import type { DB } from "../../db/index";

// Issue 31 item 13: the new-article form carries a one-time token (made when the form is served).
// The save that creates the article spends the token in its own transaction; a second submit of
// the same form (pressed again before the page changed, without JavaScript) finds the token spent
// and is led to the article the first submit made instead of making another. A submit that failed
// (say, no title) spent nothing, so the same form can be sent again after fixing it.

const TOKEN = /^[A-Za-z0-9_-]{22,64}$/;
const KEEP_MS = 2 * 86_400_000;

/** A fresh token for one new-article form. */
export function issueFormToken(): string {
  return randomBytes(18).toString("base64url");
}

/** The token when it has the form of one, else null (an old page without a token still works). */
export function formTokenOf(value: unknown): string | null {
  return typeof value === "string" && TOKEN.test(value) ? value : null;
}

/** Thrown inside the create transaction when the form's token was spent: the article it made. */
export class FormTokenSpent extends Error {
  constructor(readonly articleId: string) {
    super("form token already spent");
  }
}

/** Throws FormTokenSpent when this user already spent the token (and its article still exists). */
export async function refuseSpentFormToken(trx: DB, { token, userId }: { token: string; userId: string }) {
  const spent = await trx
    .selectFrom("form_tokens")
    .innerJoin("articles", "articles.id", "form_tokens.article_id")
    .select("form_tokens.article_id")
    .where("form_tokens.token", "=", token)
    .where("form_tokens.user_id", "=", userId)
    .executeTakeFirst();
  if (spent?.article_id) throw new FormTokenSpent(spent.article_id);
}

/** Records the token as spent by the article it made (and forgets tokens older than two days). */
export async function spendFormToken(trx: DB, { token, userId, articleId }: { token: string; userId: string; articleId: string }) {
  await trx
    .deleteFrom("form_tokens")
    .where("created_at", "<", new Date(Date.now() - KEEP_MS).toISOString())
    .execute();
  await trx.deleteFrom("form_tokens").where("token", "=", token).execute();
  await trx.insertInto("form_tokens").values({ token, user_id: userId, article_id: articleId, created_at: new Date().toISOString() }).execute();
}
