import { beforeAll, describe, expect, it } from "vitest";
import { getArticleAnalytics } from "../../app/models/analytics.server";
import { recordPageViews } from "../../app/models/page-view.server";
import { invalidatePublicCache } from "../../app/page-store/page-cache.server";
import { countArticleView, countPageView, flushViews, pendingViews, resolveArticle } from "../../app/services/view-counter.server";
import { renderArticleHtml } from "../../app/utils/markdown.server";
import { db } from "../../db/index";
import { generateArticles } from "../../scripts/generate-articles";
import { onPostgres } from "../database-of";
import { migrated } from "../helpers";

const today = () => new Date().toISOString().slice(0, 10);

async function article(id: string, slug: string, status: "draft" | "published" = "published") {
  const at = new Date().toISOString();
  await db
    .insertInto("articles")
    .values({
      id,
      slug,
      title: `Title ${id}`,
      status,
      views: 10,
      created_at: at,
      published_at: status === "published" ? at : null,
      subtitle: null,
      category_id: null,
      author_id: null,
      updated_by: null,
      seo_title: null,
      seo_description: null,
      meta_keywords: null,
      og_image: null,
      canonical_url: null,
      featured_image: null,
    })
    .execute();
}

const row = (path: string) => db.selectFrom("page_views").selectAll().where("day", "=", today()).where("path", "=", path).executeTakeFirst();
const total = async (id: string) => (await db.selectFrom("articles").select("views").where("id", "=", id).executeTakeFirstOrThrow()).views;

describe("page views: batched counting", () => {
  beforeAll(async () => {
    await migrated();
    await article("a1", "first-slug");
    await article("a2", "second");
    await article("d1", "a-draft", "draft");
  });

  it("adds a batch in one go: upserted daily counters and article totals", async () => {
    await recordPageViews({ counts: [{ day: today(), path: "/article/second", articleId: "a2", views: 3 }] });
    await recordPageViews({
      counts: [
        { day: today(), path: "/article/second", articleId: "a2", views: 2 },
        { day: today(), path: "/", articleId: null, views: 7 },
        // An article deleted meanwhile: dropped, not an error, and the rest still lands.
        { day: today(), path: "/article/gone", articleId: "no-such-id", views: 4 },
      ],
    });
    expect(await row("/article/second")).toMatchObject({ article_id: "a2", views: 5 });
    expect(await row("/")).toMatchObject({ article_id: null, views: 7 });
    expect(await row("/article/gone")).toBeUndefined();
    expect(await total("a2")).toBe(15);
  });

  it("writes a batch larger than one statement's rows (a crawl over many articles) without losing a count", async () => {
    const ids = Array.from({ length: 450 }, (_, i) => `bulk-${i}`);
    for (const id of ids) await article(id, `${id}-slug`);
    const counts = ids.map((id, i) => ({ day: today(), path: `/article/${id}-slug`, articleId: id, views: (i % 3) + 1 }));
    // Two paths of one article in the batch (the slug and an old one): both add to its total.
    counts.push({ day: today(), path: "/article/bulk-0-old", articleId: "bulk-0", views: 5 });
    await recordPageViews({ counts });
    await recordPageViews({ counts: counts.slice(0, 250) });
    const totals = await db.selectFrom("articles").select(["id", "views"]).where("id", "like", "bulk-%").execute();
    const byId = new Map(totals.map((t) => [t.id, t.views]));
    expect(byId.size).toBe(450);
    for (const [i, id] of ids.entries()) {
      const each = (i % 3) + 1;
      const extra = i === 0 ? 5 : 0;
      expect(byId.get(id), id).toBe(10 + (i < 250 ? 2 * each : each) + extra);
    }
    expect(await row("/article/bulk-449-slug")).toMatchObject({ article_id: "bulk-449", views: (449 % 3) + 1 });
    expect(await row("/article/bulk-7-slug")).toMatchObject({ views: 2 * ((7 % 3) + 1) });
    expect(await row("/article/bulk-0-old")).toMatchObject({ article_id: "bulk-0", views: 5 });
  });

  it("keeps views in memory until a flush, then writes them where the analytics model reads", async () => {
    countArticleView({ ref: "first-slug" });
    countArticleView({ ref: "first-slug" });
    countArticleView({ ref: "a1" }); // reached by id: the same article and path
    countPageView({ path: "/category/technology" });
    expect(pendingViews()).toBe(4);
    expect(await total("a1")).toBe(10);
    await flushViews();
    expect(pendingViews()).toBe(0);
    expect(await total("a1")).toBe(13);
    expect(await row("/article/first-slug")).toMatchObject({ article_id: "a1", views: 3 });
    expect(await row("/category/technology")).toMatchObject({ views: 1 });
    const analytics = await getArticleAnalytics({ id: "a1", days: 1 });
    expect(analytics).toMatchObject({ total_views: 13, period_views: 3 });
  });

  it("counts a renamed article on its new path, also for a view served under the old slug", async () => {
    expect(await resolveArticle("first-slug")).toEqual({ id: "a1", slug: "first-slug" });
    // Renamed between serving and flushing (the newsroom keeps the old slug as a redirect).
    await db.updateTable("articles").set({ slug: "renamed" }).where("id", "=", "a1").execute();
    await db.insertInto("slug_redirects").values({ old_slug: "first-slug", article_id: "a1" }).execute();
    invalidatePublicCache(); // what every article write does
    countArticleView({ ref: "first-slug" });
    await flushViews();
    expect(await row("/article/renamed")).toMatchObject({ article_id: "a1", views: 1 });
    expect(await total("a1")).toBe(14);

    // Another article takes over the old slug: it resolves to the new owner after the next write.
    await db.deleteFrom("slug_redirects").where("old_slug", "=", "first-slug").execute();
    await db.updateTable("articles").set({ slug: "first-slug" }).where("id", "=", "a2").execute();
    invalidatePublicCache();
    expect(await resolveArticle("first-slug")).toEqual({ id: "a2", slug: "first-slug" });
  });

  it("does not count drafts or unknown articles", async () => {
    expect(await resolveArticle("a-draft")).toBeUndefined();
    expect(await resolveArticle("nothing-here")).toBeUndefined();
    const before = await db
      .selectFrom("page_views")
      .select((eb) => eb.fn.sum<number>("views").as("n"))
      .executeTakeFirstOrThrow();
    countArticleView({ ref: "a-draft" });
    countArticleView({ ref: "nothing-here" });
    await flushViews();
    const after = await db
      .selectFrom("page_views")
      .select((eb) => eb.fn.sum<number>("views").as("n"))
      .executeTakeFirstOrThrow();
    expect(after.n).toBe(before.n);
    expect(await total("d1")).toBe(10);
  });
});

// The generator writes SQLite directly (the bench copies its output to PostgreSQL with db:copy).
describe.skipIf(onPostgres)("the article generator of npm run bench", () => {
  it("inserts articles with tags and full-text rows over the categories", async () => {
    for (const [i, slug] of ["technology", "medicine", "space-physics"].entries()) {
      await db
        .insertInto("categories")
        .values({ id: `c${i}`, name: slug, slug, description: null })
        .execute();
    }
    const { inserted } = await generateArticles({ count: 60, seed: 7, poolSize: 20 });
    expect(inserted).toBe(60);
    const generated = await db.selectFrom("articles").select(["id", "category_id", "content", "content_html"]).where("slug", "like", "gen-%").execute();
    expect(generated).toHaveLength(60);
    expect(new Set(generated.map((a) => a.category_id)).size).toBe(3);
    expect(generated.some((a) => a.content_html.includes("<h2>"))).toBe(true);
    // The stored HTML (pooled blocks rendered once, joined) is what the real renderer makes.
    for (const a of generated.slice(20, 26)) expect(a.content_html).toBe(await renderArticleHtml(a.content));
    // A large vocabulary: 60 articles use thousands of distinct words.
    const words = new Set(generated.flatMap((a) => a.content.toLowerCase().match(/\p{L}+/gu) ?? []));
    expect(words.size).toBeGreaterThan(2_000);
    const fts = await db
      .selectFrom("articles_fts")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    expect(Number(fts.n)).toBe(60);
    const tagged = await db
      .selectFrom("article_tags")
      .select((eb) => eb.fn.count<number>("article_id").distinct().as("n"))
      .executeTakeFirstOrThrow();
    expect(Number(tagged.n)).toBe(60);
    // A second run continues the numbering instead of colliding.
    await generateArticles({ count: 5, seed: 7, poolSize: 20 });
    expect((await db.selectFrom("articles").select("id").where("slug", "like", "gen-%").execute()).length).toBe(65);
  });
});
