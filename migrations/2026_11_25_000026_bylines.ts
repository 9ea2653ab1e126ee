import cyrillicToTranslit from "cyrillic-to-translit-js";
import { sql, type Kysely } from "kysely";
import { now as nowIn, timestamp } from "./dialect";

// Issue 29 items 1, 2 and 6 (DESIGN §16, docs/decisions/028): bylines of one or more authors in
// order (staff users or guest contributors without an account), author and tag pages under a
// slug, and a per-article `noindex`. Every article's current author becomes its first byline.

const translit = cyrillicToTranslit({ preset: "uk" });

/** The slug rule of app/utils/slug.server.ts, repeated here: a migration imports nothing from the app. */
function slugOf(text: string): string {
  const slug = translit
    .transform(text.normalize("NFC").replace(/['’ʼ`]/g, ""), " ")
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  return slug.slice(0, 80).replace(/-+$/, "");
}

function freeSlug(base: string, taken: Set<string>, fallback: string): string {
  const root = base || fallback;
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? root : `${root}-${n}`;
    if (!taken.has(candidate)) {
      taken.add(candidate);
      return candidate;
    }
  }
}

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("guest_authors")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("slug", "text", (c) => c.notNull().unique())
    .addColumn("bio", "text")
    // A media library URL (or any https URL) of the photo.
    .addColumn("photo", "text")
    // JSON text: [{label, url}].
    .addColumn("links", "text")
    .addColumn("created_at", timestamp(db), (c) => c.notNull().defaultTo(nowIn(db)))
    .addColumn("updated_at", timestamp(db), (c) => c.notNull().defaultTo(nowIn(db)))
    .execute();

  await db.schema.alterTable("users").addColumn("slug", "text").execute();
  await db.schema.alterTable("users").addColumn("links", "text").execute();
  await db.schema.createIndex("users_slug").on("users").column("slug").unique().execute();

  await db.schema
    .createTable("article_authors")
    .addColumn("article_id", "text", (c) => c.notNull().references("articles.id").onDelete("cascade"))
    .addColumn("position", "integer", (c) => c.notNull())
    // Exactly one of the two: a staff user or a guest contributor.
    .addColumn("user_id", "text", (c) => c.references("users.id").onDelete("cascade"))
    .addColumn("guest_id", "text", (c) => c.references("guest_authors.id").onDelete("restrict"))
    .addPrimaryKeyConstraint("article_authors_pk", ["article_id", "position"])
    .addCheckConstraint("article_authors_one_kind", sql`(user_id is null) <> (guest_id is null)`)
    .execute();
  await db.schema.createIndex("article_authors_user").on("article_authors").columns(["user_id", "article_id"]).unique().execute();
  await db.schema.createIndex("article_authors_guest").on("article_authors").columns(["guest_id", "article_id"]).unique().execute();

  await db.schema
    .alterTable("articles")
    .addColumn("noindex", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  // The sitemaps walk published, indexable articles by date from an index alone, as before (issue 25).
  await sql`create index articles_indexable_published on articles (status, published_at) where noindex = 0`.execute(db);
  await db.schema.alterTable("tags").addColumn("slug", "text").execute();
  await db.schema.createIndex("tags_slug").on("tags").column("slug").unique().execute();

  // Backfill: the current author of every article is its first (and only) byline.
  await sql`insert into article_authors (article_id, position, user_id)
    select id, 0, author_id from articles where author_id is not null`.execute(db);

  // Slugs of staff (every user: a page exists once they sign an article) and of tags.
  const taken = new Set<string>();
  const users = await db.selectFrom("users").select(["id", "username", "name"]).orderBy("created_at").orderBy("id").execute();
  for (const u of users) {
    const slug = freeSlug(slugOf(u.name || u.username) || slugOf(u.username), taken, "avtor");
    await db.updateTable("users").set({ slug }).where("id", "=", u.id).execute();
  }
  const tagSlugs = new Set<string>();
  const tags = await db.selectFrom("tags").select(["id", "name"]).orderBy("id").execute();
  for (const t of tags) {
    await db
      .updateTable("tags")
      .set({ slug: freeSlug(slugOf(t.name), tagSlugs, "teh") })
      .where("id", "=", t.id)
      .execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("article_authors").execute();
  await db.schema.dropTable("guest_authors").execute();
  await db.schema.dropIndex("users_slug").execute();
  await db.schema.alterTable("users").dropColumn("slug").execute();
  await db.schema.alterTable("users").dropColumn("links").execute();
  await db.schema.dropIndex("articles_indexable_published").execute();
  await db.schema.alterTable("articles").dropColumn("noindex").execute();
  await db.schema.dropIndex("tags_slug").execute();
  await db.schema.alterTable("tags").dropColumn("slug").execute();
}
