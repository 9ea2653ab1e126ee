import { sql, type Kysely } from "kysely";
import { now as nowIn, timestamp } from "./dialect";

// Issue 28 (items 1, 2; DESIGN §15; docs/decisions/026-comments.md): readers' comments on articles.
// One level of replies (a reply's parent is a top-level comment: the model holds that rule). The
// author's email is private (staff only); the address is kept for the per-address rate limit and
// for moderators (staff only); the reader's own deletion token is kept as a SHA-256 hash. The
// approved count per article is read from the (article_id, status) index, so the articles table,
// whose long text columns come last on SQLite (migration 000020), gains only `comments_mode`,
// read with the article's page, which reads its long columns anyway.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("comments")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("article_id", "text", (c) => c.notNull().references("articles.id").onDelete("cascade"))
    .addColumn("parent_id", "text", (c) => c.references("comments.id").onDelete("cascade"))
    .addColumn("author_name", "text", (c) => c.notNull().check(sql`length(author_name) between 1 and 80`))
    .addColumn("author_email", "text", (c) => c.check(sql`length(author_email) <= 254`))
    .addColumn("body", "text", (c) => c.notNull().check(sql`length(body) between 1 and 5000`))
    .addColumn("status", "text", (c) =>
      c
        .notNull()
        .defaultTo("pending")
        .check(sql`status in ('pending', 'approved', 'spam', 'deleted')`),
    )
    // Why the spam checks held it (a link count, a blocked word), shown to moderators; null otherwise.
    .addColumn("held_reason", "text")
    .addColumn("ip", "text")
    .addColumn("delete_token_hash", "text")
    .addColumn("created_at", timestamp(db), (c) => c.notNull().defaultTo(nowIn(db)))
    .addColumn("moderated_by", "text", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("moderated_at", timestamp(db))
    .execute();
  // The article page (approved, oldest first) and the cards' counts; the queues (newest first);
  // the rate limit (an address's comments in the last minutes); replies of a comment.
  await db.schema.createIndex("comments_article_status").on("comments").columns(["article_id", "status", "created_at"]).execute();
  await db.schema.createIndex("comments_status_created").on("comments").columns(["status", "created_at"]).execute();
  await db.schema.createIndex("comments_ip_created").on("comments").columns(["ip", "created_at"]).execute();
  await db.schema.createIndex("comments_parent").on("comments").column("parent_id").execute();

  await db.schema
    .alterTable("articles")
    .addColumn("comments_mode", "text", (c) =>
      c
        .notNull()
        .defaultTo("open")
        .check(sql`comments_mode in ('open', 'closed', 'hidden')`),
    )
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("comments").execute();
  await db.schema.alterTable("articles").dropColumn("comments_mode").execute();
}
