import type { MetaDescriptor } from "@remix-run/node";
import type { PublicSite } from "../services/public-site.server";

// Per-page meta of the public site (DESIGN §8): title, description, canonical, robots, Open Graph
// and Twitter card, all with the SEO settings as defaults.

export interface PageMeta {
  /** The page's own title; the site name is appended (or used alone for the home page). */
  title?: string;
  description?: string | null;
  /** Path and query of the canonical URL, e.g. '/article/x' or an absolute URL. */
  path: string;
  image?: string | null;
  type?: "website" | "article";
  robots?: string;
  publishedTime?: string | null;
  modifiedTime?: string | null;
  section?: string | null;
  tags?: string[];
  keywords?: string | null;
}

const absolute = (base: string, url: string) => (/^https?:\/\//i.test(url) ? url : `${base}${url.startsWith("/") ? "" : "/"}${url}`);

/** The site settings the public layout loaded, found from any public route's meta `matches`. */
export function siteFromMatches(matches: readonly { id: string; data: unknown }[]): PublicSite | undefined {
  const layout = matches.find((m) => m.id === "routes/_public");
  return (layout?.data as { site?: PublicSite } | undefined)?.site;
}

export function buildMeta(site: PublicSite | undefined, page: PageMeta): MetaDescriptor[] {
  if (!site) return [{ title: page.title ?? "Наука UA" }];
  const title = page.title ? `${page.title} — ${site.title}` : site.title;
  const description = page.description || site.description;
  const url = absolute(site.baseUrl, page.path);
  const image = page.image ? absolute(site.baseUrl, page.image) : site.ogImage;
  const tags: MetaDescriptor[] = [
    { title },
    { name: "description", content: description },
    { name: "robots", content: page.robots ?? site.robots },
    { tagName: "link", rel: "canonical", href: url },
    { property: "og:site_name", content: site.title },
    { property: "og:type", content: page.type ?? "website" },
    { property: "og:title", content: page.title ?? site.title },
    { property: "og:description", content: description },
    { property: "og:url", content: url },
    { property: "og:image", content: image },
    { property: "og:locale", content: site.language.replace("-", "_") },
    { name: "twitter:card", content: "summary_large_image" },
    { name: "twitter:title", content: page.title ?? site.title },
    { name: "twitter:description", content: description },
    { name: "twitter:image", content: image },
  ];
  const keywords = page.keywords || site.keywords;
  if (keywords) tags.push({ name: "keywords", content: keywords });
  if (site.twitter) tags.push({ name: "twitter:site", content: site.twitter });
  if (page.publishedTime) tags.push({ property: "article:published_time", content: page.publishedTime });
  if (page.modifiedTime) tags.push({ property: "article:modified_time", content: page.modifiedTime });
  if (page.section) tags.push({ property: "article:section", content: page.section });
  for (const tag of page.tags ?? []) tags.push({ property: "article:tag", content: tag });
  return tags;
}

/** JSON for a <script type="application/ld+json">, safe inside HTML (no '</script>' breakout). */
export function jsonLd(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/>/g, "\\u003e")
    .replace(/&/g, "\\u0026")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}
