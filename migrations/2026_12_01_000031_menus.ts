import { randomUUID } from "node:crypto";
import { sql, type Kysely } from "kysely";
import { now as nowIn, timestamp } from "./dialect";

// Issue 31 item 5, DESIGN §17: the header menu and the footer quick links (docs/decisions/031).
// One row per link: which menu, its place, an optional label (empty: the target's own name, so a
// renamed category or page renames its link), and the target: the home page, a category, a page or
// an external https URL. Category and page links go with their target (ON DELETE CASCADE, in the
// deleting transaction), so a deleted category or page never leaves a broken link behind.
//
// The initial content is what the public layout showed before this migration, so nothing visible
// changes: the header is SPEC §2's 'Latest news' (to /) and then the eight SPEC categories that
// exist, in SPEC order (on a new site the categories are made after the migrations, by the seed,
// which adds their links: db/seed.ts); the footer links the six pages of migration 000029 in their
// order (they are drafts on a new site, and a link to an unpublished page is not shown).

const SPEC_CATEGORY_SLUGS = ["technology", "medicine", "space-physics", "environment", "research", "ai-computing", "biology", "innovation"];

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("menu_items")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("menu", "text", (c) => c.notNull().check(sql`menu in ('header', 'footer')`))
    .addColumn("position", "integer", (c) => c.notNull())
    .addColumn("label", "text")
    .addColumn("kind", "text", (c) => c.notNull().check(sql`kind in ('home', 'category', 'page', 'url')`))
    .addColumn("category_id", "text", (c) => c.references("categories.id").onDelete("cascade"))
    .addColumn("page_id", "text", (c) => c.references("pages.id").onDelete("cascade"))
    .addColumn("url", "text")
    .addColumn("created_at", timestamp(db), (c) => c.notNull().defaultTo(nowIn(db)))
    .addColumn("updated_at", timestamp(db), (c) => c.notNull().defaultTo(nowIn(db)))
    // Exactly the target its kind names, nothing else.
    .addCheckConstraint(
      "menu_items_target",
      sql`(kind = 'home' and category_id is null and page_id is null and url is null)
        or (kind = 'category' and category_id is not null and page_id is null and url is null)
        or (kind = 'page' and page_id is not null and category_id is null and url is null)
        or (kind = 'url' and url is not null and category_id is null and page_id is null)`,
    )
    .execute();
  await db.schema.createIndex("menu_items_menu_position").on("menu_items").columns(["menu", "position"]).execute();
  await db.schema.createIndex("menu_items_category").on("menu_items").column("category_id").execute();
  await db.schema.createIndex("menu_items_page").on("menu_items").column("page_id").execute();

  const categories: { id: string; slug: string }[] = await db
    .selectFrom("categories")
    .select(["id", "slug"])
    .where("slug", "in", SPEC_CATEGORY_SLUGS)
    .execute();
  const bySlug = new Map(categories.map((c) => [c.slug, c.id]));
  const header = [
    { kind: "home", label: "Latest news", category_id: null },
    ...SPEC_CATEGORY_SLUGS.flatMap((slug) => (bySlug.has(slug) ? [{ kind: "category", label: null, category_id: bySlug.get(slug)! }] : [])),
  ];
  const pages: { id: string }[] = await db.selectFrom("pages").select("id").orderBy("position").orderBy("title").execute();
  const rows = [
    ...header.map((item, position) => ({ id: randomUUID(), menu: "header", position, ...item })),
    ...pages.map((p, position) => ({ id: randomUUID(), menu: "footer", position, kind: "page", label: null, page_id: p.id })),
  ];
  if (rows.length) await db.insertInto("menu_items").values(rows).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("menu_items").execute();
}
