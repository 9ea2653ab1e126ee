import type { ArticleStatus } from "../utils/newsroom-rules";

// The one model every import format is parsed into (issue 27, DESIGN §14): parse-wxr, parse-ghost
// and parse-ours answer a ParsedSite; the runner (run-import.server.ts) maps it to our articles,
// categories, tags, users and media. Plain data only: it crosses from the CPU worker by copy.

export type SourceKind = "wordpress" | "ghost" | "ours";

export interface ParsedAuthor {
  sourceId: string;
  login: string | null;
  email: string | null;
  name: string | null;
  bio: string | null;
  /** The role it had in our export (ours only); imported authors are otherwise reporters. */
  role?: string | null;
}

export interface ParsedTerm {
  sourceId: string;
  /** The source's slug, decoded (WordPress percent-encodes non-Latin slugs). */
  slug: string;
  name: string;
  description: string | null;
  /** Public paths it had at the source (`/category/parent/child`, `/tag/x`), decoded, no trailing slash. */
  oldPaths: string[];
  /** Only matched to an existing category, never created (Ghost's first tag). */
  matchOnly?: boolean;
}

export interface ParsedPost {
  sourceId: string;
  title: string;
  /** Decoded source slug ('' when the source had none). */
  slug: string;
  /** Body as HTML (WordPress, Ghost) … */
  html: string | null;
  /** … or as our markdown (ours). */
  markdown: string | null;
  subtitle: string | null;
  status: ArticleStatus;
  createdAt: string;
  publishedAt: string | null;
  authorSourceId: string | null;
  /** Source ids of its categories, the first is its category here (the rest become tags). */
  categoryIds: string[];
  /** Tag names. */
  tags: string[];
  featuredImage: string | null;
  featuredImageAlt: string | null;
  featuredImageCaption: string | null;
  seoTitle: string | null;
  seoDescription: string | null;
  /** Public paths it had at the source, decoded, no trailing slash (`/2019/05/slug`, `/?p=123`). */
  oldPaths: string[];
}

/** A reader's comment (WordPress only: Ghost keeps its comments out of its JSON export). */
export interface ParsedComment {
  postSourceId: string;
  sourceId: string;
  parentSourceId: string | null;
  authorName: string;
  authorEmail: string | null;
  authorUrl: string | null;
  createdAt: string;
  /** As the source wrote it (WordPress: HTML); made plain text when written (run-import.server.ts). */
  content: string;
  status: "approved" | "pending" | "spam";
}

export interface ParsedSite {
  source: SourceKind;
  /** The source site's address (WordPress base_site_url, Ghost's url setting, our PUBLIC_URL): ids are unique within it. */
  site: string;
  title: string | null;
  /** The format's version as the file states it (WXR 1.2, Ghost 5.x, science-news-export 1). */
  version: string;
  authors: ParsedAuthor[];
  categories: ParsedTerm[];
  tags: ParsedTerm[];
  posts: ParsedPost[];
  comments: ParsedComment[];
  /** What the file holds that is counted, not imported: pages, attachments, menu items, other post types, trash. */
  skipped: Record<string, number>;
  /** Attachment id → file URL (WordPress featured images name an attachment). */
  attachments: Record<string, string>;
  /** Our export's settings by group (ours only): the importable ones are applied (settings.server.ts IMPORTED_SETTINGS). */
  settings?: Record<string, unknown>;
}

/** A refusal of the whole file, with its Ukrainian message. */
export class ImportRefusal extends Error {
  override name = "ImportRefusal";
}

export const emptySite = (source: SourceKind): ParsedSite => ({
  source,
  site: "",
  title: null,
  version: "",
  authors: [],
  categories: [],
  tags: [],
  posts: [],
  comments: [],
  skipped: {},
  attachments: {},
});

/** A path as stored in `redirects`: decoded, no trailing slash, `/` kept; the query only for `/?p=`-style paths. */
export function normalizeOldPath(pathWithQuery: string): string | null {
  const [raw, query] = pathWithQuery.split("?", 2) as [string, string | undefined];
  let path = raw;
  try {
    path = decodeURIComponent(path);
  } catch {
    return null;
  }
  if (!path.startsWith("/")) path = `/${path}`;
  path = path.replace(/\/+$/, "") || "/";
  if (path === "/") {
    if (!query) return null;
    const params = new URLSearchParams(query);
    for (const key of ["p", "page_id", "cat", "tag"]) {
      const value = params.get(key);
      if (value) return `/?${key}=${value}`;
    }
    return null;
  }
  return path.length <= 1000 ? path : null;
}

/** The path of a URL on the source site ('' for another site or junk). */
export function pathOf(url: string, site: string): string | null {
  try {
    const u = new URL(url, site || "http://localhost");
    const base = site ? new URL(site) : null;
    if (base && u.host !== base.host) return null;
    return normalizeOldPath(u.pathname + u.search);
  } catch {
    return null;
  }
}
