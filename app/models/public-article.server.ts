import { sql } from "kysely";
import { db } from "../../db/index";
import type { BlockId } from "../../db/schema";
import type { Byline } from "../utils/bylines";
import { formatPublicDate, formatPublicDateTime, readingMinutes } from "../utils/public-format";
import { articleRows, bySlugOrId, countPublished, findRedirectedArticle } from "./article-queries.server";
import { articleScience } from "./article-science.server";
import { parseBylines, parseTagLinks, tagLinks } from "./bylines.server";
import { MENU_CATEGORY_SLUGS } from "./category.server";
import { approvedCommentCount } from "./comment-count.server";
import { HOMEPAGE_BLOCKS, getHomepageLayout } from "./homepage.server";

// Reads of published articles for the public site (home, article, category, search, feeds and
// their JSON doors), built on the shared article selection of article-queries.server.ts. Every
// function returns plain data, never HTTP.

/** Fallback stock image for cards and articles without one (SPEC §3 'Card view model'). */
export const FALLBACK_IMAGE = "/images/fallback.jpg";

/** SPEC §3 'Card view model' (public), as the pages and GET /api/homepage/public use it. */
export interface Card {
  id: string;
  slug: string;
  title: string;
  subtitle: string | null;
  /** Category name, or null (blocks show 'News', the main list 'Science'). */
  category: string | null;
  category_slug: string | null;
  /** Published date in uk-UA format, else 'Just now'. */
  time: string;
  published_at: string | null;
  views: number;
  author: string;
  /** Issue 29: every author in order, each linking to their page. Absent on built-in sample cards. */
  authors?: Byline[];
  image: string;
  /** '/article/{slug}'; null for built-in sample cards, which have no page. */
  url: string | null;
  /** Issue 28: approved readers' comments. */
  comment_count: number;
}

/** Published articles with what a card shows (the shared article selection). */
function cardQuery() {
  return articleRows().where("articles.status", "=", "published").select(approvedCommentCount);
}

type CardRow = Awaited<ReturnType<ReturnType<typeof cardQuery>["execute"]>>[number];

export function toCard(row: CardRow): Card {
  return {
    id: row.id,
    slug: row.slug,
    title: row.title || "No title",
    subtitle: row.subtitle || null,
    category: row.category_name ?? null,
    category_slug: row.category_slug ?? null,
    time: row.published_at ? formatPublicDate(row.published_at) : "Just now",
    published_at: row.published_at,
    views: Number(row.views ?? 0),
    author: row.author_name || row.author_username || "",
    authors: parseBylines(row.bylines),
    image: row.featured_image || FALLBACK_IMAGE,
    url: `/article/${row.slug}`,
    comment_count: Number(row.comment_count ?? 0),
  };
}

export type HomepageBlocks = Record<BlockId, Card[]>;

/**
 * The public homepage: the saved layout's published articles per block, in order; an empty block
 * is filled with the newest published articles not already on the page (DESIGN §8). Returns
 * undefined when nothing is published (the caller shows the built-in sample).
 */
export async function getPublicHomepage(): Promise<HomepageBlocks | undefined> {
  const layout = await getHomepageLayout();
  const ids = [...new Set(Object.values(layout).flat())];
  const rows = ids.length ? await cardQuery().where("articles.id", "in", ids).execute() : [];
  const byId = new Map(rows.map((r) => [r.id, toCard(r)]));
  const blocks = {} as HomepageBlocks;
  const onPage = new Set<string>();
  for (const def of HOMEPAGE_BLOCKS) {
    blocks[def.id] = layout[def.id].flatMap((id) => byId.get(id) ?? []).slice(0, def.maxArticles);
    for (const card of blocks[def.id]) onPage.add(card.id);
  }
  const empty = HOMEPAGE_BLOCKS.filter((def) => blocks[def.id].length === 0);
  if (empty.length) {
    const needed = empty.reduce((sum, def) => sum + def.maxArticles, 0);
    let query = cardQuery().orderBy("articles.published_at", "desc").limit(needed);
    if (onPage.size) query = query.where("articles.id", "not in", [...onPage]);
    const fill = (await query.execute()).map(toCard);
    if (!fill.length && onPage.size === 0) return undefined;
    for (const def of empty) blocks[def.id] = fill.splice(0, def.maxArticles);
  }
  return blocks;
}

/** Up to `limit` other published articles of a category, newest first (hero's related tiles). */
export async function listRelated({ categorySlug, excludeIds, limit }: { categorySlug: string | null; excludeIds: string[]; limit: number }) {
  let query = cardQuery().orderBy("articles.published_at", "desc").limit(limit);
  if (categorySlug) query = query.where("categories.slug", "=", categorySlug);
  if (excludeIds.length) query = query.where("articles.id", "not in", excludeIds);
  return (await query.execute()).map(toCard);
}

/** The newest published articles as cards. */
export async function listLatestCards({ limit, offset = 0 }: { limit: number; offset?: number }) {
  return (await cardQuery().orderBy("articles.published_at", "desc").limit(limit).offset(offset).execute()).map(toCard);
}

/** One page of a category's published articles, newest first, with the total. */
export async function listCategoryCards({ categoryId, page, perPage }: { categoryId: string; page: number; perPage: number }) {
  const [rows, total] = await Promise.all([
    cardQuery()
      .where("articles.category_id", "=", categoryId)
      .orderBy("articles.published_at", "desc")
      .limit(perPage)
      .offset((page - 1) * perPage)
      .execute(),
    countPublished({ categoryId }),
  ]);
  return { cards: rows.map(toCard), total };
}

/**
 * A published article by slug or id with everything its page shows, or `{ redirectTo }` when the
 * slug is an old one of a published article (answered with a 301), or undefined.
 */
export async function getPublicArticle({ slugOrId }: { slugOrId: string }) {
  const article = await articlePageQuery(articleRows().where("articles.status", "=", "published"))
    .where(bySlugOrId(slugOrId))
    .executeTakeFirst();
  if (!article) {
    const moved = await findRedirectedArticle(slugOrId);
    return moved && moved.slug !== slugOrId ? { redirectTo: moved.slug } : undefined;
  }
  return { article: toPublicArticle(article, await articleScience(article.id)) };
}

/**
 * Any article by id, whatever its status, as its public page would show it: what a preview link
 * (issue 15, preview-link.server.ts) shows someone outside the newsroom. Undefined when unknown.
 */
export async function getArticlePageById({ id }: { id: string }) {
  const article = await articlePageQuery(articleRows()).where("articles.id", "=", id).executeTakeFirst();
  return article ? toPublicArticle(article, await articleScience(article.id)) : undefined;
}

/** The shared selection plus what the article page shows beyond a card (issue 29: the tags with their page slugs). */
function articlePageQuery(base: ReturnType<typeof articleRows>) {
  return base
    .select([
      "articles.content_html",
      "articles.seo_title",
      "articles.seo_description",
      "articles.meta_keywords",
      "articles.og_image",
      "articles.canonical_url",
      "articles.featured_image_alt",
      "articles.featured_image_caption",
      "articles.comments_mode",
      "articles.updated_significantly_at",
      "articles.embargo_until",
    ])
    .select(approvedCommentCount)
    .select(tagLinks);
}

type ArticlePageRow = NonNullable<Awaited<ReturnType<ReturnType<typeof articlePageQuery>["executeTakeFirst"]>>>;

/** The page's fields only: the shared selection's ids and status stay out of the page's data. */
function toPublicArticle(article: ArticlePageRow, science: Awaited<ReturnType<typeof articleScience>>) {
  return {
    id: article.id,
    slug: article.slug,
    title: article.title || "No title",
    subtitle: article.subtitle,
    content_html: article.content_html,
    published_at: article.published_at,
    updated_at: article.updated_at,
    views: Number(article.views ?? 0),
    featured_image: article.featured_image,
    seo_title: article.seo_title,
    seo_description: article.seo_description,
    meta_keywords: article.meta_keywords,
    og_image: article.og_image,
    canonical_url: article.canonical_url,
    category_name: article.category_name,
    category_slug: article.category_slug,
    author_name: article.author_name,
    author_username: article.author_username,
    author: article.author_name || article.author_username || "",
    authors: parseBylines(article.bylines),
    noindex: Boolean(article.noindex),
    tag_links: parseTagLinks(article.tag_links),
    image: article.featured_image || null,
    category_id: article.category_id,
    published_time: article.published_at ? formatPublicDateTime(article.published_at) : null,
    reading_minutes: readingMinutes(article.content_html ?? ""),
    image_alt: article.featured_image_alt,
    image_caption: article.featured_image_caption,
    time: article.published_at ? formatPublicDate(article.published_at) : "Just now",
    tags: parseTagLinks(article.tag_links).map((t) => t.name),
    comment_count: Number(article.comment_count ?? 0),
    comments_mode: article.comments_mode,
    // Issue 29 (DESIGN §16): "Оновлено", the embargo (a preview's banner), sources, corrections newest first.
    updated_significantly_at: article.updated_significantly_at,
    embargo_until: article.embargo_until,
    sources: science.sources,
    corrections: science.corrections.map((c) => ({ note: c.note, created_at: c.created_at })),
  };
}

/**
 * How many of the newest articles per tag, and of its category, a related row is chosen from.
 * 24, not 60: the ranking read of ~200 candidates was 0.55 ms of a 6.5 ms cold article render
 * (docs/perf/016-page-store.md); an article sharing two tags is still found among the newest.
 */
const RELATED_CANDIDATES = 24;

/**
 * Related articles for an article page (issue 17): those sharing the most tags with it, then the
 * newest, from its category or its tags; the newest others fill a short row. The candidates are
 * the newest per tag and of the category, each read from an index and stopped early, so the cost
 * does not grow with the size of a category or of a common tag (DESIGN §9 cost growth: ranking
 * every article of the category took 35 ms a page at 10,000 articles, 0.2 s at 100,000).
 */
export async function listRelatedArticles({ id, categoryId, limit = 4 }: { id: string; categoryId: string | null; limit?: number }): Promise<Card[]> {
  const tags = await db.selectFrom("article_tags").select("tag_id").where("article_id", "=", id).execute();
  // One statement for every candidate list (a statement costs a round trip on PostgreSQL; issue 26):
  // each list is a subquery with its own ORDER BY and LIMIT, so each walk still stops early (each
  // member of the UNION ALL is its own scope, so every list may be called "list").
  const lists = [
    ...tags.map(({ tag_id }) =>
      db
        .selectFrom(
          db
            .selectFrom("article_tags")
            .select("article_id as id")
            .where("tag_id", "=", tag_id)
            .where("article_id", "!=", id)
            // Newest tagging first: the tag index holds the rowid, so this walk stops after the limit.
            .orderBy(sql`rowid`, "desc")
            .limit(RELATED_CANDIDATES)
            .as("list"),
        )
        .select(["list.id", sql<number>`1`.as("shared")]),
    ),
    ...(categoryId
      ? [
          db
            .selectFrom(
              cardQuery()
                .clearSelect()
                .select("articles.id")
                .where("articles.category_id", "=", categoryId)
                .where("articles.id", "!=", id)
                .orderBy("articles.published_at", "desc")
                .limit(RELATED_CANDIDATES)
                .as("list"),
            )
            .select(["list.id", sql<number>`0`.as("shared")]),
        ]
      : []),
  ];
  // Ranked on two columns first; only the chosen few are read as cards.
  const ranked = lists.length
    ? (
        await db
          .selectFrom(lists.reduce((all, list) => all.unionAll(list)).as("candidates"))
          // By primary key only: with the status in the WHERE, SQLite walks every published row.
          .innerJoin("articles", "articles.id", "candidates.id")
          .select(["articles.id", "articles.status", "articles.published_at", (eb) => eb.fn.sum<number>("candidates.shared").as("shared")])
          .groupBy(["articles.id", "articles.status", "articles.published_at"])
          .execute()
      )
        .filter((r) => r.status === "published")
        .sort((a, b) => Number(b.shared) - Number(a.shared) || (b.published_at ?? "").localeCompare(a.published_at ?? ""))
        .slice(0, limit)
        .map((r) => r.id)
    : [];
  const cards = ranked.length ? await articleRows().select(approvedCommentCount).where("articles.id", "in", ranked).execute() : [];
  const rows = ranked.map((rid) => cards.find((c) => c.id === rid)!).filter(Boolean);
  if (rows.length >= limit) return rows.map(toCard);
  // A small category: the newest other articles fill the row, so it never looks empty.
  const newest = await cardQuery()
    .where("articles.id", "not in", [id, ...rows.map((r) => r.id)])
    .orderBy("articles.published_at", "desc")
    .limit(limit - rows.length)
    .execute();
  return [...rows, ...newest].map(toCard);
}

export type PublicArticle = ReturnType<typeof toPublicArticle>;

/** The newest published articles for the RSS feed (with their summary text). */
export async function listFeedArticles({ limit }: { limit: number }) {
  return cardQuery().select("articles.seo_description").where("articles.noindex", "=", 0).orderBy("articles.published_at", "desc").limit(limit).execute();
}

/** The menu categories a sitemap lists, and the last change of any published article (the home's lastmod). */
export async function listSitemapPages() {
  const [categories, newest] = await Promise.all([
    db
      .selectFrom("categories")
      .select(["slug", "updated_at"])
      .where("slug", "in", [...MENU_CATEGORY_SLUGS])
      .execute(),
    db
      .selectFrom("articles")
      .select((eb) => eb.fn.max("updated_at").as("updated_at"))
      .where("status", "=", "published")
      .executeTakeFirst(),
  ]);
  return { categories, newest: newest?.updated_at ?? null };
}

/**
 * One sitemap file's published articles: `limit` from `offset`, oldest first, so the files of older
 * articles stay the same as new ones are published. The order is the (status, published_at) index's
 * own (rowid last), so the offset walks index entries only and each file reads just its own rows:
 * the last of six files at 60,000 articles costs what the first does (issue 25).
 */
export async function listSitemapArticles({ offset, limit }: { offset: number; limit: number }) {
  return (
    db
      .selectFrom("articles")
      .select(["slug", "updated_at", "published_at"])
      .where("status", "=", "published")
      // A literal, so SQLite may walk the partial index articles_indexable_published (a bound 0 would not match it).
      .where(sql<boolean>`noindex = 0`)
      .orderBy("published_at")
      .orderBy(sql`rowid`)
      .limit(limit)
      .offset(offset)
      .execute()
  );
}
