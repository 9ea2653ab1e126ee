import { sql, type ExpressionBuilder, type RawBuilder } from "kysely";
import { db, type DB } from "../../db/index";
import type { Database, User } from "../../db/schema";
import { jsonArrayFrom } from "../../db/sql/json";
import { matchesRowid, matchingRowids } from "../../db/sql/search";
import { ukOrder, unindexed } from "../../db/sql/text";
import type { Byline } from "../utils/bylines";
import type { AdminSort, ArticleStatus } from "../utils/newsroom-rules";
import { isEmptyQuery, parseSearch } from "../utils/search-text.server";
import { readableFilter } from "./article-access.server";
import { articleScience, type ArticleCorrection, type ArticleSource } from "./article-science.server";
import { bylineColumn, parseBylines } from "./bylines.server";
import { approvedCommentCount } from "./comment-count.server";

// Reads of articles. Every read (the admin list, the editor, GET /api/articles/, the public
// pages in public-article.server.ts) starts from articleRows(): one join, one select list.

/**
 * Articles joined with their category and author, selecting what every list shows; a caller
 * adds its filters, its order and the few columns only it needs.
 */
export function articleRows(executor: DB = db) {
  return executor
    .selectFrom("articles")
    .leftJoin("categories", "categories.id", "articles.category_id")
    .leftJoin("users as author", "author.id", "articles.author_id")
    .select([
      "articles.id",
      "articles.slug",
      "articles.title",
      "articles.subtitle",
      "articles.status",
      "articles.featured_image",
      "articles.featured_image_alt",
      "articles.featured_image_caption",
      "articles.published_at",
      "articles.created_at",
      "articles.updated_at",
      "articles.views",
      "articles.category_id",
      "articles.author_id",
      "categories.name as category_name",
      "categories.slug as category_slug",
      "author.username as author_username",
      "author.name as author_name",
      "articles.noindex",
      "articles.embargo_until",
    ])
    .select(bylineColumn);
}

type ArticleRow = Awaited<ReturnType<ReturnType<typeof articleRows>["executeTakeFirstOrThrow"]>>;

/** The fields every article shape starts with. */
const heading = (r: ArticleRow) => ({ id: r.id, slug: r.slug, title: r.title, subtitle: r.subtitle });

/** The author as the newsroom's shapes show it, or null for a deleted user. */
const authorOf = (r: ArticleRow) =>
  r.author_id && r.author_username ? { id: r.author_id, username: r.author_username, profile: { name: r.author_name } } : null;

/** An article's tag names in their saved order, as one JSON column of the same query. */
export function tagNames(eb: ExpressionBuilder<Database, "articles">) {
  return jsonArrayFrom(
    eb
      .selectFrom("article_tags")
      .innerJoin("tags", "tags.id", "article_tags.tag_id")
      .select("tags.name")
      .whereRef("article_tags.article_id", "=", "articles.id")
      .orderBy("article_tags.position"),
  ).as("tags");
}

/** The tags column of tagNames as a list: SQLite hands JSON back as text, PostgreSQL parsed. */
export function parseTagNames(value: { name: string }[] | string): string[] {
  const list: { name: string }[] = typeof value === "string" ? JSON.parse(value) : value;
  return list.map((tag) => tag.name);
}

/** Matches an article by its slug or its id (public URLs and the view counter accept both). */
export function bySlugOrId(ref: string) {
  return (eb: ExpressionBuilder<Database, "articles">) => eb.or([eb("articles.slug", "=", ref), eb("articles.id", "=", ref)]);
}

/** The published article an old slug of it still names (answered with a 301), or undefined. */
export function findRedirectedArticle(oldSlug: string) {
  return db
    .selectFrom("slug_redirects")
    .innerJoin("articles", "articles.id", "slug_redirects.article_id")
    .select(["articles.id", "articles.slug"])
    .where("slug_redirects.old_slug", "=", oldSlug)
    .where("articles.status", "=", "published")
    .executeTakeFirst();
}

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
  featured_image_alt: string | null;
  featured_image_caption: string | null;
  status: ArticleStatus;
  published_at: string | null;
  created_at: string;
  updated_at: string;
  views: number;
  seo_title: string | null;
  seo_description: string | null;
  author: { id: string; username: string; profile: { name: string | null } } | null;
  /** Issue 29: every author in order (the first is `author`). */
  authors: Byline[];
  /** Issue 29: kept out of search engines, sitemaps and feeds. */
  noindex: boolean;
  updated_by: { id: string; username: string; name: string | null } | null;
  version: number;
  /** Issue 29 (DESIGN §16): the embargo (UTC), the "Оновлено" time, the sources and corrections (newest first). */
  embargo_until: string | null;
  embargo_note: string | null;
  updated_significantly_at: string | null;
  sources: ArticleSource[];
  corrections: ArticleCorrection[];
}

/** articleRows plus what the editor needs: the text, SEO fields, version, last editor, tags. */
export function editableArticleRows(executor: DB = db) {
  return articleRows(executor)
    .leftJoin("users as editor", "editor.id", "articles.updated_by")
    .select([
      "articles.content",
      "articles.seo_title",
      "articles.seo_description",
      "articles.version",
      "articles.updated_by",
      "editor.username as editor_username",
      "editor.name as editor_name",
      "articles.embargo_until",
      "articles.embargo_note",
      "articles.updated_significantly_at",
    ])
    .select(tagNames);
}

/** An article for editing (any status), or undefined. */
export async function getArticleById({ id }: { id: string }, executor: DB = db): Promise<ArticleView | undefined> {
  const row = await editableArticleRows(executor).where("articles.id", "=", id).executeTakeFirst();
  if (!row) return undefined;
  return {
    ...heading(row),
    content: row.content,
    category: row.category_id && row.category_name ? { id: row.category_id, name: row.category_name, slug: row.category_slug! } : null,
    category_id: row.category_id,
    tags: parseTagNames(row.tags),
    featured_image: row.featured_image,
    featured_image_alt: row.featured_image_alt,
    featured_image_caption: row.featured_image_caption,
    status: row.status,
    published_at: row.published_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
    views: row.views,
    seo_title: row.seo_title,
    seo_description: row.seo_description,
    author: authorOf(row),
    authors: parseBylines(row.bylines, { withIds: true }),
    noindex: Boolean(row.noindex),
    updated_by: row.updated_by && row.editor_username ? { id: row.updated_by, username: row.editor_username, name: row.editor_name } : null,
    version: row.version,
    embargo_until: row.embargo_until,
    embargo_note: row.embargo_note,
    updated_significantly_at: row.updated_significantly_at,
    ...(await articleScience(row.id, executor)),
  };
}

const SORT_COLUMNS = { created: "articles.created_at", views: "articles.views", title: "articles.title" } as const;

export interface AdminListFilters {
  /** Column and direction (issue 17); newest first by default. */
  sort?: AdminSort;
  dir?: "asc" | "desc";
  status?: ArticleStatus;
  search?: string;
  categoryId?: string;
  skip?: number;
  limit?: number;
  /** Who is reading: a reporter sees only what they may read (article-access.server.ts). */
  reader?: Pick<User, "id" | "role">;
}

/** The most matches the admin list counts for a search ("понад 1000" past it). */
export const ADMIN_SEARCH_COUNTED = 1000;

/** The admin article list (SPEC §2 'Article list'): newest first, full-text search, filters. */
export async function listAdminArticles({ status, search, categoryId, skip = 0, limit = 20, sort = "created", dir = "desc", reader }: AdminListFilters) {
  // The same words, stems and phrases as the public search box (app/utils/search-text.server.ts).
  const query = parseSearch(search);
  const match = isEmptyQuery(query) ? undefined : matchingRowids(query);
  // A search finds its rows in one of three ways (issue 30 item 3: the cost must not grow with the
  // archive), chosen by how many matches there are (counted up to ADMIN_SEARCH_COUNTED + 1 from the
  // index alone) against how many articles (the highest rowid):
  // - a walk, newest first, when the matches are dense enough that the page fills within a few
  //   times as many rows as there are matches: the created_at index is walked from the newest and
  //   each row is tested with one probe of the index (matchesRowid), stopping after the page
  //   (100,000 articles, a word in 77,000 of them: 17 ms reading the match list first, 1.8 ms so);
  // - the list, when they are few and sparse (a rare word): the rows are read by rowid from the
  //   match list, filtered and sorted (a word in one article: 12 ms walking, 1.2 ms so);
  // - another order than the newest with many matches still reads them all to sort them.
  // Measured by tests/bench/newsroom-list.ts and the bench's admin row.
  const counted = match
    ? (
        await sql<{ n: number; top: number | null }>`select count(*) as n, (select max(rowid) from articles) as top
          from (${match} limit ${ADMIN_SEARCH_COUNTED + 1}) counted`.execute(db)
      ).rows[0]
    : undefined;
  const matches = Number(counted?.n ?? 0);
  const many = matches > ADMIN_SEARCH_COUNTED;
  const dense = matches > 0 && ((skip + limit) * Number(counted?.top ?? 0)) / matches <= 4 * matches;
  const walk = Boolean(match) && sort === "created" && (many || dense);
  // With a search the status and category indexes must not drive the query (the `+` of
  // unindexed): a walk follows created_at, a list its rowids.
  const plain = Boolean(match);
  const readable = readableFilter(reader, { plain });
  const column = (name: "articles.status" | "articles.category_id") => (plain ? unindexed(sql.ref(name)) : sql.ref(name));
  const filters = [
    ...(status ? [sql<boolean>`${column("articles.status")} = ${status}`] : []),
    ...(categoryId ? [sql<boolean>`${column("articles.category_id")} = ${categoryId}`] : []),
    ...(readable ? [readable] : []),
  ];
  const listed = match && !many ? sql<boolean>`articles.rowid in (${match})` : undefined;
  const matching = !match ? undefined : walk ? matchesRowid(query, sql.ref("articles.rowid")) : (listed ?? sql<boolean>`(articles.rowid + 0) in (${match})`);
  const whereOf = (condition?: RawBuilder<boolean>) => sql<boolean>`${sql.join([sql`1 = 1`, ...filters, ...(condition ? [condition] : [])], sql` and `)}`;
  const rowsQuery = articleRows().where(whereOf(matching));
  // Without a search every article with the filters is counted. A search with no filter has its
  // count already; with filters, few matches are counted through their rowids, many up to
  // ADMIN_SEARCH_COUNTED + 1 along the walk (past it `capped`).
  const countQuery =
    match && !filters.length
      ? undefined
      : many
        ? sql<{ n: number }>`select count(*) as n from (select 1 from articles where ${whereOf(matching)} limit ${ADMIN_SEARCH_COUNTED + 1}) counted`
        : sql<{ n: number }>`select count(*) as n from articles where ${whereOf(listed)}`;
  const [rows, total] = await Promise.all([
    rowsQuery
      .$if(sort === "title", (q) => q.orderBy(ukOrder(sql.ref("articles.title")), dir))
      .$if(sort !== "title", (q) => q.orderBy(SORT_COLUMNS[sort], dir))
      // Ties (same views, same title) keep a stable newest-first order across pages.
      // (the default, created_at alone, lets SQLite walk its index newest first without sorting).
      .$if(sort !== "created", (q) => q.orderBy("articles.created_at", "desc"))
      .offset(skip)
      .limit(limit)
      .execute(),
    countQuery ? countQuery.execute(db).then((result) => Number(result.rows[0].n)) : matches,
  ]);
  return {
    articles: rows.map((r) => ({
      ...heading(r),
      status: r.status,
      views: r.views,
      created_at: r.created_at,
      published_at: r.published_at,
      category: r.category_id && r.category_name ? { id: r.category_id, name: r.category_name } : null,
      category_id: r.category_id,
      author: authorOf(r),
      authors: parseBylines(r.bylines, { withIds: true }),
      embargo_until: r.embargo_until, // issue 29
    })),
    // Past ADMIN_SEARCH_COUNTED matches the total is that many and `capped` says there are more.
    total: Math.min(total, match ? ADMIN_SEARCH_COUNTED : Infinity),
    capped: Boolean(match) && total > ADMIN_SEARCH_COUNTED,
  };
}

/** Published articles with their public fields (GET /api/articles/), newest first. */
export async function listPublishedArticles({ skip = 0, limit = 20, categoryId }: { skip?: number; limit?: number; categoryId?: string }) {
  const [rows, total] = await Promise.all([
    articleRows()
      .where("articles.status", "=", "published")
      .$if(Boolean(categoryId), (q) => q.where("articles.category_id", "=", categoryId!))
      .select(approvedCommentCount)
      .orderBy("articles.published_at", "desc")
      .offset(skip)
      .limit(limit)
      .execute(),
    countPublished({ categoryId }),
  ]);
  return {
    articles: rows.map((r) => ({
      ...heading(r),
      featured_image: r.featured_image,
      published_at: r.published_at,
      views: r.views,
      category: r.category_id && r.category_name ? { id: r.category_id, name: r.category_name, slug: r.category_slug } : null,
      author: r.author_username ? { username: r.author_username, profile: { name: r.author_name } } : null,
      authors: parseBylines(r.bylines),
      url: `/article/${r.slug}`,
      comment_count: Number(r.comment_count ?? 0),
    })),
    total,
  };
}

/** How many articles there are, per status, and their views in all (dashboard, SEO overview). */
export async function countArticles() {
  const row = await db
    .selectFrom("articles")
    .select([
      (eb) => eb.fn.countAll<number>().as("total"),
      sql<number>`coalesce(sum(case when status = 'published' then 1 else 0 end), 0)`.as("published"),
      sql<number>`coalesce(sum(case when status = 'draft' then 1 else 0 end), 0)`.as("draft"),
      sql<number>`coalesce(sum(case when status = 'archived' then 1 else 0 end), 0)`.as("archived"),
      sql<number>`coalesce(sum(case when status = 'review' then 1 else 0 end), 0)`.as("review"),
      sql<number>`coalesce(sum(case when status = 'scheduled' then 1 else 0 end), 0)`.as("scheduled"),
      sql<number>`coalesce(sum(views), 0)`.as("views"),
    ])
    .executeTakeFirstOrThrow();
  return {
    total: Number(row.total),
    published: Number(row.published),
    draft: Number(row.draft),
    archived: Number(row.archived),
    review: Number(row.review),
    scheduled: Number(row.scheduled),
    views: Number(row.views),
  };
}

/** How many articles are published, in one category or in all. */
export async function countPublished({ categoryId }: { categoryId?: string } = {}): Promise<number> {
  const row = await db
    .selectFrom("articles")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("articles.status", "=", "published")
    .$if(Boolean(categoryId), (q) => q.where("articles.category_id", "=", categoryId!))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
