import { XMLParser, XMLValidator } from "fast-xml-parser";
import type { ArticleStatus } from "../utils/newsroom-rules";
import { emptySite, ImportRefusal, normalizeOldPath, pathOf, type ParsedComment, type ParsedPost, type ParsedSite, type ParsedTerm } from "./types";

// WordPress eXtended RSS (WXR 1.1/1.2, "Tools → Export") into a ParsedSite (issue 27). Runs in the
// CPU worker. A file with a DTD or an entity declaration is refused before parsing (no entity is
// ever expanded: billion laughs, external entities); a malformed or truncated file is refused by
// the validator with the line it stopped at.

export const WXR_MESSAGES = {
  dtd: "Файл відхилено: XML містить оголошення DOCTYPE або ENTITY (так можна атакувати сервер), такий файл не імпортується",
  malformed: (line: number | string) => `Файл пошкоджений або обрізаний: XML не читається (рядок ${line}). Нічого не імпортовано`,
  notWxr: "Це не експорт WordPress (WXR): немає <rss> з <channel> і версії wp:wxr_version. Нічого не імпортовано",
};

/** Refuses a DTD or an entity declaration anywhere outside CDATA (the prolog is where XML puts them). */
export function refuseDtd(text: string): void {
  const root = text.search(/<[A-Za-z]/);
  const prolog = root >= 0 ? text.slice(0, root) : text;
  if (/<!DOCTYPE|<!ENTITY/i.test(prolog)) throw new ImportRefusal(WXR_MESSAGES.dtd);
  // A declaration later in the document is not XML at all, but never let a parser see one.
  if (/<!ENTITY/i.test(text.replace(/<!\[CDATA\[[\s\S]*?\]\]>/g, ""))) throw new ImportRefusal(WXR_MESSAGES.dtd);
}

type Node = Record<string, unknown>;
const ARRAYS = new Set(["item", "wp:author", "wp:category", "wp:tag", "wp:term", "category", "wp:postmeta", "wp:comment"]);

const txt = (v: unknown): string => {
  if (v === undefined || v === null) return "";
  if (typeof v === "object") return txt((v as Node)["#text"]);
  return String(v);
};
const list = (v: unknown): Node[] => (Array.isArray(v) ? (v as Node[]) : v ? [v as Node] : []);
const orNull = (s: string) => (s.trim() ? s.trim() : null);

function decodeSlug(slug: string): string {
  try {
    return decodeURIComponent(slug);
  } catch {
    return slug;
  }
}

/** WordPress times: "2019-05-15 10:00:00" (UTC in the _gmt fields); "0000-00-00 00:00:00" for none. */
function wpDate(gmt: string, local: string, pubDate: string): string | null {
  for (const value of [gmt, local]) {
    const m = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/.exec(value.trim());
    if (m && m[1] !== "0000") return new Date(`${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}Z`).toISOString();
  }
  const parsed = pubDate ? Date.parse(pubDate) : NaN;
  return Number.isFinite(parsed) && parsed > 0 ? new Date(parsed).toISOString() : null;
}

const STATUS: Record<string, ArticleStatus> = { publish: "published", future: "scheduled", draft: "draft", pending: "review", private: "draft" };

export function parseWxr(text: string): ParsedSite {
  refuseDtd(text);
  const valid = XMLValidator.validate(text, { allowBooleanAttributes: true });
  if (valid !== true) throw new ImportRefusal(WXR_MESSAGES.malformed(valid.err.line));
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: "@_",
    parseTagValue: false,
    parseAttributeValue: false,
    trimValues: true,
    processEntities: true,
    htmlEntities: false,
    isArray: (name) => ARRAYS.has(name),
  });
  const doc = parser.parse(text) as Node;
  const channel = (doc.rss as Node | undefined)?.channel as Node | undefined;
  const version = txt(channel?.["wp:wxr_version"]);
  if (!channel || !version) throw new ImportRefusal(WXR_MESSAGES.notWxr);

  const site = emptySite("wordpress");
  site.version = `WXR ${version}`;
  site.site = (txt(channel["wp:base_blog_url"]) || txt(channel["wp:base_site_url"]) || txt(channel.link)).replace(/\/+$/, "");
  site.title = orNull(txt(channel.title));

  for (const a of list(channel["wp:author"])) {
    const login = txt(a["wp:author_login"]);
    site.authors.push({
      sourceId: login,
      login: orNull(login),
      email: orNull(txt(a["wp:author_email"])),
      name: orNull(txt(a["wp:author_display_name"])) ?? orNull(`${txt(a["wp:author_first_name"])} ${txt(a["wp:author_last_name"])}`),
      bio: null,
    });
  }

  // Categories: their public path is /category/<parent>/<child> (and WordPress also answers /category/<child>).
  const cats = list(channel["wp:category"]).map((c) => ({
    slug: decodeSlug(txt(c["wp:category_nicename"])),
    parent: decodeSlug(txt(c["wp:category_parent"])),
    name: txt(c["wp:cat_name"]) || decodeSlug(txt(c["wp:category_nicename"])),
    description: orNull(txt(c["wp:category_description"])),
  }));
  const bySlug = new Map(cats.map((c) => [c.slug, c]));
  const chain = (slug: string): string[] => {
    const seen: string[] = [];
    for (let c = bySlug.get(slug); c && !seen.includes(c.slug) && seen.length < 20; c = c.parent ? bySlug.get(c.parent) : undefined) seen.unshift(c.slug);
    return seen.length ? seen : [slug];
  };
  const category = (slug: string, name: string, description: string | null): ParsedTerm => ({
    sourceId: slug,
    slug,
    name,
    description,
    oldPaths: [...new Set([`/category/${chain(slug).join("/")}`, `/category/${slug}`])],
  });
  for (const c of cats) if (c.slug) site.categories.push(category(c.slug, c.name, c.description));
  const tagBySlug = new Map<string, ParsedTerm>();
  const addTag = (slug: string, name: string) => {
    if (!slug || tagBySlug.has(slug)) return;
    const term: ParsedTerm = { sourceId: slug, slug, name: name || slug, description: null, oldPaths: [`/tag/${slug}`] };
    tagBySlug.set(slug, term);
    site.tags.push(term);
  };
  for (const t of list(channel["wp:tag"])) addTag(decodeSlug(txt(t["wp:tag_slug"])), txt(t["wp:tag_name"]));

  const count = (key: string) => (site.skipped[key] = (site.skipped[key] ?? 0) + 1);
  const items = list(channel.item);
  for (const item of items) {
    const type = txt(item["wp:post_type"]) || "post";
    const id = txt(item["wp:post_id"]);
    if (type === "attachment") {
      const url = txt(item["wp:attachment_url"]) || txt(item.guid);
      if (id && url) site.attachments[id] = url;
      count(Number(txt(item["wp:post_parent"]) || 0) ? "attachment" : "attachment_unattached");
      continue;
    }
    if (type !== "post") {
      count(type === "page" ? "page" : type === "nav_menu_item" ? "nav_menu_item" : "other");
      continue;
    }
    const wpStatus = txt(item["wp:status"]);
    const status = STATUS[wpStatus];
    if (!status || !id) {
      count(`status_${wpStatus || "unknown"}`);
      continue;
    }
    const meta = new Map(list(item["wp:postmeta"]).map((m) => [txt(m["wp:meta_key"]), txt(m["wp:meta_value"])]));
    const terms = list(item.category);
    const categoryIds: string[] = [];
    const tags: string[] = [];
    for (const t of terms) {
      const slug = decodeSlug(txt(t["@_nicename"]));
      const name = txt(t);
      if (t["@_domain"] === "category") {
        if (!site.categories.some((c) => c.slug === slug)) site.categories.push(category(slug, name, null));
        categoryIds.push(slug);
      } else if (t["@_domain"] === "post_tag") {
        addTag(slug, name);
        tags.push(name);
      }
    }
    const date = wpDate(txt(item["wp:post_date_gmt"]), txt(item["wp:post_date"]), txt(item.pubDate));
    const created = date ?? new Date().toISOString();
    const link = txt(item.link);
    const oldPaths = new Set<string>();
    if (status === "published") {
      const linkPath = link ? pathOf(link, site.site) : null;
      if (linkPath && linkPath !== "/") oldPaths.add(linkPath);
      oldPaths.add(`/?p=${id}`);
    }
    const post: ParsedPost = {
      sourceId: id,
      title: txt(item.title).trim(),
      slug: decodeSlug(txt(item["wp:post_name"])),
      html: txt(item["content:encoded"]),
      markdown: null,
      subtitle: orNull(txt(item["excerpt:encoded"])),
      status,
      createdAt: created,
      publishedAt: status === "published" || status === "scheduled" ? created : null,
      authorSourceId: orNull(txt(item["dc:creator"])),
      categoryIds,
      tags,
      featuredImage: meta.get("_thumbnail_id") ?? null,
      featuredImageAlt: null,
      featuredImageCaption: null,
      seoTitle: orNull(meta.get("_yoast_wpseo_title") ?? ""),
      seoDescription: orNull(meta.get("_yoast_wpseo_metadesc") ?? ""),
      oldPaths: [...oldPaths].filter((p): p is string => Boolean(normalizeOldPath(p))),
    };
    site.posts.push(post);
    for (const c of list(item["wp:comment"])) {
      const type = txt(c["wp:comment_type"]);
      if (type === "pingback" || type === "trackback") continue;
      // wp:comment_approved is "1", "0" (waiting), "spam", "trash" or "post-trashed": the bin is not brought over.
      const approved = txt(c["wp:comment_approved"]);
      const status = approved === "1" ? "approved" : approved === "0" ? "pending" : approved === "spam" ? "spam" : null;
      if (!status) {
        site.skipped.comment_trash = (site.skipped.comment_trash ?? 0) + 1;
        continue;
      }
      const comment: ParsedComment = {
        postSourceId: id,
        sourceId: txt(c["wp:comment_id"]),
        parentSourceId: Number(txt(c["wp:comment_parent"]) || 0) ? txt(c["wp:comment_parent"]) : null,
        authorName: txt(c["wp:comment_author"]),
        authorEmail: orNull(txt(c["wp:comment_author_email"])),
        authorUrl: orNull(txt(c["wp:comment_author_url"])),
        createdAt: wpDate(txt(c["wp:comment_date_gmt"]), txt(c["wp:comment_date"]), "") ?? created,
        content: txt(c["wp:comment_content"]),
        status,
      };
      site.comments.push(comment);
    }
  }
  // Featured images name an attachment: its URL, when the file has it.
  for (const post of site.posts) post.featuredImage = post.featuredImage ? (site.attachments[post.featuredImage] ?? null) : null;
  return site;
}
