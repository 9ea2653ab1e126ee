import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { db, writeTransaction, type DB } from "../../db/index";
import type { ArticleStatus, User } from "../../db/schema";
import { DomainError } from "../utils/errors";
import { formatDateTime } from "../utils/format";
import { renderArticleHtml } from "../utils/markdown.server";
import { LIMITS, MESSAGES, type ArticleInput, type ArticleStatusValue } from "../utils/newsroom-rules";
import { CACHE_TAG, invalidatePublicCache } from "../utils/page-cache.server";
import { firstFreeSlug, slugify } from "../utils/slug.server";
import { storeDataUrlImage } from "./media.server";

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
  tags: string[];
}

/**
 * Writes a new article with its tags and full-text row. Run it inside writeTransaction: the
 * three writes land together or not at all.
 */
export async function insertArticle(trx: DB, input: ArticleInsert): Promise<string> {
  const id = input.id ?? randomUUID();
  const createdAt = input.createdAt ?? new Date().toISOString();
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
      published_at: input.status === "published" ? (input.publishedAt ?? createdAt) : (input.publishedAt ?? null),
      created_at: createdAt,
      updated_at: createdAt,
      views: input.views ?? 0,
      seo_title: input.seoTitle ?? null,
      seo_description: input.seoDescription ?? null,
      featured_image: input.featuredImage ?? null,
      meta_keywords: null,
      og_image: null,
      canonical_url: null,
    })
    .execute();
  await setArticleTags(trx, { articleId: id, tags: input.tags });
  // The search row shares the article's rowid, so a search reads only the index's doclists
  // (rowids), never the stored text, to find matching articles (DESIGN §9 list budget).
  await sql`insert into articles_fts (rowid, article_id, title, subtitle, content, tags)
    select rowid, id, ${input.title}, ${input.subtitle ?? ""}, ${input.content}, ${input.tags.join(" ")}
    from articles where id = ${id}`.execute(trx);
  return id;
}

/** Replaces an article's tags, creating tag rows as needed (case-insensitive names). */
export async function setArticleTags(trx: DB, { articleId, tags }: { articleId: string; tags: string[] }) {
  await trx.deleteFrom("article_tags").where("article_id", "=", articleId).execute();
  for (const [position, name] of tags.entries()) {
    await trx.insertInto("tags").values({ name }).onConflict((oc) => oc.column("name").doNothing()).execute();
    const tag = await trx.selectFrom("tags").select("id").where("name", "=", name).executeTakeFirstOrThrow();
    await trx
      .insertInto("article_tags")
      .values({ article_id: articleId, tag_id: tag.id, position })
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
}

// ---------------------------------------------------------------------------------------------
// Newsroom: article writes and the admin list (SPEC §2 'Article list', 'Article editor'; DESIGN
// §5 permissions). The admin screens and /api/articles call these same functions; permissions are
// checked here, so no door can skip them.

type Actor = Pick<User, "id" | "role">;

/** The full article as the editor and GET /api/articles/{id} see it. */
export interface ArticleView {
  id: string;
  slug: string;
  title: string;
  subtitle: string | null;
  content: string;
  category: { id: string; name: string; slug: string } | null;
  category_id: string | null;
  tags: string[];
  featured_image: string | null;
  status: ArticleStatusValue;
  published_at: string | null;
  created_at: string;
  updated_at: string;
  views: number;
  seo_title: string | null;
  seo_description: string | null;
  author: { id: string; username: string; profile: { name: string | null } } | null;
  updated_by: { id: string; username: string; name: string | null } | null;
  version: number;
}

function articleViewQuery(executor: DB = db) {
  return executor
    .selectFrom("articles")
    .leftJoin("categories", "categories.id", "articles.category_id")
    .leftJoin("users as author", "author.id", "articles.author_id")
    .leftJoin("users as editor", "editor.id", "articles.updated_by")
    .select([
      "articles.id",
      "articles.slug",
      "articles.title",
      "articles.subtitle",
      "articles.content",
      "articles.category_id",
      "articles.featured_image",
      "articles.status",
      "articles.published_at",
      "articles.created_at",
      "articles.updated_at",
      "articles.views",
      "articles.seo_title",
      "articles.seo_description",
      "articles.version",
      "articles.author_id",
      "articles.updated_by",
      "categories.name as category_name",
      "categories.slug as category_slug",
      "author.username as author_username",
      "author.name as author_name",
      "editor.username as editor_username",
      "editor.name as editor_name",
    ]);
}

async function tagsOf(executor: DB, articleId: string): Promise<string[]> {
  const rows = await executor
    .selectFrom("article_tags")
    .innerJoin("tags", "tags.id", "article_tags.tag_id")
    .select("tags.name")
    .where("article_tags.article_id", "=", articleId)
    .orderBy("article_tags.position")
    .execute();
  return rows.map((r) => r.name);
}

/** An article for editing (any status), or undefined. */
export async function getArticleById({ id }: { id: string }, executor: DB = db): Promise<ArticleView | undefined> {
  const row = await articleViewQuery(executor).where("articles.id", "=", id).executeTakeFirst();
  if (!row) return undefined;
  return {
    id: row.id,
    slug: row.slug,
    title: row.title,
    subtitle: row.subtitle,
    content: row.content,
    category: row.category_id && row.category_name ? { id: row.category_id, name: row.category_name, slug: row.category_slug! } : null,
    category_id: row.category_id,
    tags: await tagsOf(executor, row.id),
    featured_image: row.featured_image,
    status: row.status,
    published_at: row.published_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
    views: row.views,
    seo_title: row.seo_title,
    seo_description: row.seo_description,
    author: row.author_id && row.author_username ? { id: row.author_id, username: row.author_username, profile: { name: row.author_name } } : null,
    updated_by: row.updated_by && row.editor_username ? { id: row.updated_by, username: row.editor_username, name: row.editor_name } : null,
    version: row.version,
  };
}

// DESIGN §5: admins and editors do everything; a reporter writes drafts, edits and deletes only
// their own drafts, and never publishes, unpublishes or archives.
const isReporter = (actor: Actor) => actor.role === "reporter";

/** Whether actor may change this article at all (edit screen, PUT, DELETE). */
export function canEditArticle(actor: Actor, article: { author_id?: string | null; author?: { id: string } | null; status: string }) {
  if (!isReporter(actor)) return true;
  const authorId = article.author_id ?? article.author?.id ?? null;
  return authorId === actor.id && article.status === "draft";
}

const REPORTER_DRAFTS_ONLY = "Репортер може зберігати лише чернетки: опублікувати чи архівувати статтю може редактор";
const REPORTER_OWN_DRAFTS = "Репортер може змінювати лише власні чернетки";

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
export async function uniqueArticleSlug(trx: DB, title: string, exceptArticleId?: string): Promise<string> {
  const base = slugify(title) || "stattia";
  return firstFreeSlug(base, (s) => slugInUse(trx, s, exceptArticleId));
}

// An embedded image in markdown content: ![alt](data:image/png;base64,...).
const EMBEDDED_IMAGE = /data:image\/[a-z0-9.+-]+;base64,[A-Za-z0-9+/=]+/gi;

/**
 * DESIGN §8: a data URL in featured_image or content is stored as a media file (media model,
 * same checks as an upload) and replaced by its URL, so articles stay small. A refused image
 * becomes a 422 on the field it came from.
 */
async function storeEmbeddedImages(input: ArticleInput, actor: Actor): Promise<{ content: string; featuredImage: string | null }> {
  const store = async (dataUrl: string, field: string) => {
    try {
      return (await storeDataUrlImage({ dataUrl, userId: actor.id })).url;
    } catch (error) {
      if (error instanceof DomainError) throw new DomainError(422, error.message, field);
      throw error;
    }
  };
  let featuredImage = input.featured_image;
  if (featuredImage?.startsWith("data:")) featuredImage = await store(featuredImage, "featured_image");
  let content = input.content;
  const embedded = [...new Set(content.match(EMBEDDED_IMAGE) ?? [])];
  for (const dataUrl of embedded) content = content.split(dataUrl).join(await store(dataUrl, "content"));
  return { content, featuredImage };
}

/** The slow work of a save (image files, markdown rendering), done before the write lock. */
async function prepareSave(input: ArticleInput, actor: Actor) {
  const { content, featuredImage } = await storeEmbeddedImages(input, actor);
  if (content.length > LIMITS.content) throw new DomainError(422, MESSAGES.content, "content");
  return { content, featuredImage, html: await renderArticleHtml(content) };
}

async function requireCategory(trx: DB, categoryId: string) {
  const row = await trx.selectFrom("categories").select("id").where("id", "=", categoryId).executeTakeFirst();
  if (!row) throw new DomainError(422, MESSAGES.categoryMissing, "category_id");
}

/** Replaces an article's search row (same rowid as the article, see insertArticle). */
async function writeFts(trx: DB, a: { id: string; title: string; subtitle: string | null; content: string; tags: string[] }) {
  await sql`delete from articles_fts where rowid = (select rowid from articles where id = ${a.id})`.execute(trx);
  await sql`insert into articles_fts (rowid, article_id, title, subtitle, content, tags)
    select rowid, id, ${a.title}, ${a.subtitle ?? ""}, ${a.content}, ${a.tags.join(" ")}
    from articles where id = ${a.id}`.execute(trx);
}

/** Creates an article written by actor (SPEC §7 POST /articles/). Reporters create drafts only. */
export async function createArticle({ actor, input }: { actor: Actor; input: ArticleInput }): Promise<ArticleView> {
  if (isReporter(actor) && input.status !== "draft") throw new DomainError(403, REPORTER_DRAFTS_ONLY, "status");
  await requireCategory(db, input.category_id);
  const prepared = await prepareSave(input, actor);
  const { id, after } = await writeTransaction(async (trx) => {
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
      tags: input.tags,
    });
    return { id, after: await publicFootprint(trx, id) };
  });
  invalidateArticleChange(after);
  return (await getArticleById({ id }))!;
}

function conflict(current: { updated_at: string; editor_name?: string | null; editor_username?: string | null }) {
  const who = current.editor_name || current.editor_username || "інший користувач";
  return new DomainError(
    409,
    `Статтю вже змінив(ла) ${who} ${formatDateTime(current.updated_at)}. Ваші зміни не збережено, ваш текст залишився у формі: скопіюйте його й перезавантажте сторінку.`,
  );
}

async function requireEditable(trx: DB, actor: Actor, id: string) {
  const current = await articleViewQuery(trx).where("articles.id", "=", id).executeTakeFirst();
  if (!current) throw new DomainError(404, "Статтю не знайдено");
  if (!canEditArticle(actor, current)) throw new DomainError(403, REPORTER_OWN_DRAFTS);
  return current;
}

/**
 * Saves an article (SPEC §7 PUT /articles/{id}). With `input.version`, a save based on an older
 * version is refused (409) naming who saved the newer one. A published article whose slug
 * changes keeps its old slug as a 301 redirect.
 */
export async function updateArticle({ actor, id, input }: { actor: Actor; id: string; input: ArticleInput }): Promise<ArticleView> {
  const before = await requireEditable(db, actor, id);
  if (isReporter(actor) && input.status !== "draft") throw new DomainError(403, REPORTER_DRAFTS_ONLY, "status");
  if (input.version !== undefined && input.version !== before.version) throw conflict(before);
  await requireCategory(db, input.category_id);
  const prepared = await prepareSave(input, actor);
  const footprints = await writeTransaction(async (trx) => {
    const current = await requireEditable(trx, actor, id);
    const before = await publicFootprint(trx, id);
    if (input.version !== undefined && input.version !== current.version) throw conflict(current);
    await requireCategory(trx, input.category_id);
    const slug = input.slug ?? current.slug;
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
    const now = new Date().toISOString();
    await trx
      .updateTable("articles")
      .set({
        slug,
        title: input.title,
        subtitle: input.subtitle,
        content: prepared.content,
        content_html: prepared.html,
        category_id: input.category_id,
        status: input.status,
        published_at: input.status === "published" ? (current.published_at ?? now) : current.published_at,
        seo_title: input.seo_title,
        seo_description: input.seo_description,
        featured_image: prepared.featuredImage,
        updated_at: now,
        updated_by: actor.id,
        version: sql`version + 1`,
      })
      .where("id", "=", id)
      .execute();
    await setArticleTags(trx, { articleId: id, tags: input.tags });
    await writeFts(trx, { id, title: input.title, subtitle: input.subtitle, content: prepared.content, tags: input.tags });
    return [before, await publicFootprint(trx, id)];
  });
  invalidateArticleChange(...footprints);
  return (await getArticleById({ id }))!;
}

/** Publishes ('published') or unpublishes ('draft') an article; editors and admins only. */
export async function setArticleStatus({
  actor,
  id,
  status,
}: {
  actor: Actor;
  id: string;
  status: "published" | "draft";
}): Promise<ArticleView> {
  const footprints = await writeTransaction(async (trx) => {
    const current = await trx.selectFrom("articles").select(["id", "status", "published_at"]).where("id", "=", id).executeTakeFirst();
    if (!current) throw new DomainError(404, "Статтю не знайдено");
    if (isReporter(actor)) throw new DomainError(403, "Публікувати й знімати з публікації може лише редактор або адміністратор");
    if (current.status === status) return [];
    const before = await publicFootprint(trx, id);
    const now = new Date().toISOString();
    await trx
      .updateTable("articles")
      .set({
        status,
        published_at: status === "published" ? (current.published_at ?? now) : current.published_at,
        updated_at: now,
        updated_by: actor.id,
        version: sql`version + 1`,
      })
      .where("id", "=", id)
      .execute();
    return [before, await publicFootprint(trx, id)];
  });
  invalidateArticleChange(...footprints);
  return (await getArticleById({ id }))!;
}

/** Deletes an article with its tags, redirects and search row; reporters only their own drafts. */
export async function deleteArticle({ actor, id }: { actor: Actor; id: string }): Promise<{ title: string }> {
  const deleted = await writeTransaction(async (trx) => {
    const current = await requireEditable(trx, actor, id);
    const before = await publicFootprint(trx, id);
    await sql`delete from articles_fts where rowid = (select rowid from articles where id = ${id})`.execute(trx);
    await trx.deleteFrom("articles").where("id", "=", id).execute();
    return { ...current, before };
  });
  invalidateArticleChange(deleted.before);
  return { title: deleted.title };
}

/** The words of a search as an FTS5 query: each a quoted prefix term, all required. */
export function ftsQuery(search: string): string | undefined {
  const words = search.normalize("NFC").match(/[\p{L}\p{N}]+/gu)?.slice(0, 12) ?? [];
  return words.length ? words.map((w) => `"${w}"*`).join(" ") : undefined;
}

export interface AdminListFilters {
  status?: ArticleStatusValue;
  search?: string;
  categoryId?: string;
  skip?: number;
  limit?: number;
}

/** The admin article list (SPEC §2 'Article list'): newest first, full-text search, filters. */
export async function listAdminArticles({ status, search, categoryId, skip = 0, limit = 20 }: AdminListFilters) {
  const match = search ? ftsQuery(search) : undefined;
  // With a search, the page walks the created_at index newest first and keeps the rows whose
  // rowid the full-text index returned, stopping after `limit`: the unary `+` / `+ 0` keep
  // SQLite from driving the query by the status index or by the (possibly huge) match list and
  // sorting it all. Measured by tests/bench/newsroom-list.ts.
  const rowsQuery = db
    .selectFrom("articles")
    .$if(Boolean(status), (q) => q.where(match ? sql<boolean>`+articles.status = ${status}` : sql<boolean>`articles.status = ${status}`))
    .$if(Boolean(categoryId), (q) =>
      q.where(match ? sql<boolean>`+articles.category_id = ${categoryId}` : sql<boolean>`articles.category_id = ${categoryId}`),
    )
    .$if(Boolean(match), (q) => q.where(sql<boolean>`(articles.rowid + 0) in (select rowid from articles_fts where articles_fts match ${match})`));
  const filters = sql.join(
    [
      sql`1`,
      ...(status ? [sql`articles.status = ${status}`] : []),
      ...(categoryId ? [sql`articles.category_id = ${categoryId}`] : []),
    ],
    sql` and `,
  );
  // A count of a search without other filters reads only the full-text index.
  const countQuery = match
    ? status || categoryId
      ? // Walks the (covering) status or category index and tests each rowid against the match set.
        sql<{ n: number }>`select count(*) as n from articles
          where ${filters} and (articles.rowid + 0) in (select rowid from articles_fts where articles_fts match ${match})`
      : sql<{ n: number }>`select count(*) as n from articles_fts where articles_fts match ${match}`
    : sql<{ n: number }>`select count(*) as n from articles where ${filters}`;
  const [rows, total] = await Promise.all([
    rowsQuery
      .leftJoin("categories", "categories.id", "articles.category_id")
      .leftJoin("users", "users.id", "articles.author_id")
      .select([
        "articles.id",
        "articles.slug",
        "articles.title",
        "articles.subtitle",
        "articles.status",
        "articles.views",
        "articles.created_at",
        "articles.published_at",
        "articles.author_id",
        "articles.category_id",
        "categories.name as category_name",
        "users.username as author_username",
        "users.name as author_name",
      ])
      .orderBy("articles.created_at", "desc")
      .offset(skip)
      .limit(limit)
      .execute(),
    countQuery.execute(db).then((result) => result.rows[0]),
  ]);
  return {
    articles: rows.map((r) => ({
      id: r.id,
      slug: r.slug,
      title: r.title,
      subtitle: r.subtitle,
      status: r.status,
      views: r.views,
      created_at: r.created_at,
      published_at: r.published_at,
      category: r.category_id && r.category_name ? { id: r.category_id, name: r.category_name } : null,
      category_id: r.category_id,
      author: r.author_id && r.author_username ? { id: r.author_id, username: r.author_username, profile: { name: r.author_name } } : null,
    })),
    total: Number(total.n),
  };
}

/** Published articles with their public fields (GET /api/articles/), newest first. */
export async function listPublishedArticles({ skip = 0, limit = 20, categoryId }: { skip?: number; limit?: number; categoryId?: string }) {
  const base = () =>
    db
      .selectFrom("articles")
      .where("articles.status", "=", "published")
      .$if(Boolean(categoryId), (q) => q.where("articles.category_id", "=", categoryId!));
  const [rows, total] = await Promise.all([
    base()
      .leftJoin("categories", "categories.id", "articles.category_id")
      .leftJoin("users", "users.id", "articles.author_id")
      .select([
        "articles.id",
        "articles.slug",
        "articles.title",
        "articles.subtitle",
        "articles.featured_image",
        "articles.published_at",
        "articles.views",
        "articles.category_id",
        "categories.name as category_name",
        "categories.slug as category_slug",
        "users.username as author_username",
        "users.name as author_name",
      ])
      .orderBy("articles.published_at", "desc")
      .offset(skip)
      .limit(limit)
      .execute(),
    base().select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
  ]);
  return {
    articles: rows.map((r) => ({
      id: r.id,
      slug: r.slug,
      title: r.title,
      subtitle: r.subtitle,
      featured_image: r.featured_image,
      published_at: r.published_at,
      views: r.views,
      category: r.category_id && r.category_name ? { id: r.category_id, name: r.category_name, slug: r.category_slug } : null,
      author: r.author_username ? { username: r.author_username, profile: { name: r.author_name } } : null,
      url: `/article/${r.slug}`,
    })),
    total: Number(total.n),
  };
}

// ---------------------------------------------------------------------------------------------
// Precise invalidation of the anonymous page cache after an article write (docs/decisions/010).
// A published article shows on its own page (under its id, slug and old slugs), on the home, in
// its category's list, in search results and feeds, and, while it is among the newest published
// ones, in the "latest" column every category page shows. Nothing else shows it (the article page
// shows only its own article plus the menu and settings).

/** The "latest news" column of category pages: listLatestCards({ limit: 5 }). */
const LATEST_COLUMN = 5;

interface PublicFootprint {
  published: boolean;
  refs: string[];
  categorySlug: string | null;
  inLatest: boolean;
}

/** Where an article shows on the public site right now (read inside the write's transaction). */
async function publicFootprint(executor: DB, id: string): Promise<PublicFootprint | undefined> {
  const row = await executor
    .selectFrom("articles")
    .leftJoin("categories", "categories.id", "articles.category_id")
    .select(["articles.id", "articles.slug", "articles.status", "articles.published_at", "categories.slug as category_slug"])
    .where("articles.id", "=", id)
    .executeTakeFirst();
  if (!row) return undefined;
  const oldSlugs = await executor.selectFrom("slug_redirects").select("old_slug").where("article_id", "=", id).execute();
  const published = row.status === "published";
  let inLatest = false;
  if (published) {
    const last = await executor
      .selectFrom("articles")
      .select("published_at")
      .where("status", "=", "published")
      .orderBy("published_at", "desc")
      .limit(1)
      .offset(LATEST_COLUMN - 1)
      .executeTakeFirst();
    inLatest = !last || (row.published_at ?? "") >= (last.published_at ?? "");
  }
  return { published, refs: [row.id, row.slug, ...oldSlugs.map((r) => r.old_slug)], categorySlug: row.category_slug, inLatest };
}

/** Clears the cached pages an article showed on before the write and shows on after it. */
function invalidateArticleChange(...footprints: (PublicFootprint | undefined)[]) {
  const shown = footprints.filter((f): f is PublicFootprint => Boolean(f?.published));
  // A draft before and after: readers never saw it (its URLs answered 404, which is not cached).
  if (!shown.length) return;
  const tags = new Set<string>([CACHE_TAG.home, CACHE_TAG.search, CACHE_TAG.feed]);
  for (const f of footprints) {
    if (!f) continue;
    for (const ref of f.refs) tags.add(CACHE_TAG.article(ref));
    if (f.categorySlug) tags.add(CACHE_TAG.category(f.categorySlug));
    if (f.inLatest) tags.add(CACHE_TAG.categories);
  }
  invalidatePublicCache([...tags]);
}
