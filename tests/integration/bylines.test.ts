import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SaxesParser as Parser } from "saxes";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf } from "../database-of";
import { startServer, type RunningServer } from "../server-process";
import { apiSend, apiSignIn, firstCategoryId, formSignIn, type Staff } from "../staff-client";

// Issue 29 items 1, 2 and 6 (DESIGN §16, docs/decisions/028) through the production server and its
// page store: bylines in every article shape and page, guest contributors, author and tag pages with
// their feeds, their invalidation on a save, the Google News sitemap's 48-hour window and XML, and
// the per-article noindex switch in every sitemap and feed.

const { SaxesParser } = createRequire(import.meta.url)("saxes") as { SaxesParser: typeof Parser };
const SITEMAP_NS = "http://www.sitemaps.org/schemas/sitemap/0.9";
const NEWS_NS = "http://www.google.com/schemas/sitemap-news/0.9";

const dataDir = mkdtempSync(join(tmpdir(), "news-bylines-"));
let server: RunningServer;
let admin: Staff;
let reporter: Staff;
let form: Staff;
let category: string;
const ids = { admin: "", editor: "", reporter: "", guest: "", guestSlug: "" };

const query = <T>(text: string, ...params: unknown[]) => rowsOf<T>(dataDir, text, ...params);

async function get(path: string) {
  const res = await fetch(`${server.url}${path}`);
  return { status: res.status, xCache: res.headers.get("x-cache"), type: res.headers.get("content-type") ?? "", body: await res.text() };
}

/** Polls a public path until its body passes `test` (a stale stored page is re-rendered in the background). */
async function eventually(path: string, test: (body: string) => boolean, ms = 6_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const res = await get(path);
    if (test(res.body)) return res;
    if (Date.now() > deadline) throw new Error(`${path} did not change within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

/** Stored once: the second request is a hit. */
async function stored(path: string) {
  await get(path);
  const deadline = Date.now() + 5_000;
  for (;;) {
    const res = await get(path);
    if (res.xCache === "HIT") return res;
    if (Date.now() > deadline) throw new Error(`${path} was not stored (X-Cache: ${res.xCache})`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Parses XML strictly (throws on any well-formedness error) into its elements: namespace, name and text. */
function parseXml(xml: string) {
  const parser = new SaxesParser({ xmlns: true });
  const elements: { uri: string; local: string; text: string; depth: number }[] = [];
  const open: { uri: string; local: string; text: string; depth: number }[] = [];
  parser.on("error", (error) => {
    throw error;
  });
  parser.on("opentag", (tag) => open.push({ uri: tag.uri, local: tag.local, text: "", depth: open.length }));
  parser.on("text", (t) => {
    if (open.length) open[open.length - 1].text += t;
  });
  parser.on("closetag", () => elements.push(open.pop()!));
  parser.write(xml).close();
  return elements;
}

async function createArticle(staff: Staff, body: Record<string, unknown>) {
  const res = await apiSend(staff, "POST", "/api/articles/", { content: "Текст статті про науку.", category_id: category, ...body });
  expect(res.status, JSON.stringify(res.json)).toBe(201);
  return res.json as { id: string; slug: string; version: number; authors: { id: string; kind: string; name: string; slug: string; url: string }[] };
}

beforeAll(async () => {
  server = await startServer({ dataDir });
  [admin, reporter, form] = await Promise.all([
    apiSignIn(server.url, "admin", "admin123"),
    apiSignIn(server.url, "reporter", "reporter123"),
    formSignIn(server.url, "editor", "editor123"),
  ]);
  category = await firstCategoryId(admin);
  for (const u of await query<{ id: string; username: string }>("select id, username from users")) {
    if (u.username in ids) ids[u.username as "admin" | "editor" | "reporter"] = u.id;
  }
  // A guest contributor made on the editors' screen (a plain form post, as without JavaScript).
  const res = await fetch(`${server.url}/admin/authors`, {
    method: "POST",
    headers: form.auth,
    body: new URLSearchParams({
      intent: "create",
      name: "Ірина Гостьова",
      bio: "Астрофізикиня, пише для нас про телескопи.",
      photo: "",
      links: "Сайт | https://example.org/iryna",
    }),
    redirect: "manual",
  });
  expect(res.status).toBe(302);
  const [guest] = await query<{ id: string; slug: string }>("select id, slug from guest_authors");
  Object.assign(ids, { guest: guest.id, guestSlug: guest.slug });
  expect(guest.slug).toBe("iryna-hostova");
}, 120_000);

afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("bylines", () => {
  it("every article's author became its first byline (the migration's backfill)", async () => {
    const missing = await query<{ id: string }>(
      `select a.id from articles a where a.author_id is not null and not exists
        (select 1 from article_authors b where b.article_id = a.id and b.position = 0 and b.user_id = a.author_id)`,
    );
    expect(missing).toEqual([]);
    const [{ n }] = await query<{ n: number }>("select count(*) as n from article_authors");
    expect(Number(n)).toBeGreaterThan(0);
  });

  it("a staff and a guest author show in every article shape, public and newsroom; `author` stays the first", async () => {
    const a = await createArticle(admin, {
      title: "Спільна стаття з гостем",
      status: "published",
      tags: ["зорі", "телескопи"],
      authors: [
        { kind: "staff", id: ids.admin },
        { kind: "guest", id: ids.guest },
      ],
    });
    expect(a.authors.map((b) => [b.kind, b.id, b.name, b.url])).toEqual([
      ["staff", ids.admin, "Олена Коваленко", "/author/olena-kovalenko"],
      ["guest", ids.guest, "Ірина Гостьова", `/author/${ids.guestSlug}`],
    ]);
    const one = await apiSend(admin, "GET", `/api/articles/${a.id}`);
    expect(one.json.author).toMatchObject({ id: ids.admin, username: "admin", profile: { name: "Олена Коваленко" } });
    expect(one.json.authors).toEqual(a.authors);
    const adminList = await apiSend(admin, "GET", "/api/articles/admin?limit=5");
    expect(adminList.json.data.find((x: { id: string }) => x.id === a.id).authors).toEqual(a.authors);
    const publicList = await (await fetch(`${server.url}/api/articles/?limit=5`)).json();
    const listed = publicList.data.find((x: { id: string }) => x.id === a.id);
    expect(listed.author).toEqual({ username: "admin", profile: { name: "Олена Коваленко" } });
    // Public shapes carry no account ids.
    expect(listed.authors).toEqual(a.authors.map(({ id: _id, ...b }) => b));
    const bySlug = await (await fetch(`${server.url}/api/articles/slug/${a.slug}`)).json();
    expect(bySlug.author).toBe("Олена Коваленко");
    expect(bySlug.authors.map((b: { name: string }) => b.name)).toEqual(["Олена Коваленко", "Ірина Гостьова"]);
    const home = await (await fetch(`${server.url}/api/homepage/public`)).json();
    // (the saved layout names the home's articles: each card's first byline is its `author`)
    const cards = (home.blocks as { articles: { id: string; author: string; authors: { name: string; url: string }[] }[] }[]).flatMap((b) => b.articles);
    expect(cards.length).toBeGreaterThan(0);
    for (const card of cards) {
      expect(card.authors[0].name).toBe(card.author);
      expect(card.authors[0].url).toMatch(/^\/author\/[a-z0-9-]+$/);
    }

    // The article page names both, each linked to their page, and its tags link to their pages.
    const page = await get(`/article/${a.slug}`);
    expect(page.body).toContain(`href="/author/olena-kovalenko">Олена Коваленко</a>`);
    expect(page.body).toContain(`href="/author/${ids.guestSlug}">Ірина Гостьова</a>`);
    expect(page.body).toMatch(/href="\/tag\/zori">#(<!-- -->)?зорі<\/a>/);
    // The category page's cards name both too.
    const listing = await get("/search");
    expect(listing.body).toContain(`href="/author/${ids.guestSlug}">Ірина Гостьова</a>`);
  });

  it("refuses bad bylines with 422 (and a reporter giving their article away with 403), changing nothing", async () => {
    const a = await createArticle(reporter, { title: "Чернетка репортерки", status: "draft" });
    expect(a.authors.map((b) => b.id)).toEqual([ids.reporter]);
    const base = { title: "Чернетка репортерки", content: "Текст статті про науку.", category_id: category, version: a.version };
    const cases: [unknown, number][] = [
      [[], 422],
      [[{ kind: "guest", id: ids.guest }], 422],
      [
        [
          { kind: "staff", id: ids.reporter },
          { kind: "staff", id: "no-such-user" },
        ],
        422,
      ],
      [[{ kind: "robot", id: ids.admin }], 422],
      ["admin", 422],
      [
        [
          { kind: "staff", id: ids.reporter },
          { kind: "staff", id: ids.reporter },
        ],
        422,
      ],
      [[{ kind: "staff", id: ids.editor }], 403],
    ];
    for (const [authors, status] of cases) {
      const res = await apiSend(reporter, "PUT", `/api/articles/${a.id}`, { ...base, authors });
      expect(res.status, JSON.stringify(authors)).toBe(status);
      expect(typeof res.json.detail).toBe("string");
    }
    // A reporter adds co-authors to their own article, staying first.
    const ok = await apiSend(reporter, "PUT", `/api/articles/${a.id}`, {
      ...base,
      authors: [
        { kind: "staff", id: ids.reporter },
        { kind: "staff", id: ids.editor },
        { kind: "guest", id: ids.guest },
      ],
    });
    expect(ok.status).toBe(200);
    expect(ok.json.authors.map((b: { name: string }) => b.name)).toEqual(["Марія Шевчук", "Андрій Мельник", "Ірина Гостьова"]);
    expect(ok.json.author.id).toBe(ids.reporter);
    // The save's audit entry names the byline change.
    const audits = await query<{ details: string }>("select details from audit_log where object_id = ? and action = 'article.update'", a.id);
    expect(audits.some((e) => JSON.parse(e.details).fields.includes("authors"))).toBe(true);
    // The co-author gains no rights: another reporter rule is unchanged (the owner is still the reporter).
    const [row] = await query<{ author_id: string }>("select author_id from articles where id = ?", a.id);
    expect(row.author_id).toBe(ids.reporter);
    // An editor may put another staff member first, who then owns the article.
    const editor = await apiSignIn(server.url, "editor", "editor123");
    const moved = await apiSend(editor, "PUT", `/api/articles/${a.id}`, { ...base, version: ok.json.version, authors: [{ kind: "staff", id: ids.editor }] });
    expect(moved.status).toBe(200);
    expect(moved.json.author.username).toBe("editor");
  });

  it("a guest's author page and feed: photo-less profile, bio, role, links, Person JSON-LD, 404 for unknown", async () => {
    const page = await get(`/author/${ids.guestSlug}`);
    expect(page.status).toBe(200);
    expect(page.body).toContain("Ірина Гостьова");
    expect(page.body).toContain("Запрошений автор");
    expect(page.body).toContain("Астрофізикиня");
    expect(page.body).toContain('href="https://example.org/iryna"');
    expect(page.body).toContain("Спільна стаття з гостем");
    const ld = JSON.parse(/<script type="application\/ld\+json">(.*?)<\/script>/s.exec(page.body)![1]);
    expect(ld).toMatchObject({ "@type": "Person", name: "Ірина Гостьова", jobTitle: "Запрошений автор", sameAs: ["https://example.org/iryna"] });
    const feed = await get(`/author/${ids.guestSlug}/rss.xml`);
    expect(feed.status).toBe(200);
    expect(feed.type).toContain("application/rss+xml");
    const items = parseXml(feed.body).filter((e) => e.local === "title" && e.depth === 3);
    expect(items.map((e) => e.text)).toEqual(["Спільна стаття з гостем"]);
    expect((await get("/author/nikoho-nemaie")).status).toBe(404);
    expect((await get("/author/nikoho-nemaie/rss.xml")).status).toBe(404);
    // A colleague who has published nothing has no page.
    const [reporterSlug] = await query<{ slug: string }>("select slug from users where username = 'reporter'");
    const [published] = await query<{ n: number }>(
      "select count(*) as n from article_authors b join articles a on a.id = b.article_id where b.user_id = ? and a.status = 'published'",
      ids.reporter,
    );
    expect((await get(`/author/${reporterSlug.slug}`)).status).toBe(Number(published.n) > 0 ? 200 : 404);
  });

  it("tag pages are paged and have a feed; unknown tags are 404", async () => {
    const page = await get("/tag/zori");
    expect(page.status).toBe(200);
    expect(page.body).toContain("#<!-- -->зорі");
    expect(page.body).toContain("Спільна стаття з гостем");
    const feed = parseXml((await get("/tag/zori/rss.xml")).body);
    expect(feed.filter((e) => e.local === "title" && e.depth === 3).map((e) => e.text)).toEqual(["Спільна стаття з гостем"]);
    expect((await get("/tag/zori?page=2")).status).toBe(404);
    expect((await get("/tag/nemaie-takoho")).status).toBe(404);
  });

  it("author and tag pages are stored and a save that changes what they list re-renders them", async () => {
    await stored(`/author/${ids.guestSlug}`);
    await stored("/tag/teleskopy");
    await stored(`/author/${ids.guestSlug}/rss.xml`);
    // A new article by the guest with the tag: neither page showed it, so only their own tags can reach them.
    await createArticle(admin, {
      title: "Друга стаття гості",
      status: "published",
      tags: ["телескопи"],
      authors: [
        { kind: "staff", id: ids.admin },
        { kind: "guest", id: ids.guest },
      ],
    });
    await eventually(`/author/${ids.guestSlug}`, (b) => b.includes("Друга стаття гості"));
    await eventually("/tag/teleskopy", (b) => b.includes("Друга стаття гості"));
    await eventually(`/author/${ids.guestSlug}/rss.xml`, (b) => b.includes("Друга стаття гості"));
    // Editing the guest renames them on every stored page that shows their articles.
    await stored("/");
    const res = await fetch(`${server.url}/admin/authors`, {
      method: "POST",
      headers: form.auth,
      body: new URLSearchParams({ intent: "update", id: ids.guest, name: "Ірина Нова", slug: ids.guestSlug, bio: "", photo: "", links: "" }),
      redirect: "manual",
    });
    expect(res.status).toBe(302);
    await eventually(`/author/${ids.guestSlug}`, (b) => b.includes("Ірина Нова") && !b.includes("Астрофізикиня"));
    await eventually("/", (b) => b.includes("Ірина Нова"));
  });

  it("author and tag pages are in the sitemap", async () => {
    const locs = parseXml((await get("/sitemap.xml")).body)
      .filter((e) => e.local === "loc")
      .map((e) => new URL(e.text).pathname);
    expect(locs).toContain(`/author/${ids.guestSlug}`);
    expect(locs).toContain("/author/olena-kovalenko");
    expect(locs).toContain("/tag/zori");
  });
});

describe("news sitemap and noindex", () => {
  it("holds exactly the indexable articles of the last 48 hours, as valid Google News XML, and robots.txt names it", async () => {
    const inside = await createArticle(admin, { title: "Новина 47 годин тому", status: "published" });
    const outside = await createArticle(admin, { title: "Новина 49 годин тому", status: "published" });
    const hidden = await createArticle(admin, { title: "Свіжа новина без індексації", status: "published", noindex: true });
    const hours = (h: number) => new Date(Date.now() - h * 3600_000).toISOString();
    await query("update articles set published_at = ? where id = ?", hours(47), inside.id);
    await query("update articles set published_at = ? where id = ?", hours(49), outside.id);
    const res = await get("/news-sitemap.xml");
    expect(res.status).toBe(200);
    expect(res.type).toMatch(/xml/);
    const elements = parseXml(res.body);
    const root = elements.at(-1)!;
    expect([root.local, root.uri]).toEqual(["urlset", SITEMAP_NS]);
    for (const e of elements.filter(
      (x) => x.local.startsWith("publication") || x.local === "news" || x.local === "title" || x.local === "name" || x.local === "language",
    )) {
      expect(e.uri).toBe(NEWS_NS);
    }
    const titles = elements.filter((e) => e.local === "title").map((e) => e.text);
    expect(titles).toContain("Новина 47 годин тому");
    expect(titles).not.toContain("Новина 49 годин тому");
    expect(titles).not.toContain("Свіжа новина без індексації");
    expect(elements.filter((e) => e.local === "language").every((e) => e.text === "uk")).toBe(true);
    expect(elements.filter((e) => e.local === "name").every((e) => e.text === "Наука UA")).toBe(true);
    const dates = elements.filter((e) => e.local === "publication_date").map((e) => Date.parse(e.text));
    expect(dates.length).toBe(elements.filter((e) => e.local === "url").length);
    for (const d of dates) expect(Date.now() - d).toBeLessThanOrEqual(48 * 3600_000);
    // Every URL is a published article.
    const [{ n }] = await query<{ n: number }>(
      "select count(*) as n from articles where status = 'published' and noindex = 0 and published_at >= ?",
      hours(48),
    );
    expect(elements.filter((e) => e.local === "url").length).toBe(Math.min(Number(n), 1000));
    expect((await get("/robots.txt")).body).toMatch(/^Sitemap: http:\/\/[^/]+\/news-sitemap\.xml$/m);
    void hidden;
  });

  it("a noindex article says so in its robots meta and is in no sitemap or feed, yet still listed on the site", async () => {
    const a = await createArticle(admin, {
      title: "Стаття для своїх",
      status: "published",
      tags: ["зорі"],
      authors: [
        { kind: "staff", id: ids.admin },
        { kind: "guest", id: ids.guest },
      ],
    });
    const feeds = ["/sitemap.xml", "/news-sitemap.xml", "/rss.xml", `/author/${ids.guestSlug}/rss.xml`, "/author/olena-kovalenko/rss.xml", "/tag/zori/rss.xml"];
    for (const path of feeds) await eventually(path, (b) => b.includes(a.slug) || b.includes("Стаття для своїх"));
    expect((await get(`/article/${a.slug}`)).body).not.toMatch(/<meta name="robots" content="noindex/);
    const one = await apiSend(admin, "GET", `/api/articles/${a.id}`);
    const put = await apiSend(admin, "PUT", `/api/articles/${a.id}`, {
      title: "Стаття для своїх",
      content: "Текст статті про науку.",
      category_id: category,
      status: "published",
      tags: ["зорі"],
      version: one.json.version,
      noindex: true,
    });
    expect(put.status).toBe(200);
    expect(put.json.noindex).toBe(true);
    // The other bylines stay as they were when `authors` is left out.
    expect(put.json.authors.length).toBe(2);
    for (const path of feeds) await eventually(path, (b) => !b.includes(a.slug) && !b.includes("Стаття для своїх"));
    await eventually(`/article/${a.slug}`, (b) => /<meta name="robots" content="noindex, follow"/.test(b));
    expect((await get("/tag/zori")).body).toContain("Стаття для своїх");
    // A bad value is refused.
    const bad = await apiSend(admin, "PUT", `/api/articles/${a.id}`, { title: "x", content: "y", category_id: category, noindex: "maybe" });
    expect(bad.status).toBe(422);
  });
});
