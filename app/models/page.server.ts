import { randomUUID } from "node:crypto";
import { z } from "zod";
import { announceChange, db, writeTransaction, type DB } from "../../db/index";
import { invalidatePublicCache } from "../page-store/page-cache.server";
import { DomainError } from "../utils/errors";
import { renderArticleHtml } from "../utils/markdown.server";
import { recordAudit, type Actor } from "./audit.server";
// A menu link shows its category's name or page's title and goes with it (ON DELETE CASCADE): each
// write forgets the cached menus here, and announces itself to other processes (docs/decisions/031).
import { forgetMenus } from "./menu-cache.server";
import { addFooterPageLink } from "./menu.server";

// Static pages (issue 31 item 5, DESIGN §17, docs/decisions/031): About, Contact, … and any a
// newsroom adds. The body is markdown, rendered and sanitised by the same renderer as articles,
// in the CPU pool, when saved (never per view). Public at /page/{slug} while published; a new page
// joins the footer's quick links, shown once published (/admin/menu may take it out: menu.server.ts). Every change empties the page store (the footer is on every page).

export const PAGE_STATUSES = ["published", "draft"] as const;
const SLUG_RE = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export const PageInputSchema = z.object({
  title: z
    .string({ required_error: "Вкажіть заголовок", invalid_type_error: "Вкажіть заголовок" })
    .trim()
    .min(1, "Вкажіть заголовок")
    .max(200, "Не більше 200 символів"),
  slug: z
    .string({ required_error: "Вкажіть адресу", invalid_type_error: "Вкажіть адресу" })
    .trim()
    .toLowerCase()
    .min(1, "Вкажіть адресу")
    .max(100, "Не більше 100 символів")
    .regex(SLUG_RE, "Лише латинські літери, цифри та дефіси"),
  body: z.string({ invalid_type_error: "Має бути текстом" }).max(100_000, "Текст задовгий (не більше 100 000 символів)").default(""),
  status: z.enum(PAGE_STATUSES, { errorMap: () => ({ message: "Статус: published або draft" }) }).default("draft"),
  seo_title: z
    .string({ invalid_type_error: "Має бути текстом" })
    .trim()
    .max(200, "Не більше 200 символів")
    .nullish()
    .transform((v) => v || null),
  seo_description: z
    .string({ invalid_type_error: "Має бути текстом" })
    .trim()
    .max(400, "Не більше 400 символів")
    .nullish()
    .transform((v) => v || null),
});
export type PageInput = z.infer<typeof PageInputSchema>;

const COLUMNS = ["id", "slug", "title", "body", "body_html", "status", "seo_title", "seo_description", "position", "created_at", "updated_at"] as const;

export async function listPages(executor: DB = db) {
  return executor.selectFrom("pages").select(COLUMNS).orderBy("position").orderBy("title").execute();
}

export async function getPageById({ id }: { id: string }, executor: DB = db) {
  return executor.selectFrom("pages").select(COLUMNS).where("id", "=", id).executeTakeFirst();
}

/** A published page by its slug (the public route); drafts are not found. */
export async function getPublishedPage({ slug }: { slug: string }) {
  return db.selectFrom("pages").select(COLUMNS).where("slug", "=", slug).where("status", "=", "published").executeTakeFirst();
}

/** Published pages, in order (the sitemap). */
export async function listPublishedPageLinks(): Promise<{ title: string; slug: string }[]> {
  return db.selectFrom("pages").select(["title", "slug"]).where("status", "=", "published").orderBy("position").orderBy("title").execute();
}

async function slugTaken(trx: DB, slug: string, exceptId?: string) {
  const row = await trx
    .selectFrom("pages")
    .select("id")
    .where("slug", "=", slug)
    .$if(Boolean(exceptId), (qb) => qb.where("id", "!=", exceptId!))
    .executeTakeFirst();
  return Boolean(row);
}

const TAKEN = "Сторінка з такою адресою вже існує";

export async function createPage({ actor, input }: { actor: Actor; input: PageInput }) {
  const id = randomUUID();
  const body_html = await renderArticleHtml(input.body).catch(asBodyError);
  await writeTransaction(async (trx) => {
    if (await slugTaken(trx, input.slug)) throw new DomainError(409, TAKEN, "slug");
    const last = await trx
      .selectFrom("pages")
      .select((eb) => eb.fn.max("position").as("p"))
      .executeTakeFirst();
    const now = new Date().toISOString();
    await trx
      .insertInto("pages")
      .values({ id, ...input, body_html, position: Number(last?.p ?? -1) + 1, created_at: now, updated_at: now })
      .execute();
    await addFooterPageLink(trx, id);
    await recordAudit(trx, {
      actor,
      action: "page.create",
      object: { type: "page", id, label: input.title },
      details: { slug: input.slug, status: input.status },
    });
  });
  forgetMenus();
  invalidatePublicCache();
  return (await getPageById({ id }))!;
}

export async function updatePage({ actor, id, input }: { actor: Actor; id: string; input: PageInput }) {
  const body_html = await renderArticleHtml(input.body).catch(asBodyError);
  await writeTransaction(async (trx) => {
    const current = await getPageById({ id }, trx);
    if (!current) throw new DomainError(404, "Сторінку не знайдено");
    if (input.slug !== current.slug && (await slugTaken(trx, input.slug, id))) throw new DomainError(409, TAKEN, "slug");
    await trx
      .updateTable("pages")
      .set({ ...input, body_html, updated_at: new Date().toISOString() })
      .where("id", "=", id)
      .execute();
    await announceChange(trx);
    const fields = (["title", "slug", "body", "status", "seo_title", "seo_description"] as const).filter((f) => (current[f] ?? null) !== (input[f] ?? null));
    if (fields.length) await recordAudit(trx, { actor, action: "page.update", object: { type: "page", id, label: input.title }, details: { fields } });
  });
  forgetMenus();
  invalidatePublicCache();
  return (await getPageById({ id }))!;
}

export async function deletePage({ actor, id }: { actor: Actor; id: string }) {
  await writeTransaction(async (trx) => {
    const current = await getPageById({ id }, trx);
    if (!current) throw new DomainError(404, "Сторінку не знайдено");
    await trx.deleteFrom("pages").where("id", "=", id).execute();
    await announceChange(trx);
    await recordAudit(trx, { actor, action: "page.delete", object: { type: "page", id, label: current.title }, details: { slug: current.slug } });
  });
  forgetMenus();
  invalidatePublicCache();
}

/** The renderer's refusals name the article's `content`; on a page the field is `body`. */
function asBodyError(error: unknown): never {
  if (error instanceof DomainError && error.field === "content") throw new DomainError(error.status, error.message, "body");
  throw error;
}
