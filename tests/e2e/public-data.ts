import { randomUUID } from "node:crypto";
import { join } from "node:path";
import SQLite from "better-sqlite3";

// Public-site specs write their own published articles straight into the e2e server's database
// (the newsroom's editor is another spec's business), each with unique slugs.

export interface SeedOptions {
  slug: string;
  title: string;
  contentHtml?: string;
  categorySlug?: string;
  publishedAt?: string;
  oldSlug?: string;
}

function open() {
  return new SQLite(join(process.env.E2E_DATA_DIR!, "news.db"));
}

/** A category of its own (for paging tests); returns its slug. */
export function createCategory(slug: string, name: string): string {
  const sqlite = open();
  sqlite.prepare("insert into categories (id, name, slug, description) values (?, ?, ?, ?)").run(randomUUID(), name, slug, "Тестова рубрика");
  sqlite.close();
  return slug;
}

/** A published article; returns its id. */
export function createPublishedArticle(o: SeedOptions): string {
  const sqlite = open();
  const id = randomUUID();
  const category = o.categorySlug
    ? ((sqlite.prepare("select id from categories where slug = ?").get(o.categorySlug) as { id: string } | undefined)?.id ?? null)
    : null;
  sqlite
    .prepare(
      `insert into articles (id, slug, title, subtitle, content, content_html, category_id, status, published_at, featured_image)
       values (?, ?, ?, ?, ?, ?, ?, 'published', ?, null)`,
    )
    .run(id, o.slug, o.title, `Підзаголовок: ${o.title}`, "текст", o.contentHtml ?? "<p>Текст.</p>", category, o.publishedAt ?? new Date().toISOString());
  if (o.oldSlug) sqlite.prepare("insert into slug_redirects (old_slug, article_id) values (?, ?)").run(o.oldSlug, id);
  sqlite.close();
  return id;
}
