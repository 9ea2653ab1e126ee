import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { z } from "zod";
import { announceChange, db, writeTransaction, type DB } from "../../db/index";
import type { MenuItemKind, MenuName } from "../../db/schema-site";
import { ukOrder } from "../../db/sql/text";
import { invalidatePublicCache } from "../page-store/page-cache.server";
import { DomainError } from "../utils/errors";
import { MENU_KINDS, MENU_NAMES, MENUS } from "../utils/menus";
import { recordAudit, type Actor } from "./audit.server";
import { cachedMenus, forgetMenus, keepMenus, menusGeneration } from "./menu-cache.server";
import { getSettings, isHttpsUrl, saveSettings, SOCIAL_NETWORKS, SocialSettingsSchema, type SocialSettings } from "./settings.server";

// The header menu and the footer quick links (issue 31 item 5, DESIGN §17, docs/decisions/031).
// One model for the /admin/menu screen and GET/PUT /api/menu: saveMenus replaces a menu's items
// as a whole list (the screen's small edits are computed on the current list and saved the same
// way). Public pages read getPublicMenus, cached in process and invalidated across processes
// (menu-cache.server.ts). A category or page that a link points at takes the link with it when
// deleted (ON DELETE CASCADE, migration 000031); a link to an unpublished page is not shown.

/** More links than a header or footer can show is a mistake, not a menu. */
export const MAX_MENU_ITEMS = 30;
const HOME_LABEL = "Головна";

const blankToNull = (v: unknown) => (typeof v === "string" && v.trim() === "" ? null : v);
const optionalId = z.preprocess(blankToNull, z.string({ invalid_type_error: "Має бути текстом" }).max(100).nullish());

/** One link as the API and the screen send it; an empty label means the target's own name. */
export const MenuItemInputSchema = z
  .object({
    id: optionalId,
    label: z.preprocess(blankToNull, z.string({ invalid_type_error: "Має бути текстом" }).trim().max(60, "Не більше 60 символів").nullish()),
    kind: z.enum(MENU_KINDS, { errorMap: () => ({ message: "Оберіть, куди веде посилання: головна, рубрика, сторінка або адреса https" }) }),
    category_id: optionalId,
    page_id: optionalId,
    url: z.preprocess(blankToNull, z.string({ invalid_type_error: "Має бути текстом" }).trim().max(500, "Не більше 500 символів").nullish()),
  })
  .superRefine((item, ctx) => {
    if (item.kind === "category" && !item.category_id) ctx.addIssue({ code: "custom", path: ["category_id"], message: "Оберіть рубрику" });
    if (item.kind === "page" && !item.page_id) ctx.addIssue({ code: "custom", path: ["page_id"], message: "Оберіть сторінку" });
    if (item.kind === "url" && !item.url) ctx.addIssue({ code: "custom", path: ["url"], message: "Вкажіть адресу, що починається з https://" });
    else if (item.kind === "url" && !isHttpsUrl(item.url!))
      ctx.addIssue({ code: "custom", path: ["url"], message: "Адреса має починатися з https:// (інші посилання не дозволено)" });
  })
  .transform((item) => ({
    id: item.id ?? null,
    label: item.label ?? null,
    kind: item.kind,
    // Only the target its kind names is kept (the form sends every field).
    category_id: item.kind === "category" ? item.category_id! : null,
    page_id: item.kind === "page" ? item.page_id! : null,
    url: item.kind === "url" ? item.url! : null,
  }));
export type MenuItemInput = z.infer<typeof MenuItemInputSchema>;

const menuList = z.array(MenuItemInputSchema, { invalid_type_error: "Має бути списком пунктів" }).max(MAX_MENU_ITEMS, `Не більше ${MAX_MENU_ITEMS} пунктів`);

/** PUT /api/menu: the menus to replace (each a whole list, in order) and/or social links to change. */
export const MenusInputSchema = z
  .object({
    header: menuList.optional(),
    footer: menuList.optional(),
    social: SocialSettingsSchema.partial().strict("Невідома соціальна мережа").optional(),
  })
  .refine((v) => v.header !== undefined || v.footer !== undefined || v.social !== undefined, "Передайте header, footer або social");
export type MenusInput = z.infer<typeof MenusInputSchema>;

/** A stored link with its target resolved, as the editor and the API show it. */
export interface MenuItemView {
  id: string;
  menu: MenuName;
  position: number;
  label: string | null;
  kind: MenuItemKind;
  category_id: string | null;
  page_id: string | null;
  url: string | null;
  /** What readers see: the label, else the target's name. */
  title: string;
  href: string;
  /** False for a link to an unpublished page (not shown on the site). */
  visible: boolean;
}

async function readItems(executor: DB = db): Promise<MenuItemView[]> {
  const rows = await executor
    .selectFrom("menu_items as m")
    .leftJoin("categories as c", "c.id", "m.category_id")
    .leftJoin("pages as p", "p.id", "m.page_id")
    .select([
      "m.id",
      "m.menu",
      "m.position",
      "m.label",
      "m.kind",
      "m.category_id",
      "m.page_id",
      "m.url",
      "c.name as category_name",
      "c.slug as category_slug",
      "p.title as page_title",
      "p.slug as page_slug",
      "p.status as page_status",
    ])
    .orderBy("m.menu")
    .orderBy("m.position")
    .execute();
  return rows.map((r) => {
    const target =
      r.kind === "home"
        ? { name: HOME_LABEL, href: "/", visible: true }
        : r.kind === "category"
          ? { name: r.category_name ?? "", href: `/category/${r.category_slug}`, visible: Boolean(r.category_slug) }
          : r.kind === "page"
            ? { name: r.page_title ?? "", href: `/page/${r.page_slug}`, visible: r.page_status === "published" }
            : { name: hostOf(r.url ?? ""), href: r.url ?? "", visible: Boolean(r.url) };
    return {
      id: r.id,
      menu: r.menu,
      position: Number(r.position),
      label: r.label,
      kind: r.kind,
      category_id: r.category_id,
      page_id: r.page_id,
      url: r.url,
      title: r.label || target.name,
      href: target.href,
      visible: target.visible,
    };
  });
}

function hostOf(url: string) {
  try {
    return new URL(url).hostname.replace(/^www\./, "");
  } catch {
    return url;
  }
}

/** A menu's items as the input shape (the screen edits these and saves them back). */
export const asInput = (item: MenuItemView): MenuItemInput => ({
  id: item.id,
  label: item.label,
  kind: item.kind,
  category_id: item.category_id,
  page_id: item.page_id,
  url: item.url,
});

export interface MenusView {
  header: MenuItemView[];
  footer: MenuItemView[];
  social: SocialSettings;
  /** Categories that are not in the header menu (offered, never added by themselves), in Ukrainian order. */
  offered_categories: { id: string; name: string; slug: string }[];
}

/** Both menus, the social links and the categories not in the header menu (GET /api/menu, the screen). */
export async function getMenus(executor: DB = db): Promise<MenusView> {
  const [items, social, categories] = await Promise.all([readItems(executor), getSettings("social", executor), listCategoryChoices(executor)]);
  const inHeader = new Set(items.filter((i) => i.menu === "header" && i.category_id).map((i) => i.category_id));
  return {
    header: items.filter((i) => i.menu === "header"),
    footer: items.filter((i) => i.menu === "footer"),
    social,
    offered_categories: categories.filter((c) => !inHeader.has(c.id)),
  };
}

/** Every category in Ukrainian alphabet order (issue 31 item 8), for the editor's choice. */
export async function listCategoryChoices(executor: DB = db) {
  return executor
    .selectFrom("categories")
    .select(["id", "name", "slug"])
    .orderBy(ukOrder(sql.ref("name")))
    .orderBy("id")
    .execute();
}

/** Every page (drafts too, marked), in the footer's order, for the editor's choice. */
export async function listPageChoices(executor: DB = db) {
  return executor.selectFrom("pages").select(["id", "title", "slug", "status"]).orderBy("position").orderBy("title").execute();
}

/**
 * Replaces the given menus (each a whole ordered list) and/or changes the given social links, in
 * one transaction with its audit entries. An item's `id` keeps that stored link (404 when it is not
 * one of that menu's); an item without one is a new link. A target that does not exist is 422.
 */
export async function saveMenus({ actor, input }: { actor: Actor; input: MenusInput }): Promise<MenusView> {
  await writeTransaction(async (trx) => {
    const now = new Date().toISOString();
    let changed = false;
    for (const menu of MENUS) {
      const items = input[menu];
      if (!items) continue;
      const current = await trx.selectFrom("menu_items").selectAll().where("menu", "=", menu).orderBy("position").execute();
      const byId = new Map(current.map((r) => [r.id, r]));
      const seen = new Set<string>();
      for (const [index, item] of items.entries()) {
        if (item.id && !byId.has(item.id)) throw new DomainError(404, "Пункт меню не знайдено (можливо, його вже видалено)", `${menu}.${index}.id`);
        if (item.id && seen.has(item.id)) throw new DomainError(422, "Пункт меню повторюється", `${menu}.${index}.id`);
        if (item.id) seen.add(item.id);
      }
      await checkTargets(trx, menu, items);
      const next = items.map((item, position) => ({ ...item, id: item.id ?? randomUUID(), position }));
      const same =
        next.length === current.length &&
        next.every((n, i) => {
          const c = current[i];
          return c.id === n.id && c.label === n.label && c.kind === n.kind && c.category_id === n.category_id && c.page_id === n.page_id && c.url === n.url;
        });
      if (same) continue;
      await trx.deleteFrom("menu_items").where("menu", "=", menu).execute();
      if (next.length) {
        await trx
          .insertInto("menu_items")
          .values(
            next.map((n) => ({
              id: n.id,
              menu,
              position: n.position,
              label: n.label,
              kind: n.kind,
              category_id: n.category_id,
              page_id: n.page_id,
              url: n.url,
              created_at: byId.get(n.id)?.created_at ?? now,
              updated_at: now,
            })),
          )
          .execute();
      }
      const removed = current.filter((c) => !next.some((n) => n.id === c.id)).length;
      const added = next.filter((n) => !byId.has(n.id)).length;
      await recordAudit(trx, {
        actor,
        action: "menu.save",
        object: { type: "menu", id: menu, label: MENU_NAMES[menu] },
        details: { items: next.length, added, removed },
      });
      changed = true;
    }
    if (input.social) {
      const before = await getSettings("social", trx);
      const after = { ...before, ...input.social };
      const keys = SOCIAL_NETWORKS.map((n) => n.key).filter((k) => before[k] !== after[k]);
      if (keys.length) {
        await saveSettings("social", after, trx);
        await recordAudit(trx, {
          actor,
          action: "settings.save",
          object: { type: "settings", label: "Соціальні мережі" },
          details: { keys: keys.map((k) => `social.${k}`) },
        });
        changed = true;
      }
    }
    // Other processes' copies of the menu (PostgreSQL: a notification sent at commit).
    if (changed) await announceChange(trx);
  });
  forgetMenus();
  // Every public page shows the header and the footer: the whole store goes (as for settings).
  invalidatePublicCache();
  return getMenus();
}

async function checkTargets(trx: DB, menu: MenuName, items: MenuItemInput[]) {
  const categoryIds = [...new Set(items.flatMap((i) => (i.category_id ? [i.category_id] : [])))];
  const pageIds = [...new Set(items.flatMap((i) => (i.page_id ? [i.page_id] : [])))];
  const categories = new Set(
    categoryIds.length ? (await trx.selectFrom("categories").select("id").where("id", "in", categoryIds).execute()).map((r) => r.id) : [],
  );
  const pages = new Set(pageIds.length ? (await trx.selectFrom("pages").select("id").where("id", "in", pageIds).execute()).map((r) => r.id) : []);
  for (const [index, item] of items.entries()) {
    if (item.category_id && !categories.has(item.category_id)) throw new DomainError(422, "Такої рубрики немає", `${menu}.${index}.category_id`);
    if (item.page_id && !pages.has(item.page_id)) throw new DomainError(422, "Такої сторінки немає", `${menu}.${index}.page_id`);
  }
}

// ---------------------------------------------------------------------------------------------
// What public pages show.

export interface PublicLink {
  label: string;
  href: string;
  /** An https address of another site (a plain <a>, not a client-side navigation). */
  external: boolean;
}

export interface PublicMenus {
  header: PublicLink[];
  footer: PublicLink[];
  /** The header menu's categories, for the footer's "Рубрики" column. */
  categories: PublicLink[];
  social: { name: string; href: string }[];
}

const toLink = (i: MenuItemView): PublicLink => ({ label: i.title, href: i.href, external: i.kind === "url" });

/** The menus of every public page (cached in process; see menu-cache.server.ts). */
export async function getPublicMenus(): Promise<PublicMenus> {
  const cached = cachedMenus<Omit<PublicMenus, "social">>();
  const social = await getSettings("social");
  const socialLinks = SOCIAL_NETWORKS.flatMap((n) => (social[n.key] ? [{ name: n.name, href: social[n.key] }] : []));
  if (cached) return { ...cached, social: socialLinks };
  const readAt = menusGeneration();
  const items = (await readItems()).filter((i) => i.visible);
  const menus = {
    header: items.filter((i) => i.menu === "header").map(toLink),
    footer: items.filter((i) => i.menu === "footer").map(toLink),
    categories: items.filter((i) => i.menu === "header" && i.kind === "category").map(toLink),
  };
  keepMenus(menus, readAt);
  return { ...menus, social: socialLinks };
}

/**
 * A new site: the seed makes the categories after the migrations, so their header links (SPEC §2's
 * order, after 'Latest news') are added here, in the seed's transaction, when the header has none.
 */
export async function seedHeaderCategories(trx: DB, categoryIds: string[]): Promise<void> {
  const header = await trx.selectFrom("menu_items").select(["kind", "position"]).where("menu", "=", "header").execute();
  if (header.some((h) => h.kind === "category")) return;
  const start = header.reduce((max, h) => Math.max(max, Number(h.position)), -1) + 1;
  if (!categoryIds.length) return;
  const now = new Date().toISOString();
  await trx
    .insertInto("menu_items")
    .values(
      categoryIds.map((category_id, i) => ({
        id: randomUUID(),
        menu: "header" as const,
        position: start + i,
        label: null,
        kind: "category" as const,
        category_id,
        page_id: null,
        url: null,
        created_at: now,
        updated_at: now,
      })),
    )
    .execute();
  forgetMenus();
}

/**
 * A new page joins the footer quick links (shown once published), as every published page did
 * before the menu editor; /admin/menu can take it out again. Called in the page's own transaction.
 */
export async function addFooterPageLink(trx: DB, pageId: string): Promise<void> {
  const last = await trx
    .selectFrom("menu_items")
    .select((eb) => eb.fn.max("position").as("p"))
    .where("menu", "=", "footer")
    .executeTakeFirst();
  const now = new Date().toISOString();
  await trx
    .insertInto("menu_items")
    .values({
      id: randomUUID(),
      menu: "footer",
      position: Number(last?.p ?? -1) + 1,
      label: null,
      kind: "page",
      category_id: null,
      page_id: pageId,
      url: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
}
