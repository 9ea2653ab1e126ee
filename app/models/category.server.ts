import { db } from "../../db/index";

// Categories (SPEC §3 'Category'). Reads used by the public site live here beside the newsroom's
// writes, so both sides share one model.

/** SPEC §2 menu order of the eight public categories. */
export const MENU_CATEGORY_SLUGS = [
  "technology",
  "medicine",
  "space-physics",
  "environment",
  "research",
  "ai-computing",
  "biology",
  "innovation",
] as const;

/** A category by slug, or undefined. */
export async function getCategoryBySlug({ slug }: { slug: string }) {
  return db
    .selectFrom("categories")
    .select(["id", "name", "slug", "description", "created_at"])
    .where("slug", "=", slug)
    .executeTakeFirst();
}

/** The categories linked from the public menu, in SPEC order (missing ones left out). */
export async function listMenuCategories() {
  const rows = await db
    .selectFrom("categories")
    .select(["id", "name", "slug"])
    .where("slug", "in", [...MENU_CATEGORY_SLUGS])
    .execute();
  const bySlug = new Map(rows.map((r) => [r.slug, r]));
  return MENU_CATEGORY_SLUGS.flatMap((slug) => bySlug.get(slug) ?? []);
}
