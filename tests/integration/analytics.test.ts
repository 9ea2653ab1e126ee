import { beforeAll, describe, expect, it } from "vitest";
import { getArticleAnalytics, getDashboardStats } from "../../app/models/analytics.server";
import { createUser } from "../../app/models/user.server";
import { db } from "../../db/index";
import { migrated, postJson, request } from "../helpers";

const NOW = Date.parse("2026-11-22T12:00:00Z");
const day = (daysAgo: number) => new Date(NOW - daysAgo * 86_400_000).toISOString().slice(0, 10);

async function article(id: string, status: "draft" | "published" | "archived", views: number, createdDaysAgo: number) {
  await db
    .insertInto("articles")
    .values({
      id,
      slug: id,
      title: `Title ${id}`,
      status,
      views,
      created_at: new Date(NOW - createdDaysAgo * 86_400_000).toISOString(),
      published_at: status === "published" ? new Date(NOW - createdDaysAgo * 86_400_000).toISOString() : null,
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

describe("dashboard statistics (hand-built page views)", () => {
  beforeAll(async () => {
    await migrated();
    await article("a", "published", 1000, 40);
    await article("b", "published", 50, 3);
    await article("c", "draft", 0, 1);
    await article("d", "archived", 7, 60);
    const views: [string, string | null, number, number][] = [
      // [path, article, views, days ago]
      ["/article/a", "a", 10, 0], // today: in week and month
      ["/article/a", "a", 20, 6], // last day of the week window
      ["/article/a", "a", 40, 7], // first day outside the week, inside the month
      ["/article/b", "b", 5, 6],
      ["/article/a", "a", 80, 29], // last day of the month window
      ["/article/a", "a", 160, 30], // outside the month
      ["/", null, 999, 0], // the home page is not an article view
    ];
    for (const [path, articleId, n, ago] of views) {
      await db
        .insertInto("page_views")
        .values({ day: day(ago), path, article_id: articleId, views: n })
        .execute();
    }
  });

  it("counts articles by status and sums their views", async () => {
    const stats = await getDashboardStats({ now: NOW });
    expect(stats).toMatchObject({ total_articles: 4, published_articles: 2, draft_articles: 1, archived_articles: 1, total_views: 1057 });
  });

  it("uses 7- and 30-day windows including today", async () => {
    const stats = await getDashboardStats({ now: NOW });
    expect(stats.week_views).toBe(10 + 20 + 5);
    expect(stats.month_views).toBe(10 + 20 + 40 + 5 + 80);
  });

  it("lists 30 days oldest first with zero days filled in", async () => {
    const { daily_views } = await getDashboardStats({ now: NOW });
    expect(daily_views).toHaveLength(30);
    expect(daily_views[0]).toEqual({ date: day(29), views: 80 });
    expect(daily_views[29]).toEqual({ date: day(0), views: 10 });
    expect(daily_views.find((d) => d.date === day(6))).toEqual({ date: day(6), views: 25 });
    expect(daily_views.filter((d) => d.views === 0)).toHaveLength(26);
  });

  it("ranks published articles by views and lists the newest articles", async () => {
    const stats = await getDashboardStats({ now: NOW });
    expect(stats.top_articles.map((a) => a.id)).toEqual(["a", "b"]);
    expect(stats.recent_articles.map((a) => a.id)).toEqual(["c", "b", "a", "d"]);
  });

  it("reports one article's daily views", async () => {
    const a = await getArticleAnalytics({ id: "a", days: 7, now: NOW });
    expect(a).toMatchObject({ article_id: "a", total_views: 1000, period_views: 30, days: 7 });
    expect(a!.daily_views).toHaveLength(7);
    expect(await getArticleAnalytics({ id: "missing", now: NOW })).toBeUndefined();
  });

  it("an empty site gives zeros, not errors", async () => {
    await db.deleteFrom("page_views").execute();
    const stats = await getDashboardStats({ now: NOW });
    expect(stats.week_views).toBe(0);
    expect(stats.daily_views.every((d) => d.views === 0)).toBe(true);
  });
});

describe("/api/analytics", () => {
  let token: string;
  beforeAll(async () => {
    await migrated();
    await createUser({ username: "stats-reader", email: "r@example.com", password: "correct-horse", role: "reporter" });
    token = (await (await postJson("/api/auth/login", { username: "stats-reader", password: "correct-horse" })).json()).access_token;
  });
  const get = (path: string, auth = true) => request(path, { headers: auth ? { Authorization: `Bearer ${token}` } : {} });

  it("GET /api/analytics/dashboard returns every SPEC field to any staff member", async () => {
    const res = await get("/api/analytics/dashboard");
    expect(res.status).toBe(200);
    const body = await res.json();
    for (const key of ["total_articles", "published_articles", "draft_articles", "total_views", "week_views", "month_views", "daily_views", "top_articles"]) {
      expect(body).toHaveProperty(key);
    }
    expect(body.daily_views).toHaveLength(30);
  });

  it("401 without a token", async () => {
    expect((await get("/api/analytics/dashboard", false)).status).toBe(401);
    expect((await get("/api/analytics/articles/a", false)).status).toBe(401);
  });

  it("per-article analytics: 200, 404 unknown, 422 bad days", async () => {
    expect((await get("/api/analytics/articles/a?days=7")).status).toBe(200);
    expect((await get("/api/analytics/articles/nope")).status).toBe(404);
    const bad = await get("/api/analytics/articles/a?days=9999");
    expect(bad.status).toBe(422);
    expect((await bad.json()).errors).toHaveProperty("days");
  });
});
