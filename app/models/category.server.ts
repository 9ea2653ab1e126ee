import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { announceChange, db, writeTransaction, type DB } from "../../db/index";
import { lowerCase, ukOrder } from "../../db/sql/text";
import { invalidatePublicCache } from "../page-store/page-cache.server";
import { DomainError } from "../utils/errors";
import type { CategoryInput } from "../utils/newsroom-rules";
import { firstFreeSlug, slugify } from "../utils/slug.server";
import { recordAudit, type Actor } from "./audit.server";
// A menu link shows its category's name or page's title and goes with it (ON DELETE CASCADE): each
// write forgets the cached menus here, and announces itself to other processes (docs/decisions/031).
import { forgetMenus } from "./menu-cache.server";

// Categories (SPEC §3 'Category'). Reads used by the public site live here beside the newsroom's
// writes, so both sides share one model.

/** SPEC §2 menu order of the eight public categories (the initial header menu, migration 000031 and the seed). */
export const MENU_CATEGORY_SLUGS = ["technology", "medicine", "space-physics", "environment", "research", "ai-computing", "biology", "innovation"] as const;

/** A category by slug, or undefined. */
export async function getCategoryBySlug({ slug }: { slug: string }) {
  return db.selectFrom("categories").select(["id", "name", "slug", "description", "created_at"]).where("slug", "=", slug).executeTakeFirst();
}

// ---------------------------------------------------------------------------------------------
// Newsroom: category management (SPEC §2 'Categories', DESIGN §5: admin and editor write,
// reporters read). The /admin/categories screen and /api/categories call these same functions.

export interface CategoryView {
  id: string;
  name: string;
  slug: string;
  description: string | null;
  created_at: string;
  updated_at: string;
  article_count: number;
}

function categoryQuery(executor: DB = db) {
  return executor.selectFrom("categories").select((eb) => [
    "categories.id",
    "categories.name",
    "categories.slug",
    "categories.description",
    "categories.created_at",
    "categories.updated_at",
    eb
      .selectFrom("articles")
      .select((e) => e.fn.countAll<number>().as("n"))
      .whereRef("articles.category_id", "=", "categories.id")
      .as("article_count"),
  ]);
}

const toView = (row: Omit<CategoryView, "article_count"> & { article_count: number | null }): CategoryView => ({
  ...row,
  article_count: Number(row.article_count ?? 0),
});

/** Every category by name, with how many articles use each ({ data, total }). */
export async function listCategories({ skip = 0, limit = 100 }: { skip?: number; limit?: number } = {}) {
  const [rows, total] = await Promise.all([
    categoryQuery()
      .orderBy(ukOrder(sql.ref("categories.name")))
      .orderBy("categories.id")
      .offset(skip)
      .limit(limit)
      .execute(),
    db
      .selectFrom("categories")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow(),
  ]);
  return { categories: rows.map(toView), total: Number(total.n) };
}

/**
 * Every category's id and name in Ukrainian alphabet order: the choices of the editor and the
 * admin list's filter. No article counts: they read the category index of every article (9 ms at
 * 100,000 articles, on every admin list request; issue 30 item 3).
 */
export async function listCategoryChoices(): Promise<{ id: string; name: string }[]> {
  return db
    .selectFrom("categories")
    .select(["categories.id", "categories.name"])
    .orderBy(ukOrder(sql.ref("categories.name")))
    .orderBy("categories.id")
    .execute();
}

/** A category by id, or undefined. */
export async function getCategoryById({ id }: { id: string }, executor: DB = db): Promise<CategoryView | undefined> {
  const row = await categoryQuery(executor).where("categories.id", "=", id).executeTakeFirst();
  return row ? toView(row) : undefined;
}

async function slugTaken(trx: DB, slug: string, exceptId?: string) {
  const row = await trx
    .selectFrom("categories")
    .select("id")
    .where("slug", "=", slug)
    .$if(Boolean(exceptId), (qb) => qb.where("id", "!=", exceptId!))
    .executeTakeFirst();
  return Boolean(row);
}

export const DUPLICATE_NAME = "Категорія з такою назвою вже існує (великі й малі літери не розрізняються)";

/** 409 when another category has this name whatever its case (issue 31 item 8; migration 000030 backs it with an index). */
async function refuseDuplicateName(trx: DB, name: string, exceptId?: string) {
  const twin = await trx
    .selectFrom("categories")
    .select("id")
    .where(lowerCase(sql.ref("name")), "=", name.toLowerCase())
    .$if(Boolean(exceptId), (qb) => qb.where("id", "!=", exceptId!))
    .executeTakeFirst();
  if (twin) throw new DomainError(409, DUPLICATE_NAME, "name");
}

/** Creates a category; the slug comes from the name (unique), or is given (409 when taken). */
export async function createCategory({ actor, input }: { actor: Actor; input: CategoryInput }): Promise<CategoryView> {
  const id = randomUUID();
  await writeTransaction(async (trx) => {
    await refuseDuplicateName(trx, input.name);
    let slug = input.slug;
    if (slug && (await slugTaken(trx, slug))) throw new DomainError(409, "Категорія з таким slug уже існує", "slug");
    slug ??= await firstFreeSlug(slugify(input.name) || "katehoriia", (s) => slugTaken(trx, s));
    const now = new Date().toISOString();
    await trx.insertInto("categories").values({ id, name: input.name, slug, description: input.description, created_at: now, updated_at: now }).execute();
    await recordAudit(trx, { actor, action: "category.create", object: { type: "category", id, label: input.name }, details: { slug } });
  });
  forgetMenus();
  invalidatePublicCache();
  return (await getCategoryById({ id }))!;
}

/** Changes name, description and (when given) slug; an empty slug keeps the current one. */
export async function updateCategory({ actor, id, input }: { actor: Actor; id: string; input: CategoryInput }): Promise<CategoryView> {
  await writeTransaction(async (trx) => {
    const current = await trx.selectFrom("categories").select(["id", "slug", "name", "description"]).where("id", "=", id).executeTakeFirst();
    if (!current) throw new DomainError(404, "Категорію не знайдено");
    await refuseDuplicateName(trx, input.name, id);
    const slug = input.slug ?? current.slug;
    if (slug !== current.slug && (await slugTaken(trx, slug, id))) {
      throw new DomainError(409, "Категорія з таким slug уже існує", "slug");
    }
    await trx
      .updateTable("categories")
      .set({ name: input.name, description: input.description, slug, updated_at: new Date().toISOString() })
      .where("id", "=", id)
      .execute();
    await announceChange(trx);
    const fields = [
      current.name !== input.name && "name",
      (current.description ?? null) !== (input.description ?? null) && "description",
      current.slug !== slug && "slug",
    ].filter((f): f is string => Boolean(f));
    // A save that changed nothing is not a change (the audit log records changes).
    if (fields.length === 0) return;
    await recordAudit(trx, {
      actor,
      action: "category.update",
      object: { type: "category", id, label: input.name },
      details: { fields, ...(current.name !== input.name && { from: current.name }) },
    });
  });
  forgetMenus();
  invalidatePublicCache();
  return (await getCategoryById({ id }))!;
}

/** Deletes an unused category; 409 while any article (of any status) still belongs to it. */
export async function deleteCategory({ actor, id }: { actor: Actor; id: string }): Promise<void> {
  await writeTransaction(async (trx) => {
    const current = await getCategoryById({ id }, trx);
    if (!current) throw new DomainError(404, "Категорію не знайдено");
    if (current.article_count > 0) {
      throw new DomainError(
        409,
        `Категорію «${current.name}» не можна видалити: її використовують статті (${current.article_count}). Спершу перенесіть їх до іншої категорії.`,
      );
    }
    await trx.deleteFrom("categories").where("id", "=", id).execute();
    await announceChange(trx);
    await recordAudit(trx, { actor, action: "category.delete", object: { type: "category", id, label: current.name }, details: { slug: current.slug } });
  });
  forgetMenus();
  invalidatePublicCache();
}
