import { randomUUID } from "node:crypto";
import type { DB } from "../../db/index";
import { withDatabaseOf } from "../database-of";

// Public-site specs write their own published articles straight into the e2e server's database
// (the newsroom's editor is another spec's business), each with unique slugs. The database is the
// server's: its SQLite file, or under `npm run test:pg` its PostgreSQL database.

export interface SeedOptions {
  slug: string;
  title: string;
  contentHtml?: string;
  categorySlug?: string;
  publishedAt?: string;
  oldSlug?: string;
}

/** Runs fn against the e2e server's database, then closes the connection. */
export function withServerDatabase<T>(fn: (db: DB) => Promise<T>): Promise<T> {
  return withDatabaseOf(process.env.E2E_DATA_DIR!, fn, { url: process.env.E2E_DATABASE_URL });
}

/** A category of its own (for paging tests); returns its slug. */
export async function createCategory(slug: string, name: string): Promise<string> {
  await withServerDatabase((db) => db.insertInto("categories").values({ id: randomUUID(), name, slug, description: "Тестова рубрика" }).execute());
  return slug;
}

/** A published article; returns its id. */
export async function createPublishedArticle(o: SeedOptions): Promise<string> {
  const id = randomUUID();
  await withServerDatabase(async (db) => {
    const category = o.categorySlug
      ? ((await db.selectFrom("categories").select("id").where("slug", "=", o.categorySlug).executeTakeFirst())?.id ?? null)
      : null;
    await db
      .insertInto("articles")
      .values({
        id,
        slug: o.slug,
        title: o.title,
        subtitle: `Підзаголовок: ${o.title}`,
        content: "текст",
        content_html: o.contentHtml ?? "<p>Текст.</p>",
        category_id: category,
        status: "published",
        published_at: o.publishedAt ?? new Date().toISOString(),
        featured_image: null,
      })
      .execute();
    if (o.oldSlug) await db.insertInto("slug_redirects").values({ old_slug: o.oldSlug, article_id: id }).execute();
  });
  return id;
}
