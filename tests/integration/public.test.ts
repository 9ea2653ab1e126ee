import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { SEARCH_COUNTED, SEARCH_WINDOW, searchArticles } from "../../app/models/article-search.server";
import { insertArticle } from "../../app/models/article.server";
import { saveSettings } from "../../app/models/settings.server";
import { renderArticleHtml } from "../../app/utils/markdown.server";
import { db, writeTransaction } from "../../db/index";
import { migrated, request } from "../helpers";

// The public JSON doors and feeds through the real production build (npm run build first).

const categoryId = randomUUID();
const ids: Record<string, string> = {};

async function article(slug: string, over: Partial<Parameters<typeof insertArticle>[1]> = {}) {
  const content = over.content ?? `Текст статті **${slug}**.`;
  const html = await renderArticleHtml(content);
  ids[slug] = await writeTransaction((trx) =>
    insertArticle(trx, {
      slug,
      title: `Заголовок ${slug}`,
      subtitle: `Підзаголовок ${slug}`,
      content,
      contentHtml: html,
      categoryId,
      authorId: null,
      status: "published",
      publishedAt: new Date(Date.now() - Object.keys(ids).length * 60_000).toISOString(),
      tags: ["тест"],
      ...over,
    }),
  );
  return ids[slug];
}

describe("public site data", () => {
  beforeAll(async () => {
    await migrated();
    await db.insertInto("categories").values({ id: categoryId, name: "Космос і фізика", slug: "space-physics", description: "Про космос" }).execute();
  });

  it("GET /api/homepage/public serves the built-in sample while nothing is published", async () => {
    await article("chernetka", { status: "draft" });
    const res = await request("/api/homepage/public");
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.sample).toBe(true);
    expect(body.blocks.map((b: any) => b.id)).toEqual(["hero", "main", "sidebar", "trending", "featured"]);
    expect(body.blocks[0].articles).toHaveLength(1);
    expect(JSON.stringify(body)).not.toContain("chernetka");
  });

  it("GET /api/homepage/public: saved blocks first, empty blocks filled with the newest others, cards per SPEC §3", async () => {
    for (const slug of ["kosmos-1", "kosmos-2", "kosmos-3", "kosmos-4", "kosmos-5"]) await article(slug);
    await db.insertInto("homepage_blocks").values({ block_id: "hero", position: 0, article_id: ids["kosmos-4"] }).execute();
    // A draft in a block is never shown.
    await db.insertInto("homepage_blocks").values({ block_id: "main", position: 0, article_id: ids["chernetka"] }).execute();
    const body = await (await request("/api/homepage/public")).json();
    expect(body.sample).toBe(false);
    const block = (id: string) => body.blocks.find((b: any) => b.id === id).articles;
    expect(block("hero").map((c: any) => c.slug)).toEqual(["kosmos-4"]);
    const shown = body.blocks.flatMap((b: any) => b.articles.map((c: any) => c.slug));
    expect(shown).not.toContain("chernetka");
    expect(new Set(shown).size).toBe(shown.length);
    expect(block("main").map((c: any) => c.slug)).toEqual(["kosmos-1", "kosmos-2", "kosmos-3"]);
    expect(block("hero")[0]).toMatchObject({
      title: "Заголовок kosmos-4",
      category: "Космос і фізика",
      views: 0,
      author: "", // issue 31 item 4: no placeholder author
      image: "/images/fallback.jpg",
      url: "/article/kosmos-4",
    });
    expect(block("hero")[0].time).toMatch(/^\d{2}\.\d{2}\.\d{4}$/);
  });

  it("GET /api/articles/slug/{slug}: the article, 404 detail for unknown and unpublished, 301 for an old slug", async () => {
    const ok = await request("/api/articles/slug/kosmos-1");
    expect(ok.status).toBe(200);
    const body = await ok.json();
    expect(body).toMatchObject({
      slug: "kosmos-1",
      title: "Заголовок kosmos-1",
      tags: ["тест"],
      author: "", // issue 31 item 4: no placeholder author
      category: { name: "Космос і фізика" },
    });
    expect(body.content_html).toContain("<strong>kosmos-1</strong>");
    expect((await request(`/api/articles/slug/${ids["kosmos-1"]}`)).status).toBe(200);

    for (const slug of ["nope", "chernetka", "x".repeat(400), "%3Cscript%3E"]) {
      const res = await request(`/api/articles/slug/${slug}`);
      expect(res.status, slug).toBe(404);
      expect(await res.json()).toEqual({ detail: "Article not found" });
    }

    await db.insertInto("slug_redirects").values({ old_slug: "stara-adresa", article_id: ids["kosmos-2"] }).execute();
    const moved = await request("/api/articles/slug/stara-adresa", { redirect: "manual" });
    expect(moved.status).toBe(301);
    expect(moved.headers.get("Location")).toBe("/api/articles/slug/kosmos-2");
    expect((await request("/api/articles/slug/kosmos-1", { method: "POST" })).status).toBe(405);
  });

  it("the article page answers 301 from an old slug and 404 for unknown or unpublished ones", async () => {
    const moved = await request("/article/stara-adresa", { redirect: "manual" });
    expect(moved.status).toBe(301);
    expect(moved.headers.get("Location")).toBe("/article/kosmos-2");
    const missing = await request("/article/chernetka");
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain("Article not found");
    expect((await request("/something/else")).status).toBe(404);
  });

  it("search finds Ukrainian words by stem, ranks title matches first and survives hostile input", async () => {
    await article("mikrobiom", { title: "Мікробіом кишківника і настрій", content: "Бактерії впливають на сон." });
    await article("inshe", { title: "Інша новина", content: "Згадка про мікробіом наприкінці тексту." });
    // Issue 30: no prefix terms any more ("мікроб" was a prefix); the word itself finds both.
    const { hits, total } = await searchArticles({ q: "мікробіом", page: 1, perPage: 10 });
    expect(total).toBe(2);
    expect(hits[0].slug).toBe("mikrobiom");
    expect(hits[0].title_marked).toContain("\u0001Мікробіом\u0002");
    expect(hits[1].snippet).toContain("\u0001мікробіом\u0002");
    expect((await searchArticles({ q: "chernetka", page: 1, perPage: 10 })).total).toBe(0);
    for (const q of ['"', "NEAR(", "*", "title:x", "'); drop table articles;--", "\u0000", "а OR"]) {
      const res = await request(`/search?q=${encodeURIComponent(q)}`);
      expect(res.status, q).toBe(200);
    }
    const page = await (await request(`/search?q=${encodeURIComponent("мікробіом")}`)).text();
    expect(page).toContain("<mark>Мікробіом</mark>");
  });

  it("search of a word in more than SEARCH_COUNTED articles: title matches first from the whole archive, then the newest, drafts never", async () => {
    const base = Date.now() - 365 * 86_400_000;
    await writeTransaction(async (trx) => {
      for (let i = 0; i < SEARCH_WINDOW + 20; i++) {
        await insertArticle(trx, {
          slug: `masovo-${i}`,
          title: i === 5 || i === SEARCH_WINDOW ? "Всюдисущий заголовок" : `Масова ${i}`,
          content: `Слово всюдисущий у тексті номер ${i}.`,
          contentHtml: `<p>${i}</p>`,
          categoryId,
          authorId: null,
          status: i === SEARCH_WINDOW + 19 ? "draft" : "published",
          publishedAt: new Date(base + i * 60_000).toISOString(),
          tags: [],
        });
      }
    });
    // Issue 30: the count stops at SEARCH_COUNTED; both title matches come first, however old
    // (the 6th written too), newest first; then the newest body matches; never the draft.
    const first = await searchArticles({ q: "всюдисущого", page: 1, perPage: 10 });
    expect(first).toMatchObject({ total: SEARCH_COUNTED, capped: true });
    expect(first.hits.map((h) => h.slug).slice(0, 4)).toEqual([
      `masovo-${SEARCH_WINDOW}`,
      "masovo-5",
      `masovo-${SEARCH_WINDOW + 18}`,
      `masovo-${SEARCH_WINDOW + 17}`,
    ]);
    expect(first.hits.map((h) => h.slug)).not.toContain(`masovo-${SEARCH_WINDOW + 19}`);
    expect(first.hits[2].snippet).toContain("\u0001всюдисущий\u0002");
    const second = await searchArticles({ q: "всюдисущого", page: 2, perPage: 10 });
    expect(second.hits[0].slug).toBe(`masovo-${SEARCH_WINDOW + 10}`);
    expect(second.hits.map((h) => h.slug)).not.toContain(`masovo-${SEARCH_WINDOW}`);
    // A newer title match goes first.
    await writeTransaction((trx) =>
      insertArticle(trx, {
        slug: "vsiudysushchyi",
        title: "Всюдисущий у заголовку",
        content: "Текст.",
        contentHtml: "<p>Текст.</p>",
        categoryId,
        authorId: null,
        status: "published",
        publishedAt: new Date(base).toISOString(),
        tags: [],
      }),
    );
    const titled = await searchArticles({ q: "всюдисущий", page: 1, perPage: 10 });
    expect(titled.hits[0].slug).toBe("vsiudysushchyi");
    expect(titled.hits[0].title_marked).toBe("\u0001Всюдисущий\u0002 у заголовку");
    const page = await (await request(`/search?q=${encodeURIComponent("всюдисущі")}`)).text();
    expect(page).toContain(`Знайдено статей: понад ${SEARCH_COUNTED}`);
    expect((await searchArticles({ q: "всюдисущ", page: 101, perPage: 10 })).hits).toEqual([]);
  });

  it("RSS, sitemap (both addresses) and robots.txt follow the settings", async () => {
    const rss = await request("/rss.xml");
    expect(rss.headers.get("Content-Type")).toContain("application/rss+xml");
    const feed = await rss.text();
    expect(feed).toContain('<rss version="2.0"');
    expect(feed).toContain("<link>http://localhost:3000/article/kosmos-1</link>");
    expect(feed).not.toContain("chernetka");

    const sitemap = await (await request("/sitemap.xml")).text();
    expect(sitemap).toBe(await (await request("/api/seo/sitemap.xml")).text());
    expect(sitemap).toContain("<loc>http://localhost:3000/category/space-physics</loc>");
    expect(sitemap).toMatch(/<loc>http:\/\/localhost:3000\/article\/kosmos-1<\/loc><lastmod>\d{4}-\d{2}-\d{2}<\/lastmod>/);

    expect(await (await request("/robots.txt")).text()).toContain("Allow: /\n");
    await saveSettings("seo", { robots: "noindex, nofollow", canonical_url: "https://nauka.example.org" });
    // The build's copy of the settings cache hears of the save as another process would (on
    // PostgreSQL by a notification, within milliseconds; DESIGN §13 allows 2 s).
    await expect.poll(async () => (await request("/robots.txt")).text(), { timeout: 2_000 }).toContain("Disallow: /\n");
    const robots = await (await request("/robots.txt")).text();
    expect(robots).toContain("Disallow: /\n");
    expect(robots).toContain("Sitemap: https://nauka.example.org/sitemap.xml");
    const home = await (await request("/")).text();
    expect(home).toContain('<meta name="robots" content="noindex, nofollow"/>');
    expect(home).toContain('<link rel="canonical" href="https://nauka.example.org/"/>');
    await saveSettings("seo", {});
  });
});

describe("public JavaScript budget (DESIGN §9)", () => {
  it("a reader page loads at most 120 KB of gzipped JavaScript, without recharts or dnd-kit", async () => {
    const { readFileSync } = await import("node:fs");
    const { gzipSync } = await import("node:zlib");
    for (const path of ["/", "/article/kosmos-1", "/category/space-physics", "/search?q=космос"]) {
      const html = await (await request(path)).text();
      const files = new Set([
        ...[...html.matchAll(/<link rel="modulepreload" href="(\/build\/[^"]+\.js)"/g)].map((m) => m[1]),
        ...[...html.matchAll(/import[^;]*?"(\/build\/[^"]+\.js)"/g)].map((m) => m[1]),
      ]);
      expect(files.size, path).toBeGreaterThan(3);
      let total = 0;
      for (const file of files) {
        const js = readFileSync(`public${file}`);
        expect(js.toString(), `${path} ${file}`).not.toMatch(/recharts-|DndContext|useSortable/);
        total += gzipSync(js, { level: 9 }).length;
      }
      expect(total, path).toBeLessThan(120 * 1024);
    }
  });
});
