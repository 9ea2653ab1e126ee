import { db, type DB } from "../../db/index";
import { CACHE_TAG, invalidatePublicCache, renderSoon } from "../page-store/page-cache.server";
import { listingSlugs } from "./bylines.server";

// Precise invalidation of the anonymous page cache after an article write (docs/decisions/010).
// A published article shows on its own page (under its id, slug and old slugs), on the home, in
// its category's list, in search results and feeds, and, while it is among the newest published
// ones, in the "latest" column every category page shows. Nothing else shows it (the article page
// shows only its own article plus the menu and settings).

/** The "latest news" column of category pages: listLatestCards({ limit: 5 }). */
const LATEST_COLUMN = 5;

export interface PublicFootprint {
  published: boolean;
  refs: string[];
  categorySlug: string | null;
  inLatest: boolean;
  /** Issue 29: the author and tag pages that list it. */
  listings?: { authors: string[]; tags: string[] };
}

/** Where an article shows on the public site right now (read inside the write's transaction). */
export async function publicFootprint(executor: DB, id: string): Promise<PublicFootprint | undefined> {
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
  const listings = published ? await listingSlugs(executor, id) : undefined;
  return { published, refs: [row.id, row.slug, ...oldSlugs.map((r) => r.old_slug)], categorySlug: row.category_slug, inLatest, listings };
}

/**
 * Marks stale the stored pages an article showed on before the write and shows on after it (they are
 * re-rendered in the background), and removes at once what must no longer be shown
 * (DESIGN §12): every page of an article that is no longer published (unpublished, deleted,
 * scheduled later) with the lists that showed it, and the pages under a slug the article left.
 * Called after the write's commit: the article's current row says which case it is.
 */
export async function invalidateArticleChange(...footprints: (PublicFootprint | undefined)[]): Promise<void> {
  const shown = footprints.filter((f): f is PublicFootprint => Boolean(f?.published));
  // A draft before and after: readers never saw it (its URLs answered 404, which is not cached).
  if (!shown.length) return;
  const lists = [CACHE_TAG.home, CACHE_TAG.search, CACHE_TAG.feed];
  const tags = new Set<string>(lists);
  for (const f of footprints) {
    if (!f) continue;
    for (const ref of f.refs) tags.add(CACHE_TAG.article(ref));
    if (f.categorySlug) tags.add(CACHE_TAG.category(f.categorySlug));
    if (f.inLatest) tags.add(CACHE_TAG.categories);
    for (const tag of listingTags(f)) tags.add(tag);
  }
  const remove = new Set<string>();
  // Issue 30: an article published now (or under a new slug) is rendered into the store at once.
  const render = new Set<string>();
  for (const f of shown) {
    const now = await db.selectFrom("articles").select(["id", "slug", "status"]).where("id", "=", f.refs[0]).executeTakeFirst();
    if (!now || now.status !== "published") {
      for (const tag of [...lists, ...f.refs.map(CACHE_TAG.article), ...(f.categorySlug ? [CACHE_TAG.category(f.categorySlug)] : [])]) remove.add(tag);
      if (f.inLatest) remove.add(CACHE_TAG.categories);
      for (const tag of listingTags(f)) remove.add(tag);
    } else {
      for (const ref of f.refs) if (ref !== now.id && ref !== now.slug) remove.add(CACHE_TAG.article(ref));
      render.add(`/article/${encodeURIComponent(now.slug)}`);
    }
  }
  invalidatePublicCache([...tags], { remove: [...remove] });
  renderSoon([...render]);
}

/** The author and tag pages (and their feeds) an article is listed on. */
const listingTags = (f: PublicFootprint) => [...(f.listings?.authors ?? []).map(CACHE_TAG.author), ...(f.listings?.tags ?? []).map(CACHE_TAG.tag)];
