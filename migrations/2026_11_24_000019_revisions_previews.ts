import type { Kysely } from "kysely";
import { autoId, now as nowIn, timestamp } from "./dialect";

// Issue 15: article revisions (the kept fields of each save), one server-side autosave copy per
// article and user, and preview links (only the SHA-256 of the token is stored). Every row goes
// with its article (FK cascade), so deleting an article revokes its preview link.
export async function up(db: Kysely<any>): Promise<void> {
  const now = nowIn(db);
  const ts = timestamp(db);
  await db.schema
    .createTable("article_revisions")
    .$call(autoId(db))
    .addColumn("article_id", "text", (c) => c.notNull().references("articles.id").onDelete("cascade"))
    .addColumn("author_id", "text", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("created_at", ts, (c) => c.notNull().defaultTo(now))
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("summary", "text", (c) => c.notNull())
    // JSON of the kept fields: title, subtitle, content, tags, category_id, seo_title,
    // seo_description, featured_image, featured_image_alt, featured_image_caption.
    .addColumn("fields", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("article_revisions_article").on("article_revisions").columns(["article_id", "id"]).execute();

  await db.schema
    .createTable("article_autosaves")
    .addColumn("article_id", "text", (c) => c.notNull().references("articles.id").onDelete("cascade"))
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("saved_at", ts, (c) => c.notNull().defaultTo(now))
    .addColumn("fields", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("article_autosaves_pk", ["article_id", "user_id"])
    .execute();

  await db.schema
    .createTable("preview_links")
    .addColumn("token_hash", "text", (c) => c.primaryKey())
    .addColumn("article_id", "text", (c) => c.notNull().unique().references("articles.id").onDelete("cascade"))
    .addColumn("created_by", "text", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("created_at", ts, (c) => c.notNull().defaultTo(now))
    .addColumn("expires_at", ts, (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("preview_links").execute();
  await db.schema.dropTable("article_autosaves").execute();
  await db.schema.dropTable("article_revisions").execute();
}
