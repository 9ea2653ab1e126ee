import { randomUUID } from "node:crypto";
import { sql, type Kysely } from "kysely";
import { now as nowIn, timestamp } from "./dialect";

// Issue 31 item 5, DESIGN §17: static pages (docs/decisions/031). Title, slug, the markdown body
// and its rendered, sanitised HTML (rendered by the app's CPU pool when saved, as articles are),
// published or draft, SEO title and description. A new site gets the six footer pages of SPEC §2
// as drafts with placeholder text (the HTML written here is exactly what the renderer makes of one
// paragraph); the footer links to those that are published. (The menus table of DESIGN §17 is not
// part of this migration: the menu editor is not built yet, see the decision.)

export const FOOTER_PAGES = [
  { slug: "about", title: "Про нас" },
  { slug: "contact", title: "Контакти" },
  { slug: "research-guidelines", title: "Правила для дослідників" },
  { slug: "privacy-policy", title: "Політика конфіденційності" },
  { slug: "terms-of-use", title: "Умови використання" },
  { slug: "editorial-standards", title: "Редакційні стандарти" },
];

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("pages")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("slug", "text", (c) => c.notNull().unique())
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("body", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("body_html", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("status", "text", (c) =>
      c
        .notNull()
        .defaultTo("draft")
        .check(sql`status in ('published', 'draft')`),
    )
    .addColumn("seo_title", "text")
    .addColumn("seo_description", "text")
    .addColumn("position", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", timestamp(db), (c) => c.notNull().defaultTo(nowIn(db)))
    .addColumn("updated_at", timestamp(db), (c) => c.notNull().defaultTo(nowIn(db)))
    .execute();

  const placeholder = "Цю сторінку ще не заповнено. Редакція додасть текст найближчим часом.";
  await db
    .insertInto("pages")
    .values(
      FOOTER_PAGES.map((p, position) => ({
        id: randomUUID(),
        slug: p.slug,
        title: p.title,
        body: placeholder,
        body_html: `<p>${placeholder}</p>\n`,
        status: "draft",
        position,
      })),
    )
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("pages").execute();
}
