import { MENU_CATEGORY_SLUGS } from "../models/category.server";
import { listFeedArticles, listSitemapEntries } from "../models/public-article.server";
import { getSettings } from "../models/settings.server";
import { utcDay } from "../utils/dates";
import { getBaseUrl } from "./public-site.server";

// RSS, sitemap and robots.txt (DESIGN §8). Absolute URLs from the canonical_url setting, else
// PUBLIC_URL.

const RSS_ITEMS = 50;

export function escapeXml(text: string): string {
  // Characters XML 1.0 forbids are dropped; the five specials are escaped.
  return text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}

const articleUrl = (base: string, slug: string) => `${base}/article/${encodeURIComponent(slug)}`;

/** RSS 2.0 of the newest 50 published articles, and those articles (what the page store tags the feed with). */
export async function buildRss(): Promise<{ xml: string; articles: { id: string }[] }> {
  const [base, seo, articles] = await Promise.all([getBaseUrl(), getSettings("seo"), listFeedArticles({ limit: RSS_ITEMS })]);
  const items = articles.map((a) => {
    const url = articleUrl(base, a.slug);
    const description = a.subtitle || a.seo_description || "";
    const author = a.author_name || a.author_username || "Science Admin";
    const pubDate = a.published_at ? `\n      <pubDate>${new Date(a.published_at).toUTCString()}</pubDate>` : "";
    const category = a.category_name ? `\n      <category>${escapeXml(a.category_name)}</category>` : "";
    return `    <item>
      <title>${escapeXml(a.title)}</title>
      <link>${escapeXml(url)}</link>
      <guid isPermaLink="true">${escapeXml(url)}</guid>
      <description>${escapeXml(description)}</description>
      <dc:creator>${escapeXml(author)}</dc:creator>${pubDate}${category}
    </item>`;
  });
  const newest = articles[0]?.published_at;
  const xml = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/">
  <channel>
    <title>${escapeXml(seo.site_title)}</title>
    <link>${escapeXml(`${base}/`)}</link>
    <description>${escapeXml(seo.site_description)}</description>
    <language>${escapeXml(seo.language.toLowerCase())}</language>
    <atom:link href="${escapeXml(`${base}/rss.xml`)}" rel="self" type="application/rss+xml"/>${newest ? `\n    <lastBuildDate>${new Date(newest).toUTCString()}</lastBuildDate>` : ""}
${items.join("\n")}
  </channel>
</rss>
`;
  return { xml, articles };
}

const day = (iso: string | null | undefined) => (iso ? utcDay(iso) : undefined);

/** sitemap.xml: home, the menu categories and every published article with its last change. */
export async function buildSitemap(): Promise<string> {
  const [base, { categories, articles }] = await Promise.all([getBaseUrl(), listSitemapEntries()]);
  const newest = articles.reduce<string | undefined>((max, a) => (!max || a.updated_at > max ? a.updated_at : max), undefined);
  const entry = (loc: string, lastmod?: string, changefreq?: string) =>
    `  <url><loc>${escapeXml(loc)}</loc>${lastmod ? `<lastmod>${lastmod}</lastmod>` : ""}${changefreq ? `<changefreq>${changefreq}</changefreq>` : ""}</url>`;
  const bySlug = new Map(categories.map((c) => [c.slug, c]));
  const lines = [
    entry(`${base}/`, day(newest), "hourly"),
    ...MENU_CATEGORY_SLUGS.filter((s) => bySlug.has(s)).map((s) => entry(`${base}/category/${s}`, undefined, "daily")),
    ...articles.map((a) => entry(articleUrl(base, a.slug), day(a.updated_at > (a.published_at ?? "") ? a.updated_at : a.published_at))),
  ];
  return `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
${lines.join("\n")}
</urlset>
`;
}

/**
 * robots.txt from the robots setting: an 'index' site lets crawlers in (except the admin and the
 * API); a 'noindex' site asks them to stay out altogether. Either way it names the sitemap.
 */
export async function buildRobots(): Promise<string> {
  const [base, seo] = await Promise.all([getBaseUrl(), getSettings("seo")]);
  const rules = seo.robots.startsWith("noindex")
    ? ["Disallow: /"]
    : // No '/search' rule: it is also the 'all news' archive ('ALL SCIENCE NEWS'), and its
      // result pages say noindex in their own meta, which a crawler must be let in to read.
      ["Allow: /", "Disallow: /admin", "Disallow: /api/", "Allow: /api/seo/sitemap.xml"];
  return ["User-agent: *", ...rules, "", `Sitemap: ${base}/sitemap.xml`, ""].join("\n");
}
