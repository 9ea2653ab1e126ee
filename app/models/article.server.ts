import { randomUUID } from "node:crypto";
import { db, type DB } from "../../db/index";
import type { ArticleStatus } from "../../db/schema";

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
  await trx
    .insertInto("articles_fts")
    .values({
      article_id: id,
      title: input.title,
      subtitle: input.subtitle ?? "",
      content: input.content,
      tags: input.tags.join(" "),
    })
    .execute();
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

/** The newest published articles (id, slug, title, subtitle, published_at). */
export async function listLatestPublished({ limit }: { limit: number }) {
  return db
    .selectFrom("articles")
    .select(["id", "slug", "title", "subtitle", "published_at"])
    .where("status", "=", "published")
    .orderBy("published_at", "desc")
    .limit(limit)
    .execute();
}

/** A published article by slug or id, with its category name, author and tags. */
export async function getPublishedArticle({ slugOrId }: { slugOrId: string }) {
  const article = await db
    .selectFrom("articles")
    .leftJoin("categories", "categories.id", "articles.category_id")
    .leftJoin("users", "users.id", "articles.author_id")
    .select([
      "articles.id",
      "articles.slug",
      "articles.title",
      "articles.subtitle",
      "articles.content_html",
      "articles.published_at",
      "articles.views",
      "articles.featured_image",
      "categories.name as category_name",
      "categories.slug as category_slug",
      "users.name as author_name",
      "users.username as author_username",
    ])
    .where("articles.status", "=", "published")
    .where((eb) => eb.or([eb("articles.slug", "=", slugOrId), eb("articles.id", "=", slugOrId)]))
    .executeTakeFirst();
  if (!article) return undefined;
  const tags = await db
    .selectFrom("article_tags")
    .innerJoin("tags", "tags.id", "article_tags.tag_id")
    .select("tags.name")
    .where("article_tags.article_id", "=", article.id)
    .orderBy("article_tags.position")
    .execute();
  return { ...article, tags: tags.map((t) => t.name) };
}
