import { MENU_CATEGORY_SLUGS } from "../models/category.server";
import { countIndexable as countPublished, listSitemapListings } from "../models/listing-pages.server";
import { listPublishedPageLinks } from "../models/page.server";
import { listFeedArticles, listSitemapArticles, listSitemapPages } from "../models/public-article.server";
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
    const author = a.author_name || a.author_username || "";
    const pubDate = a.published_at ? `\n      <pubDate>${new Date(a.published_at).toUTCString()}</pubDate>` : "";
    const category = a.category_name ? `\n      <category>${escapeXml(a.category_name)}</category>` : "";
    return `    <item>
      <title>${escapeXml(a.title)}</title>
      <link>${escapeXml(url)}</link>
      <guid isPermaLink="true">${escapeXml(url)}</guid>
      <description>${escapeXml(description)}</description>${author ? `\n      <dc:creator>${escapeXml(author)}</dc:creator>` : ""}${pubDate}${category}
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

/**
 * URLs per sitemap file. The protocol allows 50,000 (and 50 MB). At 60,000 articles our one file of
 * 6.5 MB cost 0.62 s of CPU a request (0.89 s when the store also compressed it), and every article
 * write had it built again. A file of 10,000 URLs (1.1 MB) costs ~35 ms (~55 ms stored): a crawler
 * fetches them one by one, and one render never holds the process for long (issue 25).
 */
export const SITEMAP_URLS_PER_FILE = 10_000;

/** The name a sitemap file goes by at the root: `sitemap-pages` or `sitemap-articles-N`. */
const SITEMAP_FILE = /^\/sitemap-(pages|articles-[1-9]\d{0,5})\.xml$/i;

/**
 * The URL the sitemap route serves a sitemap file as (`/sitemap-articles-2.xml` →
 * `/sitemap.xml?file=articles-2`), or undefined for any other path. The files live at the root because
 * a sitemap may list only URLs under its own folder (sitemaps.org), and a Remix route cannot match
 * part of a segment; server/app.ts rewrites the request before anything reads it.
 */
export function sitemapFileUrl(pathname: string): string | undefined {
  let path: string;
  try {
    path = decodeURIComponent(pathname);
  } catch {
    return undefined;
  }
  const file = SITEMAP_FILE.exec(path)?.[1];
  return file ? `/sitemap.xml?file=${file.toLowerCase()}` : undefined;
}

const urlEntry = (loc: string, lastmod?: string, changefreq?: string) =>
  `  <url><loc>${escapeXml(loc)}</loc>${lastmod ? `<lastmod>${lastmod}</lastmod>` : ""}${changefreq ? `<changefreq>${changefreq}</changefreq>` : ""}</url>`;

const urlset = (lines: string[]) => `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
${lines.join("\n")}
</urlset>
`;

/** The home, the menu categories, and (issue 29) the author and tag pages. */
async function pageEntries(base: string): Promise<string[]> {
  const [{ categories, newest }, listings] = await Promise.all([listSitemapPages(), listSitemapListings()]);
  const bySlug = new Set(categories.map((c) => c.slug));
  return [
    urlEntry(`${base}/`, day(newest), "hourly"),
    ...MENU_CATEGORY_SLUGS.filter((s) => bySlug.has(s)).map((s) => urlEntry(`${base}/category/${s}`, undefined, "daily")),
    ...listings.authors.map((a) => urlEntry(`${base}/author/${encodeURIComponent(a.slug)}`, day(a.newest), "daily")),
    ...listings.tags.map((t) => urlEntry(`${base}/tag/${encodeURIComponent(t.slug)}`, day(t.newest), "daily")),
    // Published static pages (issue 31 item 5).
    ...(await listPublishedPageLinks()).map((p) => urlEntry(`${base}/page/${p.slug}`, undefined, "monthly")),
  ];
}

/** Published articles from `offset`, oldest first, with their last change. */
async function articleEntries(base: string, offset: number, limit: number): Promise<string[]> {
  const articles = await listSitemapArticles({ offset, limit });
  return articles.map((a) => urlEntry(articleUrl(base, a.slug), day(a.updated_at > (a.published_at ?? "") ? a.updated_at : a.published_at)));
}

/**
 * The sitemap (sitemaps.org 0.9): one `urlset` of the home, the menu categories and every published
 * article while they fit one file, else a `sitemapindex` of `/sitemap-pages.xml` and
 * `/sitemap-articles-1.xml`… of SITEMAP_URLS_PER_FILE articles each. Sitemaps carry the page store's
 * `feed` tag, not one per article (up to 10,000 rows of tags a file): any withdrawal removes them all.
 */
export async function buildSitemap(): Promise<string> {
  const [base, articles, listings] = await Promise.all([getBaseUrl(), countPublished(), listSitemapListings()]);
  // The home and at most every menu category, and the author and tag pages (issue 29), beside the articles.
  if (1 + MENU_CATEGORY_SLUGS.length + listings.authors.length + listings.tags.length + articles <= SITEMAP_URLS_PER_FILE) {
    return urlset([...(await pageEntries(base)), ...(await articleEntries(base, 0, articles))]);
  }
  const files = Math.ceil(articles / SITEMAP_URLS_PER_FILE);
  const locs = [`${base}/sitemap-pages.xml`, ...Array.from({ length: files }, (_, i) => `${base}/sitemap-articles-${i + 1}.xml`)];
  return `<?xml version="1.0" encoding="UTF-8"?>
<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
${locs.map((loc) => `  <sitemap><loc>${escapeXml(loc)}</loc></sitemap>`).join("\n")}
</sitemapindex>
`;
}

/** One file of the sitemap index (`pages`, `articles-N`), or undefined for one that does not exist. */
export async function buildSitemapFile(file: string): Promise<string | undefined> {
  const base = await getBaseUrl();
  if (file === "pages") return urlset(await pageEntries(base));
  const n = Number(/^articles-([1-9]\d{0,5})$/.exec(file)?.[1]);
  if (!(n <= Math.ceil((await countPublished()) / SITEMAP_URLS_PER_FILE))) return undefined;
  return urlset(await articleEntries(base, (n - 1) * SITEMAP_URLS_PER_FILE, SITEMAP_URLS_PER_FILE));
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
  return ["User-agent: *", ...rules, "", `Sitemap: ${base}/sitemap.xml`, `Sitemap: ${base}/news-sitemap.xml`, ""].join("\n");
}
