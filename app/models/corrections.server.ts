import { db } from "../../db/index";

// Issue 29 item 3: /corrections and /corrections/rss.xml list every correction of a published
// article, newest first (DESIGN §16). Kept in the page store under the feed tag, which every
// change of a published article marks stale and every withdrawal removes (article-cache.server.ts).

export interface SiteCorrection {
  id: number;
  note: string;
  created_at: string;
  article: { id: string; slug: string; title: string };
}

export const CORRECTIONS_PER_PAGE = 30;

/** A page of the site's corrections, newest first, with the total. */
export async function listSiteCorrections({ skip = 0, limit = CORRECTIONS_PER_PAGE }: { skip?: number; limit?: number } = {}) {
  const base = db.selectFrom("article_corrections as c").innerJoin("articles as a", "a.id", "c.article_id").where("a.status", "=", "published");
  const [rows, total] = await Promise.all([
    base
      .select(["c.id", "c.note", "c.created_at", "a.id as article_id", "a.slug", "a.title"])
      .orderBy("c.created_at", "desc")
      .orderBy("c.id", "desc")
      .limit(limit)
      .offset(skip)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
  ]);
  const data: SiteCorrection[] = rows.map((r) => ({
    id: Number(r.id),
    note: r.note,
    created_at: r.created_at,
    article: { id: r.article_id, slug: r.slug, title: r.title },
  }));
  return { data, total: Number(total.n) };
}
