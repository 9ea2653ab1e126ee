import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { db, writeTransaction, type DB } from "../../db/index";
import type { User } from "../../db/schema";
import { jsonArrayRows } from "../../db/sql/json";
import { deleteSearchRows, insertSearchRows } from "../../db/sql/search";
import { lowerCase } from "../../db/sql/text";
import type { AuditAction } from "../utils/audit-actions";
import { runCpuJob } from "../utils/cpu-pool.server";
import { DomainError } from "../utils/errors";
import { renderArticleHtml } from "../utils/markdown.server";
import { LIMITS, MESSAGES, type ArticleInput, type ArticleStatus, type BulkAction } from "../utils/newsroom-rules";
import { searchRows, type SearchFields, type SearchRows } from "../utils/search-text.server";
import { firstFreeSlug, slugify } from "../utils/slug.server";
import { clearAutosave } from "./article-autosave.server";
import { invalidateArticleChange, publicFootprint, type PublicFootprint } from "./article-cache.server";
import { conflict } from "./article-conflict.server";
import { publishedAtNow, refuseEarlyPublish, saveStatus } from "./article-desk-rules.server";
import { discardImagesAndRethrow, storeEmbeddedImages, withEmbeddedImages } from "./article-images.server";
import { editableArticleRows, getArticleById, type ArticleView } from "./article-queries.server";
import { keptFields, recordRevision, restoredSummary } from "./article-revision.server";
import { scienceSave } from "./article-science.server";
import { slugFollowsTitle } from "./article-slug-rule.server";
import { recordAudit, type Actor } from "./audit.server";
import { addOwnerByline, fillTagSlugs, saveBylineFields } from "./bylines.server";
import { refuseSpentFormToken, spendFormToken } from "./form-token.server";
import { carryAltToMedia } from "./media-alt.server";

// Article writes (SPEC §2 'Article list', 'Article editor'; DESIGN §5 permissions). The admin
// screens and /api/articles call these same functions; permissions are checked here, so no door
// can skip them. Each write runs in one transaction and then clears the cached public pages the
// article showed on (article-cache.server.ts).

export interface ArticleInsert {
  id?: string;
  slug: string;
  title: string;
  subtitle?: string | null;
  content: string;
  /** Sanitised HTML from renderArticleHtml (markdown.server.ts), made before the transaction. */
  contentHtml: string;
  categoryId: string | null;
  authorId: string | null;
  status: ArticleStatus;
  publishedAt?: string | null;
  createdAt?: string;
  views?: number;
  seoTitle?: string | null;
  seoDescription?: string | null;
  featuredImage?: string | null;
  featuredImageAlt?: string | null;
  featuredImageCaption?: string | null;
  tags: string[];
  /** Issue 30: the search rows made beforehand (prepareSave); made here when absent. */
  search?: SearchRows;
  /** Issue 29: an embargo (UTC); a `published` insert before it is refused. */
  embargoUntil?: string | null;
  embargoNote?: string | null;
}

/**
 * Writes a new article with its tags and full-text row. Run it inside writeTransaction: the
 * three writes land together or not at all.
 */
export async function insertArticle(trx: DB, input: ArticleInsert): Promise<string> {
  const id = input.id ?? randomUUID();
  const createdAt = input.createdAt ?? new Date().toISOString();
  const publishedAt = input.status === "published" ? (input.publishedAt ?? createdAt) : (input.publishedAt ?? null);
  // Never modified before it was published: a back-dated publication counts as the last change.
  const updatedAt = publishedAt && publishedAt > createdAt ? publishedAt : createdAt;
  refuseEarlyPublish({ status: input.status, embargoUntil: input.embargoUntil, publishedAt }, new Date().toISOString()); // issue 29
  await trx
    .insertInto("articles")
    .values({
      id,
      slug: input.slug,
      title: input.title,
      subtitle: input.subtitle ?? null,
      content: input.content,
      content_html: input.contentHtml,
      category_id: input.categoryId,
      author_id: input.authorId,
      updated_by: input.authorId,
      status: input.status,
      published_at: publishedAt,
      created_at: createdAt,
      updated_at: updatedAt,
      views: input.views ?? 0,
      seo_title: input.seoTitle ?? null,
      seo_description: input.seoDescription ?? null,
      featured_image: input.featuredImage ?? null,
      featured_image_alt: input.featuredImage ? (input.featuredImageAlt ?? null) : null,
      featured_image_caption: input.featuredImage ? (input.featuredImageCaption ?? null) : null,
      meta_keywords: null,
      og_image: null,
      canonical_url: null,
      embargo_until: input.embargoUntil ?? null,
      embargo_note: input.embargoUntil ? (input.embargoNote ?? null) : null,
    })
    .execute();
  await setArticleTags(trx, { articleId: id, tags: input.tags });
  await addOwnerByline(trx, id, input.authorId); // issue 29: the author is the first byline
  await writeSearchRow(trx, { id, title: input.title, subtitle: input.subtitle ?? null, content: input.content, tags: input.tags }, input.search);
  return id;
}

/**
 * Replaces an article's tags, creating tag rows as needed (case-insensitive names): four
 * statements whatever the number of tags. Each name is first matched to an existing tag whatever
 * its case, Cyrillic included (SQLite's NOCASE folds only ASCII: 'КОСМОС' and 'Космос' would be
 * two tags), so an existing 'Космос' serves 'космос'; the names then travel as one JSON array.
 */
async function setArticleTags(trx: DB, { articleId, tags }: { articleId: string; tags: string[] }) {
  await trx.deleteFrom("article_tags").where("article_id", "=", articleId).execute();
  if (!tags.length) return;
  const byFolded = new Map<string, string>();
  for (const tag of tags) if (!byFolded.has(tag.toLowerCase())) byFolded.set(tag.toLowerCase(), tag);
  const existing = await trx
    .selectFrom("tags")
    .select("name")
    .where(lowerCase(sql.ref("name")), "in", [...byFolded.keys()])
    .execute();
  for (const { name } of existing) byFolded.set(name.toLowerCase(), name);
  const names = JSON.stringify([...byFolded.values()]);
  // `where true` lets SQLite parse the upsert clause after a SELECT.
  await sql`insert into tags (name) select names.value from ${jsonArrayRows(names, "names")} where true on conflict (name) do nothing`.execute(trx);
  await fillTagSlugs(trx); // issue 29: a new tag gets its page slug
  await sql`insert into article_tags (article_id, tag_id, position)
    select ${articleId}, tags.id, names.key from ${jsonArrayRows(names, "names")} join tags on tags.name = names.value
    where true on conflict do nothing`.execute(trx);
}

/**
 * Writes (or replaces) an article's search rows (db/sql/search.ts). They share the article's
 * rowid, so a search reads only the index's doclists (rowids), never the stored text, to find
 * matching articles (DESIGN §9 list budget).
 */
async function writeSearchRow(trx: DB, a: SearchFields & { id: string }, prepared?: SearchRows) {
  // Issue 30: the words and their stems (search-text.server.ts); the save path makes them in the
  // CPU pool beforehand, other writers (seed, tests) here: ~0.5 µs a word.
  await deleteSearchRows(trx, a.id);
  await insertSearchRows(trx, a.id, prepared ?? searchRows(a));
}

// DESIGN §5: admins and editors do everything; a reporter writes drafts, edits and deletes only
// their own drafts (and, DESIGN §11, edits their own article in review), and never publishes,
// schedules, unpublishes or archives.
const isReporter = (actor: Pick<User, "role">) => actor.role === "reporter";

/** Whether actor may change this article at all (edit screen, PUT, DELETE). */
export function canEditArticle(actor: Pick<User, "id" | "role">, article: { author_id?: string | null; author?: { id: string } | null; status: string }) {
  if (!isReporter(actor)) return true;
  const authorId = article.author_id ?? article.author?.id ?? null;
  return authorId === actor.id && (article.status === "draft" || article.status === "review");
}

const REPORTER_DRAFTS_ONLY = "Репортер може зберігати лише чернетки: опублікувати чи архівувати статтю може редактор";
const REPORTER_OWN_DRAFTS = "Репортер може змінювати лише власні чернетки й статті на перевірці";

async function slugInUse(trx: DB, slug: string, exceptArticleId?: string): Promise<boolean> {
  const article = await trx
    .selectFrom("articles")
    .select("id")
    .where("slug", "=", slug)
    .$if(Boolean(exceptArticleId), (qb) => qb.where("id", "!=", exceptArticleId!))
    .executeTakeFirst();
  if (article) return true;
  // An old slug still answering with a 301 for another article is not free either.
  const redirect = await trx
    .selectFrom("slug_redirects")
    .select("article_id")
    .where("old_slug", "=", slug)
    .$if(Boolean(exceptArticleId), (qb) => qb.where("article_id", "!=", exceptArticleId!))
    .executeTakeFirst();
  return Boolean(redirect);
}

/** A unique slug for a title: its Ukrainian transliteration, then -2, -3 ... when taken. */
async function uniqueArticleSlug(trx: DB, title: string, exceptArticleId?: string): Promise<string> {
  const base = slugify(title) || "stattia";
  return firstFreeSlug(base, (s) => slugInUse(trx, s, exceptArticleId));
}

/** The slow work of a save (image files, markdown rendering), done before the write lock. */
async function prepareSave(input: ArticleInput, actor: Pick<User, "id">) {
  const images = await storeEmbeddedImages(input, actor);
  return withEmbeddedImages(images, async () => {
    const { content, featuredImage } = images;
    if (content.length > LIMITS.content) throw new DomainError(422, MESSAGES.content, "content");
    const fields = { title: input.title, subtitle: input.subtitle ?? null, content, tags: input.tags };
    // Issue 30: the search rows (words and stems) are made in the CPU pool beside the rendering.
    const [html, search] = await Promise.all([renderArticleHtml(content), runCpuJob({ kind: "search", fields })]);
    return { content, featuredImage, stored: images.stored, html, search };
  });
}

async function requireCategory(trx: DB, categoryId: string) {
  const row = await trx.selectFrom("categories").select("id").where("id", "=", categoryId).executeTakeFirst();
  if (!row) throw new DomainError(422, MESSAGES.categoryMissing, "category_id");
}

/** Creates an article written by actor (SPEC §7 POST /articles/). Reporters create drafts only. */
export async function createArticle({ actor, input, formToken }: { actor: Actor; input: ArticleInput; formToken?: string | null }): Promise<ArticleView> {
  if (isReporter(actor) && input.status !== "draft") throw new DomainError(403, REPORTER_DRAFTS_ONLY, "status");
  saveStatus(actor, null, input.status); // issue 14: review and scheduled have their own calls
  const science = scienceSave({ actor, current: null, input, status: input.status, now: new Date().toISOString() }); // issue 29
  await requireCategory(db, input.category_id);
  const prepared = await prepareSave(input, actor);
  // The images stored for this save are removed again if it does not commit.
  const { id, after } = await writeTransaction(async (trx) => {
    if (formToken) await refuseSpentFormToken(trx, { token: formToken, userId: actor.id }); // issue 31 item 13
    await requireCategory(trx, input.category_id);
    let slug = input.slug;
    if (slug && (await slugInUse(trx, slug))) throw new DomainError(409, MESSAGES.slugTaken, "slug");
    slug ??= await uniqueArticleSlug(trx, input.title);
    const id = await insertArticle(trx, {
      slug,
      title: input.title,
      subtitle: input.subtitle,
      content: prepared.content,
      contentHtml: prepared.html,
      categoryId: input.category_id,
      authorId: actor.id,
      status: input.status,
      seoTitle: input.seo_title,
      seoDescription: input.seo_description,
      featuredImage: prepared.featuredImage,
      featuredImageAlt: input.featured_image_alt,
      featuredImageCaption: input.featured_image_caption,
      tags: input.tags,
      search: prepared.search,
      embargoUntil: science.columns.embargo_until,
      embargoNote: science.columns.embargo_note,
    });
    await saveBylineFields(trx, { articleId: id, actor, input, ownerId: actor.id }); // issue 29
    await recordRevision(trx, { articleId: id, actorId: actor.id, before: null }); // issue 15: the first revision
    await science.after(trx, { articleId: id, changed: [] }); // issue 29: sources
    await recordAudit(trx, { actor, action: "article.create", object: articleObject(id, input.title), details: { status: input.status } });
    if (formToken) await spendFormToken(trx, { token: formToken, userId: actor.id, articleId: id });
    await carryAltToMedia(trx, { featuredImage: prepared.featuredImage, featuredAlt: input.featured_image_alt, content: prepared.content }); // issue 31 item 16
    return { id, after: await publicFootprint(trx, id) };
  }).catch(discardImagesAndRethrow(prepared));
  await invalidateArticleChange(after);
  return (await getArticleById({ id }))!;
}

const articleObject = (id: string, title: string) => ({ type: "article" as const, id, label: title });

/**
 * The audit action of a change of status: publishing, taking off the site (or off the schedule),
 * archiving; undefined when the status stays (or moves between unpublished ones: an edit).
 */
function statusAction(from: ArticleStatus, to: ArticleStatus): AuditAction | undefined {
  if (from === to) return undefined;
  if (to === "published") return "article.publish";
  if (to === "archived") return "article.archive";
  if (from === "published" || from === "scheduled") return "article.unpublish";
  return undefined;
}

async function requireEditable(trx: DB, actor: Actor, id: string) {
  const current = await editableArticleRows(trx).where("articles.id", "=", id).executeTakeFirst();
  if (!current) throw new DomainError(404, "Статтю не знайдено");
  if (!canEditArticle(actor, current)) throw new DomainError(403, REPORTER_OWN_DRAFTS);
  return current;
}

/**
 * Saves an article (SPEC §7 PUT /articles/{id}). With `input.version`, a save based on an older
 * version is refused (409) naming who saved the newer one. A published article whose slug
 * changes keeps its old slug as a 301 redirect.
 */
export async function updateArticle({
  actor,
  id,
  input,
  restoredFrom,
}: {
  actor: Actor;
  id: string;
  input: ArticleInput;
  /** A revision restore (app/services/article-history.server.ts): the revision, for the audit entry and the new revision's line. */
  restoredFrom?: { id: number; created_at: string };
}): Promise<ArticleView> {
  const before = await requireEditable(db, actor, id);
  saveStatus(actor, before.status, input.status); // issue 14: the desk's status rules
  if (input.version !== undefined && input.version !== before.version) throw conflict(before);
  await requireCategory(db, input.category_id);
  const prepared = await prepareSave(input, actor);
  const footprints = await writeTransaction(async (trx) => {
    const current = await requireEditable(trx, actor, id);
    const status = saveStatus(actor, current.status, input.status);
    const before = await publicFootprint(trx, id);
    if (input.version !== undefined && input.version !== current.version) throw conflict(current);
    await requireCategory(trx, input.category_id);
    const slug = slugFollowsTitle(current, input) ? await uniqueArticleSlug(trx, input.title, id) : (input.slug ?? current.slug); // issue 31 item 11
    if (slug !== current.slug) {
      if (await slugInUse(trx, slug, id)) throw new DomainError(409, MESSAGES.slugTaken, "slug");
      if (current.status === "published") {
        await trx
          .insertInto("slug_redirects")
          .values({ old_slug: current.slug, article_id: id })
          .onConflict((oc) => oc.column("old_slug").doUpdateSet({ article_id: id }))
          .execute();
      }
      // The article answers on its new slug directly now.
      await trx.deleteFrom("slug_redirects").where("old_slug", "=", slug).execute();
    }
    const kept = await keptFields(trx, id); // issue 15: compared after the write
    const now = new Date().toISOString();
    const science = scienceSave({ actor, current, input, status, now }); // issue 29: embargo, correction
    await trx
      .updateTable("articles")
      .set({
        slug,
        title: input.title,
        subtitle: input.subtitle,
        content: prepared.content,
        content_html: prepared.html,
        category_id: input.category_id,
        status,
        published_at: status === "published" ? publishedAtNow(current.published_at, now) : current.published_at,
        seo_title: input.seo_title,
        seo_description: input.seo_description,
        featured_image: prepared.featuredImage,
        featured_image_alt: prepared.featuredImage ? input.featured_image_alt : null,
        featured_image_caption: prepared.featuredImage ? input.featured_image_caption : null,
        ...science.columns,
        updated_at: now,
        updated_by: actor.id,
        version: sql`version + 1`,
      })
      .where("id", "=", id)
      .execute();
    await setArticleTags(trx, { articleId: id, tags: input.tags });
    const bylineFields = await saveBylineFields(trx, { articleId: id, actor, input, ownerId: current.author_id }); // issue 29
    await writeSearchRow(trx, { id, title: input.title, subtitle: input.subtitle, content: prepared.content, tags: input.tags }, prepared.search);
    await carryAltToMedia(trx, { featuredImage: prepared.featuredImage, featuredAlt: input.featured_image_alt, content: prepared.content }); // issue 31 item 16
    const fields: string[] = await recordRevision(trx, {
      articleId: id,
      actorId: actor.id,
      before: kept,
      summary: restoredFrom && restoredSummary(restoredFrom.created_at), // issue 31 item 17
    }); // issue 15
    if (slug !== current.slug) fields.push("slug");
    fields.push(...bylineFields);
    await science.after(trx, { articleId: id, changed: fields }); // issue 29: sources, the correction
    // One entry per save that changed something: a restore, a change of status, or an edit.
    const action = restoredFrom !== undefined ? "article.restore" : (statusAction(current.status, status) ?? "article.update");
    if (fields.length || status !== current.status) {
      await recordAudit(trx, {
        actor,
        action,
        object: articleObject(id, input.title),
        details: {
          fields,
          ...(status !== current.status && { from: current.status, to: status }),
          ...(restoredFrom !== undefined && { revision: restoredFrom.id }),
        },
      });
    }
    await clearAutosave({ articleId: id, userId: actor.id }, trx); // issue 15: saved for real
    return [before, await publicFootprint(trx, id)];
  }).catch(discardImagesAndRethrow(prepared));
  await invalidateArticleChange(...footprints);
  return (await getArticleById({ id }))!;
}

/** One status change inside a transaction; answers the public footprints it changes. */
async function changeStatus(trx: DB, { actor, id, status, bulk }: { actor: Actor; id: string; status: "published" | "draft"; bulk?: boolean }) {
  const current = await trx.selectFrom("articles").select(["id", "status", "published_at", "title", "embargo_until"]).where("id", "=", id).executeTakeFirst();
  if (!current) throw new DomainError(404, "Статтю не знайдено");
  if (isReporter(actor)) throw new DomainError(403, "Публікувати й знімати з публікації може лише редактор або адміністратор");
  if (current.status === status) return [];
  const before = await publicFootprint(trx, id);
  const now = new Date().toISOString();
  refuseEarlyPublish({ status, embargoUntil: current.embargo_until }, now); // issue 29
  await trx
    .updateTable("articles")
    .set({
      status,
      published_at: status === "published" ? publishedAtNow(current.published_at, now) : current.published_at,
      updated_at: now,
      updated_by: actor.id,
      version: sql`version + 1`,
    })
    .where("id", "=", id)
    .execute();
  await recordAudit(trx, {
    actor,
    action: status === "published" ? "article.publish" : "article.unpublish",
    object: articleObject(id, current.title),
    details: { from: current.status, to: status, ...(bulk && { bulk: true }) },
  });
  return [before, await publicFootprint(trx, id)];
}

/** One delete inside a transaction; answers the title and the public footprint it removes. */
async function removeArticle(trx: DB, { actor, id, bulk }: { actor: Actor; id: string; bulk?: boolean }) {
  const current = await requireEditable(trx, actor, id);
  // DESIGN §5: a reporter deletes only their own drafts (editing in review, DESIGN §11, is not deleting).
  if (isReporter(actor) && current.status !== "draft") throw new DomainError(403, REPORTER_OWN_DRAFTS);
  const before = await publicFootprint(trx, id);
  await deleteSearchRows(trx, id);
  await trx.deleteFrom("articles").where("id", "=", id).execute();
  await recordAudit(trx, {
    actor,
    action: "article.delete",
    object: articleObject(id, current.title),
    details: { status: current.status, ...(bulk && { bulk: true }) },
  });
  return { title: current.title, before };
}

/** Publishes ('published') or unpublishes ('draft') an article; editors and admins only. */
export async function setArticleStatus({ actor, id, status }: { actor: Actor; id: string; status: "published" | "draft" }): Promise<ArticleView> {
  const footprints = await writeTransaction((trx) => changeStatus(trx, { actor, id, status }));
  await invalidateArticleChange(...footprints);
  return (await getArticleById({ id }))!;
}

/**
 * Publishes, unpublishes or deletes several articles at once (issue 17): every article is checked
 * against the actor's rights, and all of them change in one transaction or none does.
 */
export async function bulkArticleAction({ actor, ids, action }: { actor: Actor; ids: string[]; action: BulkAction }): Promise<{ count: number }> {
  const footprints = await writeTransaction(async (trx) => {
    const all: (PublicFootprint | undefined)[] = [];
    for (const id of new Set(ids)) {
      // One audit entry per article, marked as part of a bulk action.
      if (action === "delete") all.push((await removeArticle(trx, { actor, id, bulk: true })).before);
      else all.push(...(await changeStatus(trx, { actor, id, status: action === "publish" ? "published" : "draft", bulk: true })));
    }
    return all;
  });
  await invalidateArticleChange(...footprints);
  return { count: new Set(ids).size };
}

/** Deletes an article with its tags, redirects and search row; reporters only their own drafts. */
export async function deleteArticle({ actor, id }: { actor: Actor; id: string }): Promise<{ title: string }> {
  const deleted = await writeTransaction((trx) => removeArticle(trx, { actor, id }));
  await invalidateArticleChange(deleted.before);
  return { title: deleted.title };
}
