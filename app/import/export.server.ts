import { db, writeTransaction } from "../../db/index";
import { recordAudit, SYSTEM, type Actor } from "../models/audit.server";
import { getSiteSettings } from "../models/settings.server";
import { getEnv } from "../utils/env.server";
import { EXPORT_FORMAT, EXPORT_VERSION } from "./parse-ours.server";

// Our export (issue 27 item 7, docs/import-export.md): every article (markdown and HTML), category,
// tag, author (never a password hash, session, token or second-factor secret), the media list and
// the settings, in one JSON document that parse-ours.server.ts reads back into another install.

const SECRET_KEY = /secret|token|password|passwd|credential|api_?key|private|verification/i;

/** Settings without anything that looks like a secret (a key, a token, a password). */
function withoutSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSecrets);
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (!SECRET_KEY.test(k)) out[k] = withoutSecrets(v);
    return out;
  }
  return value;
}

export async function buildExport({ actor }: { actor: Actor | null }) {
  const users = await db
    .selectFrom("users")
    .select(["id", "username", "email", "name", "bio", "role", "is_active", "created_at"])
    .orderBy("created_at")
    .execute();
  const categories = await db.selectFrom("categories").select(["id", "name", "slug", "description", "created_at"]).orderBy("slug").execute();
  const tagRows = await db
    .selectFrom("article_tags")
    .innerJoin("tags", "tags.id", "article_tags.tag_id")
    .select(["article_tags.article_id", "tags.name", "article_tags.position"])
    .orderBy("article_tags.article_id")
    .orderBy("article_tags.position")
    .execute();
  const tagsOf = new Map<string, string[]>();
  for (const t of tagRows) tagsOf.set(t.article_id, [...(tagsOf.get(t.article_id) ?? []), t.name]);
  const oldSlugs = new Map<string, string[]>();
  for (const r of await db.selectFrom("slug_redirects").select(["old_slug", "article_id"]).execute())
    oldSlugs.set(r.article_id, [...(oldSlugs.get(r.article_id) ?? []), r.old_slug]);
  const articles = [];
  let after = "";
  for (;;) {
    const page = await db
      .selectFrom("articles")
      .select([
        "id",
        "slug",
        "title",
        "subtitle",
        "content",
        "content_html",
        "status",
        "category_id",
        "author_id",
        "published_at",
        "created_at",
        "updated_at",
        "seo_title",
        "seo_description",
        "featured_image",
        "featured_image_alt",
        "featured_image_caption",
        "views",
      ])
      .where("id", ">", after)
      .orderBy("id")
      .limit(500)
      .execute();
    if (!page.length) break;
    for (const a of page) articles.push({ ...a, tags: tagsOf.get(a.id) ?? [], old_slugs: oldSlugs.get(a.id) ?? [] });
    after = page[page.length - 1].id;
  }
  const media = (
    await db
      .selectFrom("media")
      .select(["id", "file_name", "stored_path", "mime", "size", "width", "height", "alt", "created_at"])
      .orderBy("created_at")
      .execute()
  ).map(({ stored_path, ...m }) => ({ ...m, url: `/media/${stored_path}` }));
  const tags = (await db.selectFrom("tags").select("name").orderBy("name").execute()).map((t) => t.name);
  const settings = withoutSecrets(await getSiteSettings()) as Record<string, unknown>;
  const document = {
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    exported_at: new Date().toISOString(),
    site: { url: getEnv().PUBLIC_URL, name: (settings.seo as { site_title?: string } | undefined)?.site_title ?? null },
    counts: { articles: articles.length, categories: categories.length, tags: tags.length, users: users.length, media: media.length },
    users: users.map((u) => ({ ...u, is_active: Boolean(u.is_active) })),
    categories,
    tags,
    articles,
    media,
    settings,
  };
  await writeTransaction((trx) =>
    recordAudit(trx, { actor: actor ?? SYSTEM, action: "site.export", object: { type: "import", label: EXPORT_FORMAT }, details: { ...document.counts } }),
  );
  return document;
}
