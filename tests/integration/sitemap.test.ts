import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import SQLite from "better-sqlite3";
import type { SaxesParser as Parser } from "saxes";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf, withDatabaseOf } from "../database-of";
import { startServer, type RunningServer } from "../server-process";

// These tests count misses and hits: the store's warm-up (issue 30) would render pages before they ask.
const COLD = { PAGE_STORE_WARM: "0" };

// Issue 25: the sitemap at a size over the protocol's 50,000 URLs (sitemaps.org 0.9), through the
// production server. At 60,000 articles /sitemap.xml was one 6.5 MB file of 60,034 URLs, ~0.8 s of
// CPU a request: now an index of files of at most 50,000 URLs each, every one well-formed XML.

// saxes (installed with jsdom, as in tests/unit/markdown.test.ts): a strict parser, any
// well-formedness error throws.
const { SaxesParser } = createRequire(import.meta.url)("saxes") as { SaxesParser: typeof Parser };
const NS = "http://www.sitemaps.org/schemas/sitemap/0.9";
const GENERATED = 60_000;

const dataDir = mkdtempSync(join(tmpdir(), "news-sitemap-"));
let server: RunningServer;

interface Parsed {
  root: string;
  ns: string;
  /** Children of the root: `url` or `sitemap` elements. */
  entries: number;
  locs: string[];
  lastmods: string[];
}

/** Parses a sitemap or sitemap index strictly: throws on any well-formedness error. */
function parse(xml: string): Parsed {
  const parser = new SaxesParser({ xmlns: true });
  const parsed: Parsed = { root: "", ns: "", entries: 0, locs: [], lastmods: [] };
  const open: string[] = [];
  let text = "";
  parser.on("error", (error) => {
    throw error;
  });
  parser.on("opentag", (tag) => {
    if (!open.length) [parsed.root, parsed.ns] = [tag.local, tag.uri];
    else expect(tag.uri).toBe(NS);
    if (open.length === 1) parsed.entries++;
    open.push(tag.local);
    text = "";
  });
  parser.on("text", (t) => (text += t));
  parser.on("closetag", (tag) => {
    if (tag.local === "loc") parsed.locs.push(text);
    if (tag.local === "lastmod") parsed.lastmods.push(text);
    open.pop();
  });
  parser.write(xml).close();
  return parsed;
}

/** Rows of the site's database (news.db, or under test:pg its PostgreSQL database). */
const query = <T>(text: string, ...params: unknown[]) => rowsOf<T>(dataDir, text, ...params);

async function get(path: string) {
  const res = await fetch(`${server.url}${path}`);
  return { status: res.status, type: res.headers.get("content-type") ?? "", xCache: res.headers.get("x-cache"), body: await res.text() };
}

let index: Parsed;
const files = new Map<string, Parsed>();

describe("sitemap past 50,000 URLs (production server)", () => {
  beforeAll(async () => {
    // The demo content first (migrations, seed), then 60,000 published articles written straight
    // into the database (sitemaps read slugs and dates only), and a few that must never show.
    server = await startServer({ dataDir, env: COLD });
    await server.stop();
    await withDatabaseOf(dataDir, async (db) => {
      const category = (await db.selectFrom("categories").select("id").limit(1).executeTakeFirstOrThrow()).id;
      const start = Date.UTC(2024, 0, 1);
      const rows: {
        id: string;
        slug: string;
        title: string;
        status: "published" | "draft" | "review" | "scheduled" | "archived";
        published_at: string;
        created_at: string;
        updated_at: string;
      }[] = [];
      for (let i = 0; i < GENERATED; i++) {
        const at = new Date(start + i * 60_000).toISOString();
        // Every seventh corrected a day after publication: its lastmod is the later day.
        const updated = i % 7 ? at : new Date(start + i * 60_000 + 86_400_000).toISOString();
        rows.push({
          id: `gen-${i}`,
          slug: `zghenerovana-stattia-${i}`,
          title: `Згенерована стаття ${i}`,
          status: "published" as const,
          published_at: at,
          created_at: at,
          updated_at: updated,
        });
      }
      for (const status of ["draft", "review", "scheduled", "archived"] as const) {
        const at = new Date(start).toISOString();
        rows.push({
          id: `hidden-${status}`,
          slug: `nevydyma-${status}`,
          title: `Невидима ${status}`,
          status,
          published_at: new Date(Date.now() + 86_400_000).toISOString(),
          created_at: at,
          updated_at: at,
        });
      }
      await db.transaction().execute(async (trx) => {
        for (let i = 0; i < rows.length; i += 1000) {
          await trx
            .insertInto("articles")
            .values(rows.slice(i, i + 1000).map((row) => ({ ...row, content: "", content_html: "<p>Текст.</p>", category_id: category })))
            .execute();
        }
      });
    });
    server = await startServer({ dataDir, env: COLD });
  }, 120_000);
  afterAll(async () => {
    await server?.stop("SIGKILL");
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("/sitemap.xml is an index of files of at most 50,000 URLs, all well-formed; together they list every published article once", async () => {
    const res = await get("/sitemap.xml");
    expect(res.status).toBe(200);
    expect(res.type).toMatch(/xml/);
    index = parse(res.body);
    expect(index.root).toBe("sitemapindex");
    expect(index.ns).toBe(NS);
    expect(index.entries).toBe(index.locs.length);
    // SPEC §7's address serves the same document.
    expect((await get("/api/seo/sitemap.xml")).body).toBe(res.body);

    const base = new URL(index.locs[0]).origin;
    const paths = index.locs.map((loc) => {
      // Every file at the root: a sitemap may list only URLs under its own folder.
      expect(loc).toMatch(new RegExp(`^${base}/sitemap-(pages|articles-[1-9]\\d*)\\.xml$`));
      return new URL(loc).pathname;
    });
    expect(paths[0]).toBe("/sitemap-pages.xml");
    expect(paths.slice(1)).toEqual(paths.slice(1).map((_, i) => `/sitemap-articles-${i + 1}.xml`));

    const published = (await query<{ slug: string }>("select slug from articles where status = 'published'")).map((r) => r.slug);
    expect(published.length).toBeGreaterThan(GENERATED);
    const listed: string[] = [];
    for (const path of paths) {
      const file = await get(path);
      expect(file.status, path).toBe(200);
      expect(file.type, path).toMatch(/xml/);
      expect(Buffer.byteLength(file.body), path).toBeLessThanOrEqual(50 * 1024 * 1024);
      const parsed = parse(file.body);
      files.set(path, parsed);
      expect(parsed.root, path).toBe("urlset");
      expect(parsed.ns, path).toBe(NS);
      expect(parsed.entries, path).toBe(parsed.locs.length);
      expect(parsed.entries, path).toBeGreaterThan(0);
      expect(parsed.entries, path).toBeLessThanOrEqual(50_000);
      for (const loc of parsed.locs) expect(loc.startsWith(`${base}/`), loc).toBe(true);
      for (const lastmod of parsed.lastmods) expect(lastmod).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      listed.push(...parsed.locs);
    }
    // More than one file of articles, all but the last of one size.
    const counts = paths.slice(1).map((path) => files.get(path)!.entries);
    expect(counts.length).toBeGreaterThanOrEqual(2);
    expect(new Set(counts.slice(0, -1)).size).toBe(1);
    expect(counts.at(-1)).toBeLessThanOrEqual(counts[0]);

    const articleLocs = listed.filter((loc) => loc.includes("/article/"));
    expect(articleLocs.length).toBe(new Set(articleLocs).size);
    expect(new Set(articleLocs)).toEqual(new Set(published.map((slug) => `${base}/article/${encodeURIComponent(slug)}`)));
    expect(listed.filter((loc) => loc.includes("nevydyma"))).toEqual([]);
    const pages = files.get("/sitemap-pages.xml")!.locs;
    expect(pages[0]).toBe(`${base}/`);
    expect(pages).toContain(`${base}/category/space-physics`);

    // A corrected article's lastmod is the day of its correction.
    const corrected = `${base}/article/zghenerovana-stattia-7`;
    const file = [...files.values()].find((f) => f.locs.includes(corrected))!;
    expect(file.lastmods[file.locs.indexOf(corrected)]).toBe(new Date(Date.UTC(2024, 0, 1) + 7 * 60_000 + 86_400_000).toISOString().slice(0, 10));
  }, 60_000);

  it("a file past the last, or a name no file has, is a 404; a file's name is matched as Remix matches routes", async () => {
    const last = index.locs.length - 1;
    for (const path of [
      `/sitemap-articles-${last + 1}.xml`,
      "/sitemap-articles-0.xml",
      "/sitemap-articles-01.xml",
      "/sitemap-other.xml",
      "/sitemap.xml?file=nope",
    ]) {
      expect((await get(path)).status, path).toBe(404);
    }
    const second = await get("/sitemap-articles-2.xml");
    for (const path of ["/Sitemap-Articles-2.XML", "/%73itemap-articles-2.xml", "/sitemap.xml?file=articles-2"]) {
      const res = await get(path);
      expect(res.status, path).toBe(200);
      expect(res.xCache, path).toBe("HIT");
      expect(res.body, path).toBe(second.body);
    }
  });

  it("query strings make no stored copies: the index and each file are kept once", async () => {
    for (const path of [
      "/sitemap.xml?x=1",
      "/sitemap.xml?page=2&utm_source=a",
      "/sitemap-articles-1.xml?page=3",
      "/sitemap-pages.xml?foo",
      "/api/seo/sitemap.xml?file=articles-2",
    ]) {
      const res = await get(path);
      expect(res.status, path).toBe(200);
      expect(res.xCache, path).toBe("HIT");
    }
    const store = new SQLite(join(dataDir, "pages.db"), { readonly: true });
    try {
      const keys = store.prepare("select key from pages where key like '/sitemap%' or key like '/api/seo/sitemap%' order by key").pluck().all();
      expect(keys).toEqual(
        ["/api/seo/sitemap.xml", "/sitemap.xml", "/sitemap.xml?file=pages", ...index.locs.slice(1).map((_, i) => `/sitemap.xml?file=articles-${i + 1}`)].sort(),
      );
    } finally {
      store.close();
    }
  });

  it("an article withdrawn leaves every sitemap file at once", async () => {
    const login = await fetch(`${server.url}/api/auth/login`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ username: "admin", password: "admin123" }),
    });
    const { access_token: token } = await login.json();
    const res = await fetch(`${server.url}/api/articles/gen-5/unpublish`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    });
    expect(res.status).toBe(200);
    const loc = files.get("/sitemap-articles-1.xml")!.locs.find((l) => l.endsWith("/article/zghenerovana-stattia-5"))!;
    expect(loc).toBeTruthy();
    for (const path of index.locs.map((l) => new URL(l).pathname)) {
      const file = await get(path);
      expect(file.xCache, path).toBe("MISS");
      expect(file.body, path).not.toContain(`${loc}<`);
    }
  });
});
