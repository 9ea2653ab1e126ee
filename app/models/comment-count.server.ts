import type { ExpressionBuilder } from "kysely";
import type { Database } from "../../db/schema";

/**
 * An article's approved comments as a `comment_count` column of the same query (issue 28): read
 * from the (article_id, status) index for the rows a page shows. Only public reads ordered by an
 * index use it (a sorter would count every matching row before its LIMIT).
 */
export function approvedCommentCount(eb: ExpressionBuilder<Database, "articles">) {
  return eb
    .selectFrom("comments")
    .select((c) => c.fn.countAll<number | string>().as("n"))
    .whereRef("comments.article_id", "=", "articles.id")
    .where("comments.status", "=", "approved")
    .as("comment_count");
}
