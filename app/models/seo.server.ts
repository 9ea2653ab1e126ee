import { z } from "zod";
import { db, writeTransaction } from "../../db/index";
import { getEnv } from "../utils/env.server";
import { DomainError } from "../utils/errors";
import { countArticles } from "./article-queries.server";
import { recordAudit, type Actor } from "./audit.server";
import { getSettings, saveSettings } from "./settings.server";

const KEEP_SUBMISSIONS = 50;

/** SPEC §3 'SEO overview', from the database. */
export async function getSeoOverview() {
  const [counts, recent, categories, newest, submissions] = await Promise.all([
    countArticles(),
    db
      .selectFrom("articles")
      .select(["id", "title", "slug", "published_at", "views"])
      .where("status", "=", "published")
      .orderBy("published_at", "desc")
      .limit(5)
      .execute(),
    db
      .selectFrom("articles")
      .innerJoin("categories", "categories.id", "articles.category_id")
      .select(["categories.name as category_name", (eb) => eb.fn.countAll<number>().as("count")])
      .where("articles.status", "=", "published")
      .groupBy("categories.id")
      .orderBy("count", "desc")
      .execute(),
    db
      .selectFrom("articles")
      .select((eb) => eb.fn.max("updated_at").as("at"))
      .executeTakeFirst(),
    getSettings("submissions"),
  ]);
  return {
    articles: {
      total: counts.total,
      published: counts.published,
      draft: counts.draft,
      recent,
    },
    categories: categories.map((c) => ({ category_name: c.category_name, count: Number(c.count) })),
    last_updated: (newest?.at as string | null) ?? null,
    submissions: submissions.items,
  };
}

const UrlSchema = z.string({ required_error: "Вкажіть адресу" }).trim().min(1, "Вкажіть адресу").max(2000).url("Вкажіть повну адресу з http:// або https://");

export const SubmitSitemapSchema = z.object({ sitemap_url: UrlSchema.optional() });
export const SubmitUrlSchema = z.object({ url: UrlSchema });

function ourUrl(raw: string, field: string): string {
  const url = new URL(raw);
  const site = new URL(getEnv().PUBLIC_URL);
  if (!/^https?:$/.test(url.protocol) || url.host !== site.host) {
    throw new DomainError(422, `Адреса має належати цьому сайту (${site.origin})`, field);
  }
  return url.href;
}

async function record(kind: "sitemap" | "url", url: string, user: Actor) {
  await writeTransaction(async (trx) => {
    const { items } = await getSettings("submissions", trx);
    const next = [{ kind, url, at: new Date().toISOString(), by: user.username }, ...items].slice(0, KEEP_SUBMISSIONS);
    await saveSettings("submissions", { items: next }, trx);
    await recordAudit(trx, { actor: user, action: "seo.submit", object: { type: "seo", label: url }, details: { kind } });
  });
}

/** Records a sitemap submission (our own sitemap unless told otherwise); returns its URL. */
export async function submitSitemap({ sitemapUrl, user }: { sitemapUrl?: string; user: Actor }): Promise<string> {
  const url = ourUrl(sitemapUrl ?? `${getEnv().PUBLIC_URL}/api/seo/sitemap.xml`, "sitemap_url");
  await record("sitemap", url, user);
  return url;
}

/** Records one page submitted for indexing; it must be a page of this site. */
export async function submitUrl({ url, user }: { url: string; user: Actor }): Promise<string> {
  const checked = ourUrl(url, "url");
  await record("url", checked, user);
  return checked;
}
