import { sql, type ExpressionBuilder } from "kysely";
import { db } from "../../db/index";
import type { Database } from "../../db/schema";
import { ROLE_TITLES, type AuthorLink } from "../utils/bylines";
import { articleRows } from "./article-queries.server";
import { approvedCommentCount } from "./comment-count.server";
import { toCard } from "./public-article.server";

// Author and tag pages (issue 29 item 2, DESIGN §16), their feeds and sitemap entries, and the
// Google News sitemap's window (item 6). Reads only; plain data, never HTTP.

const parseLinks = (text: string | null): AuthorLink[] => {
  try {
    return text ? (JSON.parse(text) as AuthorLink[]) : [];
  } catch {
    return [];
  }
};

export interface AuthorProfile {
  kind: "staff" | "guest";
  id: string;
  name: string;
  slug: string;
  bio: string | null;
  photo: string | null;
  /** The role on the site, in Ukrainian. */
  role: string;
  links: AuthorLink[];
}

/** A published article's byline rows of one author (staff or guest). */
function bylinedBy(author: Pick<AuthorProfile, "kind" | "id">) {
  return articleRows()
    .innerJoin("article_authors as signed", "signed.article_id", "articles.id")
    .where(author.kind === "staff" ? "signed.user_id" : "signed.guest_id", "=", author.id)
    .where("articles.status", "=", "published")
    .select(approvedCommentCount);
}

/**
 * The author a page slug names: a guest contributor, or a staff member with at least one published
 * byline (a colleague who has published nothing has no public page). Undefined otherwise.
 */
export async function getAuthorBySlug(slug: string): Promise<AuthorProfile | undefined> {
  const guest = await db.selectFrom("guest_authors").selectAll().where("slug", "=", slug).executeTakeFirst();
  if (guest) {
    return {
      kind: "guest",
      id: guest.id,
      name: guest.name,
      slug: guest.slug,
      bio: guest.bio,
      photo: guest.photo,
      role: ROLE_TITLES.guest,
      links: parseLinks(guest.links),
    };
  }
  const user = await db
    .selectFrom("users")
    .select(["id", "name", "username", "slug", "bio", "avatar", "role", "links"])
    .where("slug", "=", slug)
    .executeTakeFirst();
  if (!user?.slug) return undefined;
  const any = await bylinedBy({ kind: "staff", id: user.id }).clearSelect().select("articles.id").limit(1).executeTakeFirst();
  if (!any) return undefined;
  return {
    kind: "staff",
    id: user.id,
    name: user.name || user.username,
    slug: user.slug,
    bio: user.bio,
    photo: user.avatar,
    role: ROLE_TITLES[user.role],
    links: parseLinks(user.links),
  };
}

/** One page of an author's published articles, newest first, with the total. */
export async function listAuthorCards(author: Pick<AuthorProfile, "kind" | "id">, { page, perPage }: { page: number; perPage: number }) {
  const [rows, total] = await Promise.all([
    bylinedBy(author)
      .orderBy("articles.published_at", "desc")
      .limit(perPage)
      .offset((page - 1) * perPage)
      .execute(),
    bylinedBy(author)
      .clearSelect()
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow(),
  ]);
  return { cards: rows.map(toCard), total: Number(total.n) };
}

/** A tag by its page slug. */
export async function getTagBySlug(slug: string) {
  return db.selectFrom("tags").select(["id", "name", "slug"]).where("slug", "=", slug).executeTakeFirst();
}

function taggedWith(tagId: number) {
  return articleRows()
    .innerJoin("article_tags as tagged", "tagged.article_id", "articles.id")
    .where("tagged.tag_id", "=", tagId)
    .where("articles.status", "=", "published")
    .select(approvedCommentCount);
}

export async function listTagCards(tagId: number, { page, perPage }: { page: number; perPage: number }) {
  const [rows, total] = await Promise.all([
    taggedWith(tagId)
      .orderBy("articles.published_at", "desc")
      .limit(perPage)
      .offset((page - 1) * perPage)
      .execute(),
    taggedWith(tagId)
      .clearSelect()
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow(),
  ]);
  return { cards: rows.map(toCard), total: Number(total.n) };
}

/** The newest indexable articles of an author or a tag, for its RSS feed. */
export async function listListingFeed(of: { author: Pick<AuthorProfile, "kind" | "id"> } | { tagId: number }, limit: number) {
  const base = "author" in of ? bylinedBy(of.author) : (taggedWith(of.tagId) as unknown as ReturnType<typeof bylinedBy>);
  return base.select("articles.seo_description").where("articles.noindex", "=", 0).orderBy("articles.published_at", "desc").limit(limit).execute();
}

/** How many indexable published articles the sitemaps list. */
export async function countIndexable(): Promise<number> {
  const row = await db
    .selectFrom("articles")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("status", "=", "published")
    .where(sql<boolean>`noindex = 0`)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** At most this many author and tag pages each in the sitemap's pages (the most used tags first). */
export const SITEMAP_LISTINGS = 2000;

/** Author pages (everyone with an indexable published byline) and tag pages with their newest article's date. */
export async function listSitemapListings() {
  const published = (eb: ExpressionBuilder<Database, "articles">) => eb.and([eb("articles.status", "=", "published"), eb("articles.noindex", "=", 0)]);
  const [authors, tags] = await Promise.all([
    db
      .selectFrom("article_authors")
      .innerJoin("articles", "articles.id", "article_authors.article_id")
      .leftJoin("users", "users.id", "article_authors.user_id")
      .leftJoin("guest_authors", "guest_authors.id", "article_authors.guest_id")
      .select([sql<string>`coalesce(users.slug, guest_authors.slug)`.as("slug"), (eb) => eb.fn.max("articles.published_at").as("newest")])
      .where(published)
      .groupBy(sql`coalesce(users.slug, guest_authors.slug)`)
      .orderBy(sql`coalesce(users.slug, guest_authors.slug)`)
      .limit(SITEMAP_LISTINGS)
      .execute(),
    db
      .selectFrom("article_tags")
      .innerJoin("articles", "articles.id", "article_tags.article_id")
      .innerJoin("tags", "tags.id", "article_tags.tag_id")
      .select(["tags.slug", (eb) => eb.fn.max("articles.published_at").as("newest"), (eb) => eb.fn.countAll<number>().as("n")])
      .where(published)
      .where("tags.slug", "is not", null)
      .groupBy(["tags.id", "tags.slug"])
      .orderBy(sql`count(*)`, "desc")
      .orderBy("tags.slug")
      .limit(SITEMAP_LISTINGS)
      .execute(),
  ]);
  return { authors: authors.filter((a) => a.slug), tags: tags.map((t) => ({ slug: t.slug!, newest: t.newest })) };
}

/** The Google News window: published, indexable articles of the last `hours`, newest first, at most `limit`. */
export async function listNewsArticles({ now = new Date(), hours = 48, limit = 1000 }: { now?: Date; hours?: number; limit?: number } = {}) {
  const since = new Date(now.getTime() - hours * 3600_000).toISOString();
  return db
    .selectFrom("articles")
    .select(["slug", "title", "published_at"])
    .where("status", "=", "published")
    .where("noindex", "=", 0)
    .where("published_at", ">=", since)
    .where("published_at", "<=", now.toISOString())
    .orderBy("published_at", "desc")
    .limit(limit)
    .execute();
}
