import { sql } from "kysely";
import { db, writeTransaction } from "../../db/index";
import { bySlugOrId, findRedirectedArticle } from "./article-queries.server";

// Page views (DESIGN §8, §9): daily counters per path in `page_views`, and each article's running
// total in `articles.views`. The analytics model reads both (article rows have article_id set).
// Views reach this model in batches from the view counter (app/services/view-counter.server.ts).

export interface PageViewCount {
  /** UTC day, YYYY-MM-DD (the analytics windows are UTC days). */
  day: string;
  path: string;
  articleId: string | null;
  views: number;
}

/**
 * Adds a batch of counts in one transaction: upserts the daily counters and adds each article's
 * views to its total. Counts of an article deleted meanwhile are dropped, not an error.
 */
export async function recordPageViews({ counts }: { counts: PageViewCount[] }): Promise<void> {
  if (!counts.length) return;
  await writeTransaction(
    async (trx) => {
      const known = new Set<string>();
      const articleIds = [...new Set(counts.flatMap((c) => (c.articleId ? [c.articleId] : [])))];
      for (const ids of chunks(articleIds)) {
        const rows = await trx.selectFrom("articles").select("id").where("id", "in", ids).execute();
        for (const row of rows) known.add(row.id);
      }
      const kept = counts.filter((c) => !c.articleId || known.has(c.articleId));
      // A reader walking many articles makes thousands of counts a second: rows go a chunk at a
      // time (a statement per count was two Kysely builds and compiles per count).
      for (const part of chunks(kept)) {
        await trx
          .insertInto("page_views")
          .values(part.map((c) => ({ day: c.day, path: c.path, article_id: c.articleId, views: c.views })))
          .onConflict((oc) =>
            oc.columns(["day", "path"]).doUpdateSet({
              views: sql`page_views.views + excluded.views`,
              article_id: sql`coalesce(excluded.article_id, page_views.article_id)`,
            }),
          )
          .execute();
      }
      const perArticle = new Map<string, number>();
      for (const c of kept) if (c.articleId) perArticle.set(c.articleId, (perArticle.get(c.articleId) ?? 0) + c.views);
      for (const part of chunks([...perArticle])) {
        const added = sql.join(part.map(([id, views]) => sql`(${id}, cast(${views} as integer))`));
        await trx
          .updateTable("articles")
          .from(sql<{ id: string; views: number }>`(select column1 as id, column2 as views from (values ${added}) as v)`.as("added"))
          .set({ views: sql`articles.views + added.views` })
          .whereRef("articles.id", "=", "added.id")
          .execute();
      }
    },
    // Counts wait up to a second in memory before this write: a commit that waits for the disk
    // (an fsync, ~20 ms on this machine) would guard nothing more.
    { durable: false },
  );
}

/** Slices of at most 200 (SQLite caps the bound parameters of one statement). */
function chunks<T>(items: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += 200) out.push(items.slice(i, i + 200));
  return out;
}

/**
 * The published article a reader reached by `ref` (its slug, its id, or an old slug that now
 * redirects), with its current slug; undefined when there is none.
 */
export async function findViewedArticle({ ref }: { ref: string }): Promise<{ id: string; slug: string } | undefined> {
  const direct = await db.selectFrom("articles").select(["id", "slug"]).where("status", "=", "published").where(bySlugOrId(ref)).executeTakeFirst();
  return direct ?? findRedirectedArticle(ref);
}
