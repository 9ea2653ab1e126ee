import type { Kysely } from "kysely";

// Issue 17: the featured image's alt text and caption (credit) are stored with the article, and
// each media item has its own alt text (used when it is inserted into an article).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("articles").addColumn("featured_image_alt", "text").execute();
  await db.schema.alterTable("articles").addColumn("featured_image_caption", "text").execute();
  await db.schema.alterTable("media").addColumn("alt", "text").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("media").dropColumn("alt").execute();
  await db.schema.alterTable("articles").dropColumn("featured_image_caption").execute();
  await db.schema.alterTable("articles").dropColumn("featured_image_alt").execute();
}
