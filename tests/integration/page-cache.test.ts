import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import SQLite from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowOf } from "../database-of";
import { startServer, type RunningServer } from "../server-process";

// These tests count misses and hits: the store's warm-up (issue 30) would render pages before they ask.
const COLD = { PAGE_STORE_WARM: "0" };

// DESIGN §9 and §12 through the real production server: the page store of anonymous public
// responses, its headers, and page views counted before it in batches (more of the store in
// page-store.test.ts).
const dataDir = mkdtempSync(join(tmpdir(), "news-cache-"));
let server: RunningServer;
let cookie: string;
let token: string;
let article: { id: string; slug: string };

const BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36";
// A view is counted once per reader (address) and article per VIEW_REPEAT_MINUTES: each request
// here comes from a reader of its own (the server trusts X-Forwarded-For from this machine).
let readers = 0;
const nextAddress = () => {
  readers += 1;
  return `10.${(readers >> 16) & 255}.${(readers >> 8) & 255}.${readers & 255}`;
};
const reader = (init: RequestInit = {}) => ({
  ...init,
  headers: { "User-Agent": BROWSER, "X-Forwarded-For": nextAddress(), ...(init.headers as Record<string, string>) },
});
const get = (path: string, init: RequestInit = {}) => fetch(`${server.url}${path}`, reader(init));

const query = <T>(text: string, ...params: unknown[]) => rowOf<T>(dataDir, text, ...params);

/** When the page store last stored a path (its key: these paths are written as the store keys them). */
function storedAt(path: string): number {
  const sqlite = new SQLite(join(dataDir, "pages.db"), { readonly: true });
  try {
    return sqlite.prepare("select stored_at from pages where key = ?").pluck().get(path) as number;
  } finally {
    sqlite.close();
  }
}

const today = () => new Date().toISOString().slice(0, 10);
/** The article's running total and today's page_views counter of a path. */
async function views(path = `/article/${article.slug}`) {
  const total = (await query<{ views: number }>("select views from articles where id = ?", article.id)).views;
  const daily = (await query<{ views: number } | undefined>("select views from page_views where day = ? and path = ?", today(), path))?.views ?? 0;
  return { total, daily };
}

/** Waits (up to the 5 s DESIGN §12 allows a correction) until the path is a fresh store hit again. */
async function hitWithin(path: string, ms = 5_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const res = await fetch(`${server.url}${path}`, { headers: { "User-Agent": "" } });
    await res.arrayBuffer();
    if (res.headers.get("x-cache") === "HIT") return;
    if (Date.now() > deadline) throw new Error(`${path} not re-rendered within ${ms} ms (X-Cache: ${res.headers.get("x-cache")})`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Waits until the once-a-second batch has been written (the counts stop changing). */
async function settled() {
  await new Promise((r) => setTimeout(r, 1_600));
}

async function signIn() {
  const res = await fetch(`${server.url}/admin/login`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: server.url },
    body: new URLSearchParams({ username: "admin", password: "admin123", redirectTo: "" }),
  });
  expect(res.status).toBe(302);
  return res.headers.get("set-cookie")!.split(";")[0];
}

const saveSettings = (maintenance: boolean) =>
  fetch(`${server.url}/admin/settings`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: server.url, Cookie: cookie },
    body: new URLSearchParams({
      site_title: "Наука UA",
      site_description: "Опис",
      posts_per_page: "10",
      session_timeout: "60",
      max_login_attempts: "5",
      language: "uk-UA",
      robots: "index, follow",
      ...(maintenance ? { maintenance_mode: "on" } : {}),
    }),
  });

const trackView = (body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${server.url}/api/analytics/track-view`, {
    method: "POST",
    headers: { "User-Agent": BROWSER, "Content-Type": "application/json", "X-Forwarded-For": nextAddress(), ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });

const nonceOf = (res: Response) => res.headers.get("content-security-policy")!.match(/'nonce-([^']+)'/)![1];

describe("page cache and view counting (production server)", () => {
  beforeAll(async () => {
    server = await startServer({ dataDir, env: COLD });
    article = await query("select id, slug from articles where status = 'published' order by published_at desc limit 1");
    cookie = await signIn();
    const login = await fetch(`${server.url}/api/auth/login`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ username: "admin", password: "admin123" }),
    });
    token = (await login.json()).access_token;
  });
  afterAll(async () => {
    await server?.stop("SIGKILL");
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("serves a second anonymous request from the store, byte for byte, with a CSP listing its inline scripts' hashes", async () => {
    const path = `/article/${article.slug}?first`;
    const first = await get(path);
    expect(first.status).toBe(200);
    expect(first.headers.get("x-cache")).toBe("MISS");
    const firstHtml = await first.text();
    const second = await get(path);
    expect(second.headers.get("x-cache")).toBe("HIT");
    const secondHtml = await second.text();
    expect(second.headers.get("etag")).toBe(first.headers.get("etag"));
    expect(second.headers.get("content-type")).toContain("text/html");
    expect(second.headers.get("cache-control")).toBe("public, max-age=0, s-maxage=60, stale-while-revalidate=300");
    // No per-request rewriting: the same bytes and the same policy for every reader, MISS included.
    expect(secondHtml).toBe(firstHtml);
    const csp = second.headers.get("content-security-policy")!;
    expect(csp).toBe(first.headers.get("content-security-policy"));
    expect(csp).not.toContain("'nonce-");
    const inline = [...secondHtml.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)].filter(([, attrs]) => !/src=|application\/ld\+json/.test(attrs));
    expect(inline.length).toBeGreaterThan(0);
    for (const [, , content] of inline) expect(csp).toContain(`'sha256-${createHash("sha256").update(content).digest("base64")}'`);
    // A HEAD is answered from the same entry, without a body (here for a client without compression).
    const head = await get(path, { method: "HEAD", headers: { "Accept-Encoding": "identity" } });
    expect(head.headers.get("x-cache")).toBe("HIT");
    expect(Number(head.headers.get("content-length"))).toBe(Buffer.byteLength(secondHtml));
  });

  it("gives signed-in staff a fresh nonce on every page", async () => {
    const one = await get("/", { headers: { Cookie: cookie } });
    const two = await get("/", { headers: { Cookie: cookie } });
    expect(nonceOf(one)).not.toBe(nonceOf(two));
    expect(await two.text()).toContain(`nonce="${nonceOf(two)}"`);
  });

  it("compresses replayed responses for clients that accept it", async () => {
    await get("/?gzip");
    const res = await get("/?gzip", { headers: { "Accept-Encoding": "gzip" } });
    expect(res.headers.get("x-cache")).toBe("HIT");
    expect(res.headers.get("content-encoding")).toBe("gzip");
    expect(await res.text()).toContain("</html>");
  });

  it("answers If-None-Match with 304 and no CSP header (the stored copy keeps its own)", async () => {
    const first = await get("/?etag");
    const etag = first.headers.get("etag")!;
    expect(etag).toMatch(/^W\/"[\w-]+"$/);
    const again = await get("/?etag", { headers: { "If-None-Match": etag } });
    expect(again.status).toBe(304);
    expect(again.headers.get("content-security-policy")).toBeNull();
    expect(await again.text()).toBe("");
    expect((await get("/?etag", { headers: { "If-None-Match": 'W/"other"' } })).status).toBe(200);
  });

  it("lets signed-in staff bypass the cache, with a private policy", async () => {
    await get("/?staff");
    const staff = await get("/?staff", { headers: { Cookie: cookie } });
    expect(staff.status).toBe(200);
    expect(staff.headers.get("x-cache")).toBe("BYPASS");
    expect(staff.headers.get("cache-control")).toBe("private, no-store");
    const bearer = await get("/?staff", { headers: { Authorization: `Bearer ${token}` } });
    expect(bearer.headers.get("x-cache")).toBe("BYPASS");
  });

  it("never caches the admin, the private API or a 404", async () => {
    const login = await get("/admin/login");
    expect(login.headers.get("x-cache")).toBeNull();
    expect((await get("/api/auth/me")).headers.get("x-cache")).toBeNull();
    await get("/article/no-such-article");
    const missing = await get("/article/no-such-article");
    expect(missing.status).toBe(404);
    expect(missing.headers.get("x-cache")).not.toBe("HIT");
  });

  it("drops what it holds when settings are saved, and maintenance mode wins over it", async () => {
    await get("/?settings");
    expect((await get("/?settings")).headers.get("x-cache")).toBe("HIT");
    expect((await saveSettings(false)).status).toBe(200);
    // Settings show on every page: every stored page goes at once.
    expect((await get("/?settings")).headers.get("x-cache")).toBe("MISS");

    expect((await get("/?settings")).headers.get("x-cache")).toBe("HIT");
    try {
      expect((await saveSettings(true)).status).toBe(200);
      const closed = await get("/?settings");
      expect(closed.status).toBe(503);
      expect(closed.headers.get("x-cache")).toBeNull();
    } finally {
      expect((await saveSettings(false)).status).toBe(200);
    }
    expect((await get("/?settings")).status).toBe(200);
  });

  it("an article edit clears only what shows it: its pages, home, its old and new category, search, feeds", async () => {
    interface Row {
      id: string;
      slug: string;
      category_id: string;
      category: string;
    }
    const older = (n: number, not?: string) =>
      query<Row>(
        `select a.id, a.slug, a.category_id, c.slug as category from articles a join categories c on c.id = a.category_id
         where a.status = 'published' and c.slug != ? order by a.published_at desc limit 1 offset ?`,
        not ?? "",
        n,
      );
    // Both well outside the newest five that every category page shows in its "latest" column.
    const edited = await older(10);
    const unrelated = await older(12, edited.category);
    const target = await query<{ id: string; slug: string }>(
      "select id, slug from categories where slug not in (?, ?) limit 1",
      edited.category,
      unrelated.category,
    );
    const pages = {
      edited: `/article/${edited.slug}`,
      editedById: `/article/${edited.id}`,
      editedJson: `/api/articles/slug/${edited.slug}`,
      home: "/",
      homeJson: "/api/homepage/public",
      oldCategory: `/category/${edited.category}`,
      newCategory: `/category/${target.slug}`,
      search: "/search?q=%D0%BD%D0%B0%D1%83%D0%BA%D0%B0",
      rss: "/rss.xml",
      sitemap: "/sitemap.xml",
      unrelated: `/article/${unrelated.slug}`,
      unrelatedCategory: `/category/${unrelated.category}`,
    };
    const xCache = async (path: string) => {
      const res = await get(path);
      expect(res.status, path).toBe(200);
      await res.arrayBuffer();
      return res.headers.get("x-cache");
    };
    for (const path of Object.values(pages)) await xCache(path);
    for (const path of Object.values(pages)) expect(await xCache(path), path).toBe("HIT");

    const auth = { Authorization: `Bearer ${token}`, "Content-Type": "application/json" };
    const current = await (await fetch(`${server.url}/api/articles/${edited.id}`, { headers: auth })).json();
    const written = Date.now();
    const title = `Оновлений заголовок ${Date.now()}`;
    const put = await fetch(`${server.url}/api/articles/${edited.id}`, {
      method: "PUT",
      headers: auth,
      body: JSON.stringify({ title, content: current.content, category_id: target.id, tags: current.tags, status: "published", slug: current.slug }),
    });
    expect(put.status).toBe(200);

    // Corrections: what showed the article is stale (served until re-rendered in the background)
    // or re-rendered already; within 5 s every one of them is a fresh HIT with the new title.
    // (A hit is a copy stored since the write: the background re-render can be that quick.)
    for (const name of ["edited", "editedById", "editedJson", "home", "homeJson", "oldCategory", "newCategory", "search", "rss", "sitemap"] as const) {
      const state = await xCache(pages[name]);
      if (state === "HIT") expect(storedAt(pages[name]), name).toBeGreaterThanOrEqual(written);
      else expect(state, name).toBe("STALE");
    }
    for (const name of ["edited", "editedById", "editedJson", "home", "homeJson", "oldCategory", "newCategory", "search", "rss", "sitemap"] as const) {
      await hitWithin(pages[name]);
    }
    expect(await (await get(pages.edited)).text()).toContain(title);
    expect(await (await get(pages.newCategory)).text()).toContain(title);
    expect(await (await get(pages.oldCategory)).text()).not.toContain(title);
    // What never showed the edited article keeps its cached copy.
    expect(await xCache(pages.unrelated)).toBe("HIT");
    expect(await xCache(pages.unrelatedCategory)).toBe("HIT");

    // A new article is the newest: every category page lists it in its "latest" column.
    const createdAt = Date.now();
    const created = await fetch(`${server.url}/api/articles/`, {
      method: "POST",
      headers: auth,
      body: JSON.stringify({ title: `Найновіша ${Date.now()}`, content: "Текст.", category_id: target.id, tags: [], status: "published" }),
    });
    expect(created.status).toBe(201);
    // Stale, or already re-rendered since the write (the background re-render can be that quick).
    for (const path of [pages.unrelatedCategory, pages.home]) {
      const state = await xCache(path);
      if (state === "HIT") expect(storedAt(path), path).toBeGreaterThanOrEqual(createdAt);
      else expect(state, path).not.toBe("HIT");
    }
    expect(await xCache(pages.unrelated)).toBe("HIT");
    await hitWithin(pages.home);
    await hitWithin(pages.unrelatedCategory);

    // A draft saved by staff shows nowhere: nothing is cleared.
    const draft = await fetch(`${server.url}/api/articles/`, {
      method: "POST",
      headers: auth,
      body: JSON.stringify({ title: `Чернетка ${Date.now()}`, content: "Текст.", category_id: target.id, tags: [], status: "draft" }),
    });
    expect(draft.status).toBe(201);
    expect(await xCache(pages.home)).toBe("HIT");
    expect(await xCache(pages.unrelatedCategory)).toBe("HIT");
  });

  it("counts each article page served to a reader once, cache hits and client navigations included", async () => {
    await settled();
    const before = await views();
    const page = `/article/${article.slug}`;
    const results = [
      await get(page), // miss or hit
      await get(page), // hit
      await get(`/article/${article.id}`), // by id: counted on the article's path
      await get(`${page}.data`), // a client-side navigation (single fetch)
    ];
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(results[1].headers.get("x-cache")).toBe("HIT");
    // Not counted: crawlers, scripts without a User-Agent, prefetches, HEAD, signed-in staff.
    const notCounted = [
      fetch(`${server.url}${page}`, { headers: { "User-Agent": "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)" } }),
      fetch(`${server.url}${page}`, { headers: { "User-Agent": "" } }),
      get(page, { headers: { Purpose: "prefetch" } }),
      get(`${page}.data`, { headers: { "Sec-Purpose": "prefetch" } }),
      get(page, { headers: { "Sec-Purpose": "prefetch;prerender" } }),
      get(page, { method: "HEAD" }),
      get(page, { headers: { Cookie: cookie } }),
    ];
    for (const res of await Promise.all(notCounted)) expect(res.status).toBe(200);
    await settled();
    const after = await views();
    expect(after.total - before.total).toBe(4);
    expect(after.daily - before.daily).toBe(4);
  });

  it("counts the home and category pages on their paths, not the feeds or the API", async () => {
    await settled();
    const home = (await views("/")).daily;
    await get("/");
    await get("/_root.data");
    await get("/?utm_source=x");
    await get("/api/auth/me");
    await settled();
    expect((await views("/")).daily - home).toBe(3);
  });

  it("POST /api/analytics/track-view adds to the same batch; bots are answered but not counted", async () => {
    await settled();
    const before = await views();
    const res = await trackView({ article_id: article.id, referrer: "ignored", views: 1000 });
    expect(res.status).toBe(202);
    expect(await res.json()).toEqual({ article_id: article.id, counted: true });
    const bot = await trackView({ article_id: article.id }, { "User-Agent": "curl/8.5.0" });
    expect(bot.status).toBe(202);
    expect((await bot.json()).counted).toBe(false);
    await settled();
    expect((await views()).total - before.total).toBe(1);
    expect((await views()).daily - before.daily).toBe(1);
  });

  it("track-view refuses bad input with 404, 422, 400, 415 and 405, and counts nothing", async () => {
    await settled();
    const before = await views();
    const pageViews = (await query<{ n: number }>("select sum(views) n from page_views")).n;
    const unknown = await trackView({ article_id: "00000000-0000-0000-0000-000000000000" });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ detail: "Article not found" });
    const draft = await query<{ id: string }>("select id from articles where status = 'draft' limit 1");
    expect((await trackView({ article_id: draft.id })).status).toBe(404);
    for (const body of [{}, { article_id: 42 }, { article_id: "  " }, { article_id: "x".repeat(201) }]) {
      const bad = await trackView(body);
      expect(bad.status).toBe(422);
      expect((await bad.json()).errors).toHaveProperty("article_id");
    }
    expect((await trackView("{not json")).status).toBe(400);
    expect((await trackView(JSON.stringify({ article_id: article.id }), { "Content-Type": "text/plain" })).status).toBe(415);
    expect((await get("/api/analytics/track-view")).status).toBe(405);
    await settled();
    expect(await views()).toEqual(before);
    expect((await query<{ n: number }>("select sum(views) n from page_views")).n).toBe(pageViews);
  });

  it("writes the pending batch on SIGTERM before closing the database", async () => {
    await settled();
    const before = await views();
    for (let i = 0; i < 5; i++) expect((await get(`/article/${article.slug}`)).status).toBe(200);
    // Well inside the one-second batch window.
    expect(await server.stop("SIGTERM")).toBe(0);
    expect(server.output()).not.toContain("Page views lost");
    expect((await views()).total - before.total).toBe(5);

    server = await startServer({ dataDir, env: COLD });
    const res = await fetch(`${server.url}/api/analytics/articles/${article.id}?days=1`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(200);
    const stats = await res.json();
    expect(stats.total_views).toBe(before.total + 5);
    expect(stats.period_views).toBe(before.daily + 5);
  });
});
