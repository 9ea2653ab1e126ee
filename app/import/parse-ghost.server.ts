import type { ArticleStatus } from "../utils/newsroom-rules";
import { emptySite, ImportRefusal, type ParsedPost, type ParsedSite } from "./types";

// A Ghost JSON export (Settings → Labs → Export; Ghost 4, 5 and 6 write the same shape:
// `{db: [{meta: {version}, data: {posts, posts_meta, tags, posts_tags, users, posts_authors}}]}`)
// into a ParsedSite (issue 27). Posts come from their `html`; the first public tag becomes the
// category when one of ours matches it (the runner decides), the others are tags. Runs in the CPU
// worker.

export const GHOST_MESSAGES = {
  notGhost: "Це не експорт Ghost: немає db[0].data.posts. Нічого не імпортовано",
};

type Row = Record<string, unknown>;
const rows = (v: unknown): Row[] => (Array.isArray(v) ? (v.filter((r) => r && typeof r === "object") as Row[]) : []);
const str = (v: unknown): string | null => (typeof v === "string" && v.trim() ? v : typeof v === "number" ? String(v) : null);
const iso = (v: unknown): string | null => {
  const s = str(v);
  const t = s ? Date.parse(s) : typeof v === "number" ? v : NaN;
  return Number.isFinite(t) ? new Date(t).toISOString() : null;
};

const STATUS: Record<string, ArticleStatus> = { published: "published", draft: "draft", scheduled: "scheduled", sent: "draft" };

/** The markdown of a Ghost 1–4 mobiledoc (its markdown card), when a post has no html. */
function mobiledocMarkdown(mobiledoc: unknown): string | null {
  try {
    const doc = JSON.parse(String(mobiledoc)) as { cards?: [string, { markdown?: string }][] };
    const parts = (doc.cards ?? []).filter(([name]) => name === "markdown" || name === "card-markdown").map(([, card]) => card.markdown ?? "");
    return parts.length ? parts.join("\n\n") : null;
  } catch {
    return null;
  }
}

export function parseGhost(json: unknown, sourceUrl = ""): ParsedSite {
  const root = json as Row | null;
  const db = Array.isArray(root?.db) ? (root!.db as Row[])[0] : root;
  const data = db?.data as Row | undefined;
  if (!data || !Array.isArray(data.posts)) throw new ImportRefusal(GHOST_MESSAGES.notGhost);
  const meta = (db?.meta ?? {}) as Row;
  const site = emptySite("ghost");
  site.version = `Ghost ${str(meta.version) ?? "?"}`;
  const settings = rows(data.settings);
  const setting = (key: string) => str(settings.find((s) => s.key === key)?.value);
  site.title = setting("title");
  // Ghost's export has no address of its own; its ids (ObjectIds) are unique anyway.
  site.site = sourceUrl.replace(/\/+$/, "") || "ghost";
  const base = sourceUrl.replace(/\/+$/, "");
  const ghostUrl = (s: string | null) => (s ? s.replaceAll("__GHOST_URL__", base) : s);

  for (const u of rows(data.users)) {
    const id = str(u.id);
    if (!id) continue;
    site.authors.push({ sourceId: id, login: str(u.slug), email: str(u.email), name: str(u.name), bio: str(u.bio) });
  }
  const tagById = new Map<string, { name: string; slug: string; public: boolean }>();
  for (const t of rows(data.tags)) {
    const id = str(t.id);
    const name = str(t.name);
    if (!id || !name) continue;
    const slug = str(t.slug) ?? name;
    const isPublic = t.visibility !== "internal" && !name.startsWith("#");
    tagById.set(id, { name, slug, public: isPublic });
    if (isPublic) site.tags.push({ sourceId: id, slug, name, description: str(t.description), oldPaths: [`/tag/${slug}`] });
  }
  const postsMeta = new Map(rows(data.posts_meta).map((m) => [str(m.post_id), m]));
  const tagsOf = new Map<string, string[]>();
  for (const pt of [...rows(data.posts_tags)].sort((a, b) => Number(a.sort_order ?? 0) - Number(b.sort_order ?? 0))) {
    const post = str(pt.post_id);
    const tag = str(pt.tag_id);
    if (post && tag) tagsOf.set(post, [...(tagsOf.get(post) ?? []), tag]);
  }
  const authorOf = new Map<string, string>();
  for (const pa of [...rows(data.posts_authors)].sort((a, b) => Number(b.sort_order ?? 0) - Number(a.sort_order ?? 0))) {
    const post = str(pa.post_id);
    const author = str(pa.author_id);
    if (post && author) authorOf.set(post, author); // the lowest sort_order wins (set last)
  }

  const count = (key: string) => (site.skipped[key] = (site.skipped[key] ?? 0) + 1);
  for (const p of rows(data.posts)) {
    const id = str(p.id);
    const type = str(p.type) ?? (p.page === true || p.page === 1 ? "page" : "post");
    if (type !== "post") {
      count(type === "page" ? "page" : "other");
      continue;
    }
    const status = STATUS[str(p.status) ?? ""];
    if (!id || !status) {
      count(`status_${str(p.status) ?? "unknown"}`);
      continue;
    }
    const m = postsMeta.get(id) ?? p;
    const postTags = (tagsOf.get(id) ?? []).map((t) => tagById.get(t)).filter((t): t is NonNullable<typeof t> => Boolean(t?.public));
    const slug = str(p.slug) ?? "";
    const html = ghostUrl(str(p.html));
    const created = iso(p.created_at) ?? new Date().toISOString();
    const published = iso(p.published_at);
    const post: ParsedPost = {
      sourceId: id,
      title: str(p.title) ?? "",
      slug,
      html: html ?? null,
      markdown: html ? null : mobiledocMarkdown(p.mobiledoc),
      subtitle: str(p.custom_excerpt),
      status,
      createdAt: created,
      publishedAt: status === "published" || status === "scheduled" ? (published ?? created) : null,
      authorSourceId: authorOf.get(id) ?? str(p.author_id),
      // The first public tag is offered as the category (by slug or name); every public tag stays a tag.
      categoryIds: postTags.slice(0, 1).map((t) => `tag:${t.slug}`),
      tags: postTags.map((t) => t.name),
      featuredImage: ghostUrl(str(p.feature_image)),
      featuredImageAlt: str(m.feature_image_alt) ?? str(p.feature_image_alt),
      featuredImageCaption: str(m.feature_image_caption) ?? str(p.feature_image_caption),
      seoTitle: str(m.meta_title),
      seoDescription: str(m.meta_description),
      oldPaths: status === "published" && slug ? [`/${slug}`] : [],
    };
    site.posts.push(post);
  }
  // The first tags as candidate categories: matched to ours by slug or name, never created.
  const seen = new Set<string>();
  for (const post of site.posts) {
    for (const cid of post.categoryIds) {
      if (seen.has(cid)) continue;
      seen.add(cid);
      const tag = [...tagById.values()].find((t) => `tag:${t.slug}` === cid)!;
      site.categories.push({ sourceId: cid, slug: tag.slug, name: tag.name, description: null, oldPaths: [], matchOnly: true });
    }
  }
  return site;
}
