import { db } from "../../db/index";
import type { User } from "../../db/schema";
import { utcDayBefore } from "../utils/dates";
import { DomainError } from "../utils/errors";
import { canReadArticle, readableFilter } from "./article-access.server";
import { countArticles } from "./article-queries.server";

// Figures for the dashboard, the analytics screen and GET /api/analytics/dashboard (SPEC §3
// 'Dashboard statistics'). Views are article page views, so total >= month >= week: total_views
// is the articles' own counters; the windows and the chart read the daily page_views counters.
// 'This week' is the last 7 days including today, 'this month' the last 30 (SPEC §9), in UTC days.

export interface DailyViews {
  date: string;
  views: number;
}

export interface DashboardStats {
  total_articles: number;
  published_articles: number;
  draft_articles: number;
  archived_articles: number;
  /** The editorial desk (issue 14): submitted and waiting, and set to go out later. */
  review_articles: number;
  scheduled_articles: number;
  total_views: number;
  week_views: number;
  month_views: number;
  daily_views: DailyViews[];
  top_articles: { id: string; title: string; slug: string; published_at: string | null; views: number }[];
  recent_articles: { id: string; title: string; status: string; published_at: string | null; views: number; author_id: string | null }[];
}

/** Every day of the window, oldest first, with 0 for days without views. */
function fillDays(rows: { day: string; views: number | string | null }[], days: number, now: number): DailyViews[] {
  const byDay = new Map(rows.map((r) => [r.day, Number(r.views ?? 0)]));
  return Array.from({ length: days }, (_, i) => {
    const date = utcDayBefore(now, days - 1 - i);
    return { date, views: byDay.get(date) ?? 0 };
  });
}

/** The dashboard's figures; its list of recent articles holds only what `reader` may read (docs/decisions/019). */
export async function getDashboardStats({
  now = Date.now(),
  top = 5,
  recent = 5,
  reader,
}: { now?: number; top?: number; recent?: number; reader?: Pick<User, "id" | "role"> } = {}): Promise<DashboardStats> {
  const readable = readableFilter(reader);
  const monthStart = utcDayBefore(now, 29);
  const weekStart = utcDayBefore(now, 6);

  const [counts, daily, topArticles, recentArticles] = await Promise.all([
    countArticles(),
    db
      .selectFrom("page_views")
      .select(["day", (eb) => eb.fn.sum<number>("views").as("views")])
      .where("article_id", "is not", null)
      .where("day", ">=", monthStart)
      .groupBy("day")
      .execute(),
    db
      .selectFrom("articles")
      .select(["id", "title", "slug", "published_at", "views"])
      .where("status", "=", "published")
      .orderBy("views", "desc")
      .orderBy("published_at", "desc")
      .limit(top)
      .execute(),
    db
      .selectFrom("articles")
      .select(["id", "title", "status", "published_at", "views", "author_id"])
      .$if(Boolean(readable), (q) => q.where(readable!))
      .orderBy("created_at", "desc")
      .limit(recent)
      .execute(),
  ]);

  const daily_views = fillDays(daily, 30, now);
  const sumFrom = (start: string) => daily_views.filter((d) => d.date >= start).reduce((s, d) => s + d.views, 0);
  return {
    total_articles: counts.total,
    published_articles: counts.published,
    draft_articles: counts.draft,
    archived_articles: counts.archived,
    review_articles: counts.review,
    scheduled_articles: counts.scheduled,
    total_views: counts.views,
    week_views: sumFrom(weekStart),
    month_views: sumFrom(monthStart),
    daily_views,
    top_articles: topArticles,
    recent_articles: recentArticles,
  };
}

/**
 * Daily views of one article over the last `days` days; undefined when there is no such article,
 * a 403 DomainError for a reader who may not read it (docs/decisions/019).
 */
export async function getArticleAnalytics({
  id,
  days = 30,
  now = Date.now(),
  reader,
}: {
  id: string;
  days?: number;
  now?: number;
  reader?: Pick<User, "id" | "role">;
}) {
  const article = await db
    .selectFrom("articles")
    .select(["id", "title", "views", "published_at", "author_id", "status"])
    .where("id", "=", id)
    .executeTakeFirst();
  if (!article) return undefined;
  if (reader && !canReadArticle(reader, article)) throw new DomainError(403, "Недостатньо прав для цієї статті");
  const rows = await db
    .selectFrom("page_views")
    .select(["day", (eb) => eb.fn.sum<number>("views").as("views")])
    .where("article_id", "=", id)
    .where("day", ">=", utcDayBefore(now, days - 1))
    .groupBy("day")
    .execute();
  const daily_views = fillDays(rows, days, now);
  return {
    article_id: article.id,
    title: article.title,
    published_at: article.published_at,
    total_views: Number(article.views),
    period_views: daily_views.reduce((s, d) => s + d.views, 0),
    days,
    daily_views,
  };
}
