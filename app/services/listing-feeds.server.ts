import { getAuthorBySlug, getTagBySlug, listListingFeed, listNewsArticles } from "../models/listing-pages.server";
import { getSettings } from "../models/settings.server";
import { escapeXml } from "./feeds.server";
import { getBaseUrl } from "./public-site.server";

// Issue 29: the RSS feeds of an author and of a tag, and the Google News sitemap (DESIGN §16).
// Articles marked noindex are in none of them.

const RSS_ITEMS = 50;

type FeedRow = Awaited<ReturnType<typeof listListingFeed>>[number];

function rss({
  base,
  title,
  link,
  self,
  description,
  language,
  rows,
}: {
  base: string;
  title: string;
  link: string;
  self: string;
  description: string;
  language: string;
  rows: FeedRow[];
}) {
  const items = rows.map((a) => {
    const url = `${base}/article/${encodeURIComponent(a.slug)}`;
    const pubDate = a.published_at ? `\n      <pubDate>${new Date(a.published_at).toUTCString()}</pubDate>` : "";
    const category = a.category_name ? `\n      <category>${escapeXml(a.category_name)}</category>` : "";
    return `    <item>
      <title>${escapeXml(a.title)}</title>
      <link>${escapeXml(url)}</link>
      <guid isPermaLink="true">${escapeXml(url)}</guid>
      <description>${escapeXml(a.subtitle || a.seo_description || "")}</description>
      <dc:creator>${escapeXml(a.author_name || a.author_username || "Science Admin")}</dc:creator>${pubDate}${category}
    </item>`;
  });
  const newest = rows[0]?.published_at;
  return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/">
  <channel>
    <title>${escapeXml(title)}</title>
    <link>${escapeXml(link)}</link>
    <description>${escapeXml(description)}</description>
    <language>${escapeXml(language.toLowerCase())}</language>
    <atom:link href="${escapeXml(self)}" rel="self" type="application/rss+xml"/>${newest ? `\n    <lastBuildDate>${new Date(newest).toUTCString()}</lastBuildDate>` : ""}
${items.join("\n")}
  </channel>
</rss>
`;
}

/** RSS 2.0 of an author's newest 50 indexable articles, or undefined for an unknown author. */
export async function buildAuthorRss(slug: string): Promise<{ xml: string; articles: { id: string }[] } | undefined> {
  const author = await getAuthorBySlug(slug);
  if (!author) return undefined;
  const [base, seo, rows] = await Promise.all([getBaseUrl(), getSettings("seo"), listListingFeed({ author }, RSS_ITEMS)]);
  const path = `/author/${encodeURIComponent(author.slug)}`;
  const xml = rss({
    base,
    title: `${author.name} — ${seo.site_title}`,
    link: `${base}${path}`,
    self: `${base}${path}/rss.xml`,
    description: author.bio || `Статті автора ${author.name}`,
    language: seo.language,
    rows,
  });
  return { xml, articles: rows };
}

/** RSS 2.0 of a tag's newest 50 indexable articles, or undefined for an unknown tag. */
export async function buildTagRss(slug: string): Promise<{ xml: string; articles: { id: string }[] } | undefined> {
  const tag = await getTagBySlug(slug);
  if (!tag?.slug) return undefined;
  const [base, seo, rows] = await Promise.all([getBaseUrl(), getSettings("seo"), listListingFeed({ tagId: tag.id }, RSS_ITEMS)]);
  const path = `/tag/${encodeURIComponent(tag.slug)}`;
  const xml = rss({
    base,
    title: `#${tag.name} — ${seo.site_title}`,
    link: `${base}${path}`,
    self: `${base}${path}/rss.xml`,
    description: `Статті з тегом «${tag.name}»`,
    language: seo.language,
    rows,
  });
  return { xml, articles: rows };
}

/**
 * The Google News sitemap: indexable articles published in the last 48 hours, at most 1,000,
 * newest first, each with `news:publication` (the site name, `uk`), its date and title.
 */
export async function buildNewsSitemap(now = new Date()): Promise<string> {
  const [base, seo, rows] = await Promise.all([getBaseUrl(), getSettings("seo"), listNewsArticles({ now })]);
  const urls = rows.map(
    (a) => `  <url>
    <loc>${escapeXml(`${base}/article/${encodeURIComponent(a.slug)}`)}</loc>
    <news:news>
      <news:publication>
        <news:name>${escapeXml(seo.site_title)}</news:name>
        <news:language>uk</news:language>
      </news:publication>
      <news:publication_date>${new Date(a.published_at!).toISOString()}</news:publication_date>
      <news:title>${escapeXml(a.title)}</news:title>
    </news:news>
  </url>`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:news="http://www.google.com/schemas/sitemap-news/0.9">
${urls.join("\n")}
</urlset>
`;
}
