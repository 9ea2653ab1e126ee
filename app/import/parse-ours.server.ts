import { ARTICLE_STATUSES, type ArticleStatus } from "../utils/newsroom-rules";
import { emptySite, ImportRefusal, type ParsedSite } from "./types";

// Our own export (`science-news-export`, docs/import-export.md) read back (issue 27 item 7), so a
// site moves between two of our installs. Runs in the CPU worker.

export const EXPORT_FORMAT = "science-news-export";
export const EXPORT_VERSION = 1;

export const OURS_MESSAGES = {
  newer: (v: unknown) => `Файл експорту має версію ${String(v)}, а цей сайт читає лише версію ${EXPORT_VERSION}: оновіть сайт. Нічого не імпортовано`,
};

type Row = Record<string, unknown>;
const rows = (v: unknown): Row[] => (Array.isArray(v) ? (v.filter((r) => r && typeof r === "object") as Row[]) : []);
const str = (v: unknown): string | null => (typeof v === "string" && v.trim() ? v : null);

export function isOurExport(json: unknown): boolean {
  return Boolean(json && typeof json === "object" && (json as Row).format === EXPORT_FORMAT);
}

export function parseOurs(json: unknown): ParsedSite {
  const root = json as Row;
  if (root.version !== EXPORT_VERSION) throw new ImportRefusal(OURS_MESSAGES.newer(root.version));
  const site = emptySite("ours");
  const meta = (root.site ?? {}) as Row;
  site.site = str(meta.url) ?? "ours";
  site.title = str(meta.name);
  site.version = `${EXPORT_FORMAT} ${EXPORT_VERSION}`;
  site.settings = (root.settings && typeof root.settings === "object" ? root.settings : {}) as Record<string, unknown>;
  for (const u of rows(root.users)) {
    const id = str(u.id);
    if (id) site.authors.push({ sourceId: id, login: str(u.username), email: str(u.email), name: str(u.name), bio: str(u.bio), role: str(u.role) });
  }
  for (const c of rows(root.categories)) {
    const id = str(c.id);
    const name = str(c.name);
    if (id && name) site.categories.push({ sourceId: id, slug: str(c.slug) ?? "", name, description: str(c.description), oldPaths: [] });
  }
  for (const a of rows(root.articles)) {
    const id = str(a.id);
    const status = str(a.status) as ArticleStatus | null;
    if (!id || !status || !ARTICLE_STATUSES.includes(status)) {
      site.skipped.invalid = (site.skipped.invalid ?? 0) + 1;
      continue;
    }
    site.posts.push({
      sourceId: id,
      title: str(a.title) ?? "",
      slug: str(a.slug) ?? "",
      html: null,
      markdown: typeof a.content === "string" ? a.content : "",
      subtitle: str(a.subtitle),
      status,
      createdAt: str(a.created_at) ?? new Date().toISOString(),
      publishedAt: str(a.published_at),
      authorSourceId: str(a.author_id),
      categoryIds: str(a.category_id) ? [str(a.category_id)!] : [],
      tags: Array.isArray(a.tags) ? a.tags.filter((t): t is string => typeof t === "string") : [],
      featuredImage: str(a.featured_image),
      featuredImageAlt: str(a.featured_image_alt),
      featuredImageCaption: str(a.featured_image_caption),
      seoTitle: str(a.seo_title),
      seoDescription: str(a.seo_description),
      oldPaths: [],
    });
  }
  return site;
}
