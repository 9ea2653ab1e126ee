import { z } from "zod";
import { db, type DB } from "../../db/index";
import type { User } from "../../db/schema";
import { invalidatePublicCache } from "../page-store/page-cache.server";
import { DomainError } from "../utils/errors";

// Issue 31 item 4: a person who wrote articles is never deleted with their articles left to a
// placeholder author. Deleting them needs someone to take the articles over (`reassign_to`), in
// the same transaction as the delete; otherwise the answer is 409 and the way out is to deactivate
// the account instead (as WordPress asks).

export const ReassignSchema = z.object({
  reassign_to: z.string().trim().min(1, "Оберіть, кому передати статті").max(100).optional(),
});

/** How many articles (any status) each author has: the users screen's delete dialog. */
export async function articleCountsByAuthor(executor: DB = db): Promise<Map<string, number>> {
  const rows = await executor
    .selectFrom("articles")
    .select(["author_id", (eb) => eb.fn.countAll<number>().as("n")])
    .where("author_id", "is not", null)
    .groupBy("author_id")
    .execute();
  return new Map(rows.map((r) => [r.author_id as string, Number(r.n)]));
}

export async function countArticlesOf(executor: DB, userId: string): Promise<number> {
  const row = await executor
    .selectFrom("articles")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("author_id", "=", userId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export const hasArticlesMessage = (count: number) =>
  `У користувача є статті (${count}): оберіть, кому їх передати (reassign_to), або деактивуйте обліковий запис замість видалення`;

/**
 * Inside the delete's transaction: moves every article of `target` to `reassignTo`. Returns what
 * moved (for the audit entry); refuses (409) when there are articles and no one to take them.
 */
export async function reassignArticles(
  trx: DB,
  target: User,
  reassignTo: string | undefined,
): Promise<{ count: number; to: { id: string; username: string } | null }> {
  const count = await countArticlesOf(trx, target.id);
  if (count === 0) return { count, to: null };
  if (!reassignTo) throw new DomainError(409, hasArticlesMessage(count), "reassign_to");
  if (reassignTo === target.id) throw new DomainError(422, "Статті не можна передати тому, кого видаляють", "reassign_to");
  const heir = await trx.selectFrom("users").select(["id", "username", "is_active"]).where("id", "=", reassignTo).executeTakeFirst();
  if (!heir) throw new DomainError(422, "Користувача, якому передати статті, не знайдено", "reassign_to");
  if (heir.is_active !== 1) throw new DomainError(422, "Статті можна передати лише активному користувачеві", "reassign_to");
  await trx.updateTable("articles").set({ author_id: heir.id }).where("author_id", "=", target.id).execute();
  // Their bylines (issue 29) go to the heir too; where the heir already signs the article, the
  // leaver's line is dropped instead.
  const heirSigns = trx.selectFrom("article_authors").select("article_id").where("user_id", "=", heir.id);
  await trx.deleteFrom("article_authors").where("user_id", "=", target.id).where("article_id", "in", heirSigns).execute();
  await trx.updateTable("article_authors").set({ user_id: heir.id }).where("user_id", "=", target.id).execute();
  // The byline changes on their article pages, lists and feeds: every stored page goes.
  invalidatePublicCache();
  return { count, to: { id: heir.id, username: heir.username } };
}
