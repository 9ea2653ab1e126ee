import { sql, type SqlBool } from "kysely";
import type { User } from "../../db/schema";
import { unindexed } from "../../db/sql/text";
import type { ArticleStatus } from "../utils/newsroom-rules";

// Who may read which article in the newsroom (docs/decisions/019-what-reporters-read.md). Admins
// and editors read everything. A reporter reads their own articles in every status, and another
// author's only once it has passed the desk (published, scheduled or archived): never a colleague's
// draft or an article waiting for review. Every newsroom read applies this one rule: the admin list
// and its search (screen and GET /api/articles/admin), GET /api/articles/{id}, the dashboard's
// recent articles and an article's analytics. Editing (canEditArticle) is narrower still: a
// reporter edits only their own draft or review article, so what they may edit they may read.

type Actor = Pick<User, "id" | "role">;

/** The statuses in which a reporter reads an article that is not theirs. */
export const REPORTER_READS_OTHERS: readonly ArticleStatus[] = ["published", "scheduled", "archived"];

/** Whether actor may read this article (its text, title and fields) in the newsroom. */
export function canReadArticle(actor: Actor, article: { author_id?: string | null; author?: { id: string } | null; status: string }): boolean {
  if (actor.role !== "reporter") return true;
  const authorId = article.author_id ?? article.author?.id ?? null;
  return authorId === actor.id || REPORTER_READS_OTHERS.includes(article.status as ArticleStatus);
}

/**
 * The same rule as a filter on `articles` for a list or a count; undefined for who reads
 * everything. `plain` keeps SQLite from choosing an index by these columns (the admin search walks
 * the created_at index, docs/perf note in article-queries.server.ts).
 */
export function readableFilter(actor: Actor | undefined, { plain = false } = {}) {
  if (!actor || actor.role !== "reporter") return undefined;
  const others = sql.join(REPORTER_READS_OTHERS.map((s) => sql`${s}`));
  const [author, status] = plain
    ? [unindexed(sql.ref("articles.author_id")), unindexed(sql.ref("articles.status"))]
    : [sql.ref("articles.author_id"), sql.ref("articles.status")];
  return sql<SqlBool>`(${author} = ${actor.id} or ${status} in (${others}))`;
}
