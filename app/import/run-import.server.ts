import { availableParallelism } from "node:os";
import { sql } from "kysely";
import { db, writeTransaction, type DB } from "../../db/index";
import { lowerCase } from "../../db/sql/text";
import { recordRevision } from "../models/article-revision.server";
import { insertArticle } from "../models/article-writes.server";
import { recordAudit, SYSTEM, type Actor } from "../models/audit.server";
import { applyImportedSettings } from "../models/settings.server";
import { invalidatePublicCache } from "../page-store/page-cache.server";
import { CpuPool } from "../utils/cpu-pool.server";
import { LIMITS, type ArticleStatus } from "../utils/newsroom-rules";
import { firstFreeSlug, slugify } from "../utils/slug.server";
import { imageUrlsOf } from "./html-to-markdown.server";
import { importImages, type ImageFailure } from "./media-import.server";
import type { MediaZip } from "./media-zip.server";
import type { ConvertAnswer, ConvertItem, ImportFormat } from "./parse.server";
import { addRedirects, loadSourceMaps, rememberSource } from "./sources.server";
import { ImportRefusal, type ParsedPost, type ParsedSite } from "./types";
import { writeComments, type CommentCounts } from "./write-comments.server";
import { fallbackCategory, resolveAuthors, resolveCategories, type Counted } from "./write-import.server";

// The import run (issue 27, DESIGN §14, docs/decisions/025): the file is read whole in a worker
// (refused whole, nothing written, when it is malformed, truncated, hostile or of another format);
// authors and categories are matched or made; images are stored as media; bodies are converted
// (HTML → markdown → rendered and sanitised, with the search rows) in the worker in batches; articles
// are written through the model's insertArticle (tags, search row) with their first revision, old
// paths and source ids,
// a hundred per transaction, so a run that stops is resumed by running it again (idempotent by
// the source's ids) and nothing is ever half-written. The site keeps serving meanwhile: the CPU
// work is in a worker of its own at a lower priority, and each transaction is short.

const BATCH = 25;
const WRITE_CHUNK = 100;

export interface ImportSummary {
  source: string;
  version: string;
  site: string;
  dryRun: boolean;
  articles: { created: number; existing: number; failed: number; byStatus: Partial<Record<ArticleStatus, number>> };
  categories: Counted;
  tags: number;
  authors: Counted;
  images: { stored: number; existing: number; failed: ImageFailure[] };
  redirects: number;
  comments: CommentCounts;
  skipped: Record<string, number>;
  failures: { title: string; reason: string }[];
  /** Our export's settings: those applied (`group.field`) and those left as they were (not importable or invalid). */
  settings: { applied: string[]; ignored: string[] };
  ms: number;
}

export type Progress = (stage: string, done: number, total: number) => void;

// Its own pool: readers' saves never queue behind an import, and the budgets suit whole files.
let importPool: CpuPool | undefined;
// Two workers where there are two cores, each at a lower priority than the request thread.
const pool = () =>
  (importPool ??= new CpuPool({
    size: Math.min(2, availableParallelism()),
    timeMs: 120_000,
    heapMb: 1536,
    recycleAfter: 40,
    warmAhead: 4,
    idleRetireMs: 60_000,
  }));

/** Reads a file into a ParsedSite in the worker; throws ImportRefusal with the Ukrainian reason. */
export async function parseInWorker(format: ImportFormat, text: string, sourceUrl = ""): Promise<ParsedSite> {
  const answer = await pool()
    .run({ kind: "import-parse", format, text, sourceUrl })
    .catch((error: Error) => {
      throw new ImportRefusal(
        `Файл не вдалося прочитати (${error.name === "CpuBudgetError" ? "перевищено ліміт часу чи пам'яті" : "помилка читання"}). Нічого не імпортовано`,
      );
    });
  if (!answer.ok) throw new ImportRefusal(answer.message);
  return answer.site;
}

async function convert(items: ConvertItem[]): Promise<ConvertAnswer[]> {
  try {
    return await pool().run({ kind: "import-convert", items });
  } catch (error) {
    // One body past a budget: the others of the batch are converted one by one.
    if (items.length === 1) return [{ error: `перевищено ліміт обробки (${(error as Error).message})` }];
    return (await Promise.all(items.map((item) => convert([item])))).flat();
  }
}

const clip = (s: string | null, max: number) => (s ? (s.length > max ? s.slice(0, max - 1).trimEnd() + "…" : s) : null);
const plain = (html: string | null) =>
  html
    ? html
        .replace(/<[^>]*>/g, " ")
        .replace(/&nbsp;/g, " ")
        .replace(/&amp;/g, "&")
        .replace(/&lt;/g, "<")
        .replace(/&gt;/g, ">")
        .replace(/&quot;/g, '"')
        .replace(/&#0?39;/g, "'")
        .replace(/\s+/g, " ")
        .trim() || null
    : null;

async function slugFree(trx: DB, slug: string) {
  const a = await trx.selectFrom("articles").select("id").where("slug", "=", slug).executeTakeFirst();
  if (a) return false;
  return !(await trx.selectFrom("slug_redirects").select("article_id").where("old_slug", "=", slug).executeTakeFirst());
}

/** The run's author of revisions and audit: the importing admin, else (the command line) the first active admin. */
async function runActor(actor: Actor | null): Promise<Actor | null> {
  if (actor) return actor;
  const admin = await db
    .selectFrom("users")
    .select(["id", "username", "role"])
    .where("role", "=", "admin")
    .where("is_active", "=", 1)
    .orderBy("created_at")
    .executeTakeFirst();
  return admin ? { ...admin, ip: null } : null;
}

export async function runImport(options: {
  format: ImportFormat;
  text: string;
  actor: Actor | null;
  dryRun?: boolean;
  mediaDir?: string;
  /** The zip of the old uploads sent on /admin/import (checked whole already: media-zip.server.ts). */
  mediaZip?: MediaZip;
  sourceUrl?: string;
  onProgress?: Progress;
}): Promise<ImportSummary> {
  const started = Date.now();
  const dryRun = Boolean(options.dryRun);
  const progress = options.onProgress ?? (() => undefined);
  progress("parse", 0, 1);
  const site = await parseInWorker(options.format, options.text, options.sourceUrl);
  const actor = await runActor(options.actor);
  const maps = await loadSourceMaps(site.source, site.site);
  const fresh = site.posts.filter((p) => !maps.article.has(p.sourceId));
  const summary: ImportSummary = {
    source: site.source,
    version: site.version,
    site: site.site,
    dryRun,
    articles: { created: 0, existing: site.posts.length - fresh.length, failed: 0, byStatus: {} },
    categories: { matched: 0, created: 0 },
    tags: site.tags.length,
    authors: { matched: 0, created: 0 },
    images: { stored: 0, existing: 0, failed: [] },
    redirects: 0,
    comments: { found: site.comments.length, created: 0, existing: 0, skipped: 0, note: null },
    skipped: site.skipped,
    failures: [],
    settings: { applied: [], ignored: [] },
    ms: 0,
  };

  // Authors and categories first, in one transaction (a dry run only counts).
  const needAuthors = new Set(site.posts.map((p) => p.authorSourceId).filter((a): a is string => Boolean(a)));
  // Our own export brings every category (and author) it has, used or not.
  const needCats = new Set(site.source === "ours" ? site.categories.map((c) => c.sourceId) : site.posts.flatMap((p) => p.categoryIds));
  if (site.source === "ours") for (const a of site.authors) needAuthors.add(a.sourceId);
  const people = await writeTransaction(async (trx) => {
    const authors = await resolveAuthors(trx, { site, maps, needed: needAuthors, dryRun });
    const categories = await resolveCategories(trx, { site, maps, needed: needCats, dryRun });
    const fallback = fresh.some((p) => !p.categoryIds.some((c) => categories.ids.has(c))) ? await fallbackCategory(trx, dryRun) : null;
    if (!dryRun) {
      const catPaths = categories.terms.flatMap((t) => t.oldPaths.map((from) => ({ from, to: `/category/${categories.ids.get(t.sourceId)!.slug}` })));
      summary.redirects += await addRedirects(trx, catPaths);
    }
    return { authors, categories, fallback };
  });
  summary.authors = people.authors.counts;
  summary.categories = people.categories.counts;

  // Images: the featured image and those in each body, each stored once across runs.
  const images: Record<string, string> = {};
  if (!dryRun) {
    const wanted = new Set<string>();
    for (const p of fresh) {
      if (p.featuredImage) wanted.add(p.featuredImage);
      for (const url of imageUrlsOf(p.html ?? "")) wanted.add(url);
      if (p.markdown) for (const m of p.markdown.matchAll(/!\[[^\]]*\]\(([^)\s]+)/g)) wanted.add(m[1]);
    }
    const known = await loadKnownMedia([...wanted], maps.media);
    for (const [url, ours] of known) images[url] = ours;
    summary.images.existing = known.size;
    const todo = [...wanted].filter((u) => !known.has(u)).map((u) => ({ url: u, abs: absolute(u, site) }));
    let done = 0;
    const result = await importImages({
      urls: todo.map((t) => t.abs),
      mediaDir: options.mediaDir,
      mediaZip: options.mediaZip,
      userId: actor?.id ?? null,
      onEach: () => progress("images", ++done, todo.length),
    });
    await writeTransaction(async (trx) => {
      for (const t of todo) {
        const item = result.stored.get(t.abs);
        if (!item) continue;
        images[t.url] = item.url;
        await rememberSource(trx, { source: site.source, site: site.site, kind: "media", sourceId: t.url, targetId: item.id });
      }
    });
    summary.images.stored = result.stored.size;
    summary.images.failed = result.failed;
  }

  // Bodies, converted in the workers (the next chunk while this one is written), then written a chunk at a time.
  let written = 0;
  let convertedCount = 0;
  // Our id of every article of this file, imported before or now (the comments hang on them).
  const articleIds = new Map(maps.article);
  const savedFields = (post: ParsedPost) => {
    const extraCategories = post.categoryIds.slice(1).map((c) => site.categories.find((t) => t.sourceId === c)?.name);
    const tags = [...new Set([...post.tags, ...extraCategories].filter((t): t is string => Boolean(t)).map((t) => t.trim().slice(0, LIMITS.tag)))].slice(
      0,
      LIMITS.tags,
    );
    return { title: clip(post.title.trim() || "(без назви)", LIMITS.title)!, subtitle: clip(plain(post.subtitle), LIMITS.subtitle), tags };
  };
  const convertChunk = async (chunk: ParsedPost[]) => {
    const batches: Promise<ConvertAnswer[]>[] = [];
    for (let i = 0; i < chunk.length; i += BATCH) {
      const items = chunk.slice(i, i + BATCH).map((p) => {
        const { title, subtitle, tags } = savedFields(p);
        return { html: p.html, markdown: p.markdown, wordpress: site.source === "wordpress", images: imagesOf(p, images), search: { title, subtitle, tags } };
      });
      batches.push(
        convert(items).then((answers) => {
          convertedCount += items.length;
          progress("convert", convertedCount, fresh.length);
          return answers;
        }),
      );
    }
    return (await Promise.all(batches)).flat();
  };
  let next = fresh.length ? convertChunk(fresh.slice(0, WRITE_CHUNK)) : undefined;
  for (let start = 0; start < fresh.length; start += WRITE_CHUNK) {
    const chunk = fresh.slice(start, start + WRITE_CHUNK);
    const converted = await next!;
    next = start + WRITE_CHUNK < fresh.length ? convertChunk(fresh.slice(start + WRITE_CHUNK, start + 2 * WRITE_CHUNK)) : undefined;
    const ready = chunk
      .map((post, i) => ({ post, body: converted[i] }))
      .filter(({ post, body }) => {
        const reason = "error" in body ? body.error : body.markdown.length > LIMITS.content ? "текст довший за 500 000 символів" : null;
        if (reason) {
          summary.articles.failed++;
          summary.failures.push({ title: post.title || post.slug || post.sourceId, reason });
        }
        return !reason;
      });
    for (const { post } of ready) summary.articles.byStatus[post.status] = (summary.articles.byStatus[post.status] ?? 0) + 1;
    summary.articles.created += ready.length;
    if (dryRun) {
      // The comments a dry run counts hang on the articles it would write.
      for (const { post } of ready) articleIds.set(post.sourceId, `dry-run:${post.sourceId}`);
      continue;
    }
    summary.redirects += await writeTransaction(async (trx) => {
      let redirects = 0;
      for (const { post, body } of ready) {
        if ("error" in body) continue;
        const category = post.categoryIds.map((c) => people.categories.ids.get(c)).find(Boolean) ?? people.fallback!;
        const { title, subtitle, tags } = savedFields(post);
        const slug = await firstFreeSlug(slugify(post.slug) || slugify(title) || "stattia", (s) => slugFree(trx, s).then((free) => !free));
        const authorId = (post.authorSourceId && people.authors.ids.get(post.authorSourceId)) || actor?.id || null;
        const featured = post.featuredImage ? (images[post.featuredImage] ?? post.featuredImage) : null;
        const id = await insertArticle(trx, {
          slug,
          title,
          subtitle,
          content: body.markdown,
          contentHtml: body.html,
          // Made in the worker beside the conversion (the editor's save makes them in the `search` job).
          search: body.search,
          categoryId: category.id,
          authorId,
          status: post.status,
          publishedAt: post.publishedAt,
          createdAt: post.createdAt,
          seoTitle: clip(post.seoTitle, LIMITS.seoTitle),
          seoDescription: clip(post.seoDescription, 160),
          featuredImage: featured && /^(https?:\/\/|\/)/.test(featured) ? featured : null,
          featuredImageAlt: clip(post.featuredImageAlt, 300),
          featuredImageCaption: clip(post.featuredImageCaption, 300),
          tags,
        });
        await recordRevision(trx, { articleId: id, actorId: actor?.id ?? authorId ?? "", before: null });
        await rememberSource(trx, { source: site.source, site: site.site, kind: "article", sourceId: post.sourceId, targetId: id });
        articleIds.set(post.sourceId, id);
        redirects += await addRedirects(
          trx,
          post.oldPaths.map((from) => ({ from, to: `/article/${slug}` })),
        );
      }
      return redirects;
    });
    written += ready.length;
    progress("write", written, fresh.length);
  }

  // After the articles (their tags and tag slugs exist now): old tag paths, the comments, our export's settings.
  progress("comments", 0, site.comments.length);
  const after = await writeTransaction(async (trx) => {
    const redirects = dryRun ? 0 : await addRedirects(trx, await tagRedirects(trx, site), { replaceSearch: true });
    const comments = await writeComments(trx, { site, maps, articles: articleIds, dryRun });
    const settings = site.settings ? await applyImportedSettings(trx, { incoming: site.settings, actor: actor ?? SYSTEM, dryRun }) : summary.settings;
    return { redirects, comments, settings };
  });
  summary.redirects += after.redirects;
  summary.comments = after.comments;
  summary.settings = after.settings;
  progress("comments", site.comments.length, site.comments.length);

  summary.ms = Date.now() - started;
  if (!dryRun) {
    await writeTransaction((trx) =>
      recordAudit(trx, {
        actor: actor ?? SYSTEM,
        action: "site.import",
        object: { type: "import", label: `${site.version} ${site.site}`.slice(0, 200) },
        details: {
          created: summary.articles.created,
          existing: summary.articles.existing,
          failed: summary.articles.failed,
          images: summary.images.stored,
          redirects: summary.redirects,
          comments: summary.comments.created,
          settings: summary.settings.applied.length,
        },
      }),
    );
    // Every list may show an imported story, a comment or a setting: all public pages are re-rendered.
    if (summary.articles.created || summary.comments.created || summary.settings.applied.length || after.redirects) invalidatePublicCache();
  }
  return summary;
}

/**
 * The old tag paths of the file → their tag page here (`/tag/{slug}`, issue 29), read after the
 * articles are written (a tag row and its slug exist once an article carries it); a tag no imported
 * article carries has no page, so its old path goes to a search for its name.
 */
async function tagRedirects(trx: DB, site: ParsedSite): Promise<{ from: string; to: string }[]> {
  const terms = site.tags.filter((t) => t.oldPaths.length);
  if (!terms.length) return [];
  const nameOf = (t: { name: string }) => t.name.trim().slice(0, LIMITS.tag);
  const slugs = new Map<string, string>();
  const names = [...new Set(terms.map((t) => nameOf(t).toLowerCase()))];
  for (let i = 0; i < names.length; i += 500) {
    const rows = await trx
      .selectFrom("tags")
      .select(["name", "slug"])
      .where(lowerCase(sql.ref("name")), "in", names.slice(i, i + 500))
      .execute();
    for (const r of rows) if (r.slug) slugs.set(r.name.toLowerCase(), r.slug);
  }
  return terms.flatMap((t) => {
    const slug = slugs.get(nameOf(t).toLowerCase());
    const to = slug ? `/tag/${encodeURIComponent(slug)}` : `/search?q=${encodeURIComponent(t.name)}`;
    return t.oldPaths.map((from) => ({ from, to }));
  });
}

function absolute(url: string, site: ParsedSite): string {
  if (/^https?:\/\//i.test(url)) return url;
  try {
    return /^https?:\/\//.test(site.site) ? new URL(url, site.site + "/").toString() : url;
  } catch {
    return url;
  }
}

function imagesOf(post: ParsedPost, images: Record<string, string>): Record<string, string> {
  const body = post.html ?? post.markdown ?? "";
  const own: Record<string, string> = {};
  for (const [from, to] of Object.entries(images)) if (body.includes(from) || body.includes(from.replace(/&/g, "&amp;"))) own[from] = to;
  return own;
}

/** Images stored by an earlier run (by their source URL) whose media row is still there. */
async function loadKnownMedia(urls: string[], known: Map<string, string>): Promise<Map<string, string>> {
  const ids = urls.map((u) => known.get(u)).filter((id): id is string => Boolean(id));
  if (!ids.length) return new Map();
  const rows = await db.selectFrom("media").select(["id", "stored_path"]).where("id", "in", ids).execute();
  const path = new Map(rows.map((r) => [r.id, `/media/${r.stored_path}`]));
  const out = new Map<string, string>();
  for (const u of urls) {
    const p = path.get(known.get(u) ?? "");
    if (p) out.set(u, p);
  }
  return out;
}

/** Ends the import's worker (tests, scripts). */
export async function stopImportPool(): Promise<void> {
  await importPool?.stop();
  importPool = undefined;
}
