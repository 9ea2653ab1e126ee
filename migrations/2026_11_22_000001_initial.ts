import { sql, type Kysely } from "kysely";
import { autoId, isPostgres, now as nowIn, rowid, timestamp } from "./dialect";

// Every table of DESIGN §4. Written against Kysely<any>; imports nothing from the app.
// Timestamps are ISO-8601 UTC text on SQLite and timestamptz on PostgreSQL; booleans are 0/1
// integers on both (SQLite has neither type; ./dialect.ts names what differs).

export async function up(db: Kysely<any>): Promise<void> {
  const now = nowIn(db);
  const ts = timestamp(db);
  const pg = isPostgres(db);
  if (pg) {
    // Tag names are unique whatever their case (SQLite: `collate nocase`); titles sort in
    // Ukrainian order, case and punctuation aside (SQLite: the function uk_sort_key).
    await sql`create collation if not exists tag_name_ci (provider = icu, locale = 'und-u-ks-level2', deterministic = false)`.execute(db);
    await sql`create collation if not exists uk_sort (provider = icu, locale = 'uk-u-ka-shifted', deterministic = false)`.execute(db);
  }
  await db.schema
    .createTable("users")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("username", "text", (c) => c.notNull().unique())
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("password_hash", "text", (c) => c.notNull())
    .addColumn("role", "text", (c) => c.notNull().check(sql`role in ('admin', 'editor', 'reporter')`))
    .addColumn("is_active", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("name", "text")
    .addColumn("bio", "text")
    .addColumn("avatar", "text")
    .addColumn("last_login", ts)
    .addColumn("created_at", ts, (c) => c.notNull().defaultTo(now))
    .addColumn("updated_at", ts, (c) => c.notNull().defaultTo(now))
    .execute();

  // The id is the SHA-256 of the token the client holds (cookie or bearer), so a copy of the
  // database does not hand out live sessions.
  await db.schema
    .createTable("sessions")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("data", "text", (c) => c.notNull().defaultTo("{}"))
    .addColumn("kind", "text", (c) =>
      c
        .notNull()
        .defaultTo("cookie")
        .check(sql`kind in ('cookie', 'bearer')`),
    )
    .addColumn("user_agent", "text")
    .addColumn("created_at", ts, (c) => c.notNull().defaultTo(now))
    .addColumn("last_seen_at", ts, (c) => c.notNull().defaultTo(now))
    .addColumn("expires_at", ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("sessions_user_id").on("sessions").column("user_id").execute();
  await db.schema.createIndex("sessions_expires_at").on("sessions").column("expires_at").execute();

  await db.schema
    .createTable("categories")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("slug", "text", (c) => c.notNull().unique())
    .addColumn("description", "text")
    .addColumn("created_at", ts, (c) => c.notNull().defaultTo(now))
    .addColumn("updated_at", ts, (c) => c.notNull().defaultTo(now))
    .execute();

  await db.schema
    .createTable("articles")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("slug", "text", (c) => c.notNull().unique())
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("subtitle", "text")
    .addColumn("content", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("content_html", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("category_id", "text", (c) => c.references("categories.id").onDelete("restrict"))
    .addColumn("author_id", "text", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("status", "text", (c) =>
      c
        .notNull()
        .defaultTo("draft")
        .check(sql`status in ('draft', 'published', 'archived')`),
    )
    .addColumn("published_at", ts)
    .addColumn("created_at", ts, (c) => c.notNull().defaultTo(now))
    .addColumn("updated_at", ts, (c) => c.notNull().defaultTo(now))
    .addColumn("updated_by", "text", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("version", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("views", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("seo_title", "text", (c) => c.check(sql`length(seo_title) <= 60`))
    .addColumn("seo_description", "text", (c) => c.check(sql`length(seo_description) <= 160`))
    .addColumn("meta_keywords", "text")
    .addColumn("og_image", "text")
    .addColumn("canonical_url", "text")
    .addColumn("featured_image", "text")
    .$call(rowid(db))
    .execute();
  await db.schema.createIndex("articles_status_published").on("articles").columns(["status", "published_at"]).execute();
  await db.schema.createIndex("articles_category_published").on("articles").columns(["category_id", "status", "published_at"]).execute();
  await db.schema.createIndex("articles_created_at").on("articles").column("created_at").execute();
  await db.schema.createIndex("articles_author_id").on("articles").column("author_id").execute();

  await db.schema
    .createTable("tags")
    .$call(autoId(db))
    .addColumn("name", "text", (c) =>
      c
        .notNull()
        .unique()
        .modifyEnd(pg ? sql`collate tag_name_ci` : sql`collate nocase`),
    )
    .execute();
  await db.schema
    .createTable("article_tags")
    .addColumn("article_id", "text", (c) => c.notNull().references("articles.id").onDelete("cascade"))
    .addColumn("tag_id", "integer", (c) => c.notNull().references("tags.id").onDelete("cascade"))
    .addColumn("position", "integer", (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint("article_tags_pk", ["article_id", "tag_id"])
    .$call(rowid(db))
    .execute();
  await db.schema.createIndex("article_tags_tag_id").on("article_tags").column("tag_id").execute();

  await db.schema
    .createTable("slug_redirects")
    .addColumn("old_slug", "text", (c) => c.primaryKey())
    .addColumn("article_id", "text", (c) => c.notNull().references("articles.id").onDelete("cascade"))
    .addColumn("created_at", ts, (c) => c.notNull().defaultTo(now))
    .execute();

  // One counter per day and path; article_id is set for article pages so charts can group.
  await db.schema
    .createTable("page_views")
    .addColumn("day", "text", (c) => c.notNull())
    .addColumn("path", "text", (c) => c.notNull())
    .addColumn("article_id", "text", (c) => c.references("articles.id").onDelete("set null"))
    .addColumn("views", "integer", (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint("page_views_pk", ["day", "path"])
    .execute();
  await db.schema.createIndex("page_views_article_day").on("page_views").columns(["article_id", "day"]).execute();

  // One row per article placed in a block; deleting an article takes it off the homepage.
  await db.schema
    .createTable("homepage_blocks")
    .addColumn("block_id", "text", (c) => c.notNull().check(sql`block_id in ('hero', 'main', 'sidebar', 'trending', 'featured')`))
    .addColumn("position", "integer", (c) => c.notNull())
    .addColumn("article_id", "text", (c) => c.notNull().references("articles.id").onDelete("cascade"))
    .addPrimaryKeyConstraint("homepage_blocks_pk", ["block_id", "position"])
    .execute();

  await db.schema
    .createTable("settings")
    .addColumn("key", "text", (c) => c.primaryKey())
    .addColumn("value", "text", (c) => c.notNull())
    .addColumn("updated_at", ts, (c) => c.notNull().defaultTo(now))
    .execute();

  await db.schema
    .createTable("media")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("file_name", "text", (c) => c.notNull())
    .addColumn("stored_path", "text", (c) => c.notNull().unique())
    .addColumn("mime", "text", (c) => c.notNull())
    .addColumn("size", "integer", (c) => c.notNull())
    .addColumn("width", "integer")
    .addColumn("height", "integer")
    .addColumn("uploaded_by", "text", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("created_at", ts, (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema.createIndex("media_created_at").on("media").column("created_at").execute();

  await db.schema
    .createTable("login_attempts")
    .$call(autoId(db))
    .addColumn("username", "text", (c) => c.notNull())
    .addColumn("ip", "text", (c) => c.notNull())
    .addColumn("success", "integer", (c) => c.notNull())
    .addColumn("created_at", ts, (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema.createIndex("login_attempts_username").on("login_attempts").columns(["username", "created_at"]).execute();
  await db.schema.createIndex("login_attempts_ip").on("login_attempts").columns(["ip", "created_at"]).execute();

  // Full-text index (DESIGN §4). Kept by the article model inside the same transaction as the
  // article write; article ids are text, so the id is an unindexed column rather than the rowid.
  if (pg) {
    // The same columns in a table of its own; `document` weighs title A, subtitle B, tags C,
    // content D for ts_rank (db/sql/search.ts), and a GIN index serves prefix queries.
    await sql`create table articles_fts (
      rowid bigint primary key, article_id text not null, title text not null default '',
      subtitle text not null default '', content text not null default '', tags text not null default '',
      document tsvector generated always as (
        setweight(to_tsvector('simple', title), 'A') || setweight(to_tsvector('simple', subtitle), 'B') ||
        setweight(to_tsvector('simple', tags), 'C') || setweight(to_tsvector('simple', content), 'D')
      ) stored
    )`.execute(db);
    await sql`create index articles_fts_document on articles_fts using gin (document)`.execute(db);
  } else {
    await sql`create virtual table articles_fts using fts5(
      article_id unindexed, title, subtitle, content, tags,
      tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3'
    )`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    "articles_fts",
    "login_attempts",
    "media",
    "settings",
    "homepage_blocks",
    "page_views",
    "slug_redirects",
    "article_tags",
    "tags",
    "articles",
    "categories",
    "sessions",
    "users",
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
