import { createHash } from "node:crypto";
import { readFileSync, statSync, mkdtempSync, rmSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import SQLite from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf } from "../database-of";
import { startServer, type RunningServer } from "../server-process";

// These tests count misses and hits: the store's warm-up (issue 30) would render pages before they ask.
const COLD = { PAGE_STORE_WARM: "0" };

// DESIGN §12 through the real production server: the page store in DATA_DIR/pages.db (restarts,
// size budget, encodings, keys, what never goes in, withdrawals and corrections, PAGE_CACHE=0).
const dataDir = mkdtempSync(join(tmpdir(), "news-store-"));
let server: RunningServer;
let token: string;
let cookie: string;

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** One request with exactly these headers (no automatic decompression, any Host) and this path, as written (`..` too). */
function raw(path: string, headers: Record<string, string> = {}, method = "GET"): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port: server.port, path, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

const decoded = (res: Raw) => {
  const encoding = res.headers["content-encoding"];
  const body = encoding === "br" ? brotliDecompressSync(res.body) : encoding === "gzip" ? gunzipSync(res.body) : res.body;
  return body.toString("utf8");
};

/** Rows of the site's database (news.db, or under test:pg its PostgreSQL database). */
const query = <T>(text: string, ...params: unknown[]) => rowsOf<T>(dataDir, text, ...params);

const published = (n: number) =>
  query<{ id: string; slug: string; title: string }>("select id, slug, title from articles where status = 'published' order by published_at desc limit ?", n);

/** Rows of the page store (read while the server runs: WAL lets a reader in). */
function stored<T>(sql: string, ...params: unknown[]): T[] {
  const sqlite = new SQLite(join(dataDir, "pages.db"), { readonly: true });
  try {
    return sqlite.prepare(sql).all(...params) as T[];
  } finally {
    sqlite.close();
  }
}

async function hitWithin(path: string, ms = 5_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const res = await raw(path);
    if (res.headers["x-cache"] === "HIT") return res;
    if (Date.now() > deadline) throw new Error(`${path} not re-rendered within ${ms} ms (X-Cache: ${res.headers["x-cache"]})`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const api = (path: string, init: RequestInit = {}) =>
  fetch(`${server.url}${path}`, { ...init, headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json", ...(init.headers as object) } });

async function signIn() {
  const login = await fetch(`${server.url}/api/auth/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ username: "admin", password: "admin123" }),
  });
  token = (await login.json()).access_token;
  const res = await fetch(`${server.url}/admin/login`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: server.url },
    body: new URLSearchParams({ username: "admin", password: "admin123", redirectTo: "" }),
  });
  cookie = res.headers.get("set-cookie")!.split(";")[0];
}

describe("page store (production server)", () => {
  beforeAll(async () => {
    server = await startServer({ dataDir, env: COLD });
    await signIn();
  });
  afterAll(async () => {
    await server?.stop("SIGKILL");
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("keeps pages in DATA_DIR/pages.db (0600): a page stored before a restart is a hit after it", async () => {
    const [a] = await published(1);
    const path = `/article/${a.slug}`;
    expect((await raw(path)).headers["x-cache"]).toBe("MISS");
    const stored = await raw(path);
    expect(stored.headers["x-cache"]).toBe("HIT");
    expect(statSync(join(dataDir, "pages.db")).mode & 0o777).toBe(0o600);
    expect(await server.stop("SIGTERM")).toBe(0);
    server = await startServer({ dataDir, env: COLD });
    await signIn();
    const after = await raw(path);
    expect(after.headers["x-cache"]).toBe("HIT");
    expect(after.headers.etag).toBe(stored.headers.etag);
    expect(decoded(after)).toContain(a.title);
  });

  it("a pages.db of an older layout is replaced at start, never read; hits are counted in page_state", async () => {
    const [a] = await published(1);
    const path = `/article/${a.slug}`;
    expect(await server.stop("SIGTERM")).toBe(0);
    // The first release's layout: bodies before the small columns, no page_state.
    rmSync(join(dataDir, "pages.db"), { force: true });
    const old = new SQLite(join(dataDir, "pages.db"));
    old.exec(`create table pages (key text primary key, status integer, headers text, gzip blob, br blob, etag text, tags text,
      size integer, last_used integer, hits integer, stale integer, stored_at integer) without rowid;
      create table meta (name text primary key, value text not null) without rowid;`);
    old.prepare("insert into pages values (?, 200, '[]', x'00', null, 'W/\"old\"', '', 1, 0, 0, 0, 0)").run(path);
    old.close();
    server = await startServer({ dataDir, env: COLD });
    await signIn();
    const first = await raw(path);
    expect(first.status).toBe(200);
    expect(first.headers["x-cache"]).toBe("MISS");
    expect(decoded(first)).toContain(a.title);
    expect((await raw(path)).headers["x-cache"]).toBe("HIT");
    const store = new SQLite(join(dataDir, "pages.db"), { readonly: true });
    try {
      expect(store.pragma("page_size", { simple: true })).toBe(16384);
      expect(store.prepare("select value from meta where name = 'format'").pluck().get()).toBe("3");
      // The store belongs to the browser assets and the server code it was rendered by.
      const server = createHash("sha1").update(readFileSync("build/remix/index.js")).digest("base64url").slice(0, 12);
      expect(store.prepare("select value from meta where name = 'build'").pluck().get()).toMatch(new RegExp(`^[\\w-]+\\.${server}$`));
      // The hit is counted in page_state (written within a second), not by rewriting the page's row.
      await new Promise((r) => setTimeout(r, 1_500));
      expect(store.prepare("select hits from page_state where key = ?").pluck().get(path)).toBeGreaterThanOrEqual(1);
    } finally {
      store.close();
    }
  });

  it("answers gzip, br and identity with the same page, Vary: Accept-Encoding, and 304 on a matching ETag", async () => {
    const path = `/article/${(await published(2))[1].slug}`;
    await raw(path);
    const gz = await raw(path, { "Accept-Encoding": "gzip" });
    const br = await raw(path, { "Accept-Encoding": "gzip, deflate, br" });
    const plain = await raw(path, { "Accept-Encoding": "identity" });
    const none = await raw(path);
    const noGzip = await raw(path, { "Accept-Encoding": "br;q=0, gzip;q=0" });
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(br.headers["content-encoding"]).toBe("br");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(noGzip.headers["content-encoding"]).toBeUndefined();
    for (const res of [gz, br, plain, none, noGzip]) {
      expect(res.status).toBe(200);
      expect(res.headers["x-cache"]).toBe("HIT");
      expect(res.headers.vary).toMatch(/Accept-Encoding/i);
      expect(Number(res.headers["content-length"])).toBe(res.body.length);
      expect(decoded(res)).toBe(decoded(plain));
    }
    expect(decoded(plain)).toContain("</html>");
    const again = await raw(path, { "If-None-Match": String(gz.headers.etag), "Accept-Encoding": "br" });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers.etag).toBe(gz.headers.etag);
  });

  it("tracking parameters, and any other the page does not read, share the page's key", async () => {
    const path = `/article/${(await published(3))[2].slug}`;
    const first = await raw(`${path}?utm_source=news&utm_medium=x`);
    expect(first.headers["x-cache"]).toBe("MISS");
    for (const variant of [path, `${path}?fbclid=abc`, `${path}?gclid=1&utm_campaign=z`, `${path}?other=1`]) {
      const res = await raw(variant);
      expect(res.headers["x-cache"], variant).toBe("HIT");
      expect(res.headers.etag).toBe(first.headers.etag);
    }
  });

  it("no request header changes what is stored for others (Host, X-Forwarded-*)", async () => {
    const path = `/article/${(await published(4))[3].slug}?poison`;
    const forged = await raw(path, { Host: "evil.example", "X-Forwarded-Host": "evil.example", "X-Forwarded-Proto": "https", "X-Forwarded-Port": "8443" });
    expect(forged.status).toBe(200);
    expect(forged.headers["x-cache"]).toBe("MISS");
    expect(decoded(forged)).not.toContain("evil.example");
    const normal = await raw(path);
    expect(normal.headers["x-cache"]).toBe("HIT");
    expect(decoded(normal)).not.toContain("evil.example");
    expect(decoded(normal)).not.toContain("8443");
  });

  it("signed-in requests bypass the store both ways", async () => {
    const path = `/article/${(await published(5))[4].slug}?staff`;
    // Rendered for staff first: nothing is stored.
    const staff = await raw(path, { Cookie: cookie });
    expect(staff.headers["x-cache"]).toBe("BYPASS");
    expect(staff.headers["cache-control"]).toBe("private, no-store");
    expect(String(staff.headers["content-security-policy"])).toMatch(/'nonce-/);
    expect((await raw(path)).headers["x-cache"]).toBe("MISS");
    // Stored for readers: staff still get their own render (with a fresh nonce), a bearer too.
    expect((await raw(path)).headers["x-cache"]).toBe("HIT");
    const again = await raw(path, { Cookie: cookie });
    expect(again.headers["x-cache"]).toBe("BYPASS");
    expect(decoded(again)).toMatch(/nonce="[^"]+"/);
    expect((await raw(path, { Authorization: `Bearer ${token}` })).headers["x-cache"]).toBe("BYPASS");
    // /admin and the private API never touch it.
    expect((await raw("/admin/login")).headers["x-cache"]).toBeUndefined();
    expect((await raw("/api/auth/me")).headers["x-cache"]).toBeUndefined();
  });

  it("an article's body is in its document once, stored or rendered for staff; its .data carries it for client navigation", async () => {
    const [{ id, slug }] = (await published(7)).slice(6);
    const [{ content_html }] = await query<{ content_html: string }>("select content_html from articles where id = ?", id);
    // A run of plain words from the body: it reads the same in the markup and in loader data.
    const words = content_html
      .match(/[\p{L} ]{40,}/u)![0]
      .trim()
      .slice(0, 40);
    const count = (text: string) => text.split(words).length - 1;
    for (const headers of [{}, {}, { Cookie: cookie }] as Record<string, string>[]) {
      const page = await raw(`/article/${slug}`, headers);
      expect(page.status).toBe(200);
      expect(count(decoded(page))).toBe(1);
      expect(decoded(page)).toContain(`<div id="article-body" class="article-body">${content_html}</div>`);
    }
    expect((await raw(`/article/${slug}`)).headers["x-cache"]).toBe("HIT");
    for (const headers of [{}, { Cookie: cookie }] as Record<string, string>[]) {
      const data = await raw(`/article/${slug}.data`, headers);
      expect(data.status).toBe(200);
      expect(count(decoded(data))).toBe(1);
    }
  });

  it("a withdrawal removes the article's pages at once; a correction is served within 5 s", async () => {
    const [a, b] = (await published(8)).slice(6);
    const pages = [`/article/${a.slug}`, `/article/${a.id}`, `/api/articles/slug/${a.slug}`, "/", "/rss.xml"];
    for (const path of pages) await raw(path);
    for (const path of pages) expect((await raw(path)).headers["x-cache"], path).toBe("HIT");

    // Unpublish: never served again from the store, not even once.
    expect((await api(`/api/articles/${a.id}/unpublish`, { method: "POST" })).status).toBe(200);
    expect((await raw(`/article/${a.slug}`)).status).toBe(404);
    expect((await raw(`/article/${a.id}`)).status).toBe(404);
    expect((await raw(`/api/articles/slug/${a.slug}`)).status).toBe(404);
    const home = await raw("/");
    expect(home.headers["x-cache"]).toBe("MISS");
    expect(decoded(home)).not.toContain(a.title);
    expect(decoded(await raw("/rss.xml"))).not.toContain(a.title);

    // A slug change: the old address is a redirect at once, the new one shows the article.
    const bPath = `/article/${b.slug}`;
    await raw(bPath);
    expect((await raw(bPath)).headers["x-cache"]).toBe("HIT");
    const current = await (await api(`/api/articles/${b.id}`)).json();
    const slug = `${b.slug}-new`;
    const title = `Виправлений заголовок ${Date.now()}`;
    const put = await api(`/api/articles/${b.id}`, {
      method: "PUT",
      body: JSON.stringify({ title, content: current.content, category_id: current.category_id, tags: current.tags, status: "published", slug }),
    });
    expect(put.status).toBe(200);
    expect((await raw(bPath)).status).toBe(301);
    expect(decoded(await raw(`/article/${slug}`))).toContain(title);

    // A correction (same slug): stale pages may be served until the re-render, within 5 s.
    const c = (await published(12))[11];
    const cPath = `/article/${c.slug}`;
    await raw(cPath);
    expect((await raw(cPath)).headers["x-cache"]).toBe("HIT");
    const cCurrent = await (await api(`/api/articles/${c.id}`)).json();
    const corrected = `Уточнений заголовок ${Date.now()}`;
    const fix = await api(`/api/articles/${c.id}`, {
      method: "PUT",
      body: JSON.stringify({
        title: corrected,
        content: cCurrent.content,
        category_id: cCurrent.category_id,
        tags: cCurrent.tags,
        status: "published",
        slug: c.slug,
      }),
    });
    expect(fix.status).toBe(200);
    const started = Date.now();
    const fresh = await hitWithin(cPath);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(decoded(fresh)).toContain(corrected);
  });

  // Issue 25 (SECURITY.md 'Withdrawal is total'): a probe stored the article under spellings the
  // tags did not know (`/ARTICLE/x`, `/%61rticle/x`, `/RSS.xml`, `/Category/x`, their `.data`), and
  // other articles' related rows kept its headline: all of them were served after it was withdrawn.
  const withdrawals = [
    ["unpublished", (id: string) => api(`/api/articles/${id}/unpublish`, { method: "POST" })],
    ["deleted", (id: string) => api(`/api/articles/${id}`, { method: "DELETE" })],
    [
      "rescheduled",
      (id: string) =>
        api(`/api/articles/${id}/publish`, { method: "POST", body: JSON.stringify({ publish_at: new Date(Date.now() + 86_400_000).toISOString() }) }),
    ],
  ] as const;
  withdrawals.forEach(([how, withdraw], round) => {
    it(`an article ${how} is gone at once from every stored page that showed it, whatever spelling stored it`, async () => {
      // The hero's category: the home's related tiles show its newest article.
      const home = await (await fetch(`${server.url}/api/homepage/public`)).json();
      const hero = home.blocks.find((b: { id: string }) => b.id === "hero").articles[0];
      const [{ id: categoryId }] = await query<{ id: string }>("select id from categories where slug = ?", hero.category_slug);
      const otherCategory = (await query<{ slug: string }>("select slug from categories where slug != ? order by slug limit 1", hero.category_slug))[0].slug;
      // An older article with tags, unseen by this file so far: the new one shares its tags, so its
      // related row shows the new one.
      const [b] = await query<{ id: string; slug: string }>(
        `select id, slug from articles where status = 'published' and id != ? and exists (select 1 from article_tags t where t.article_id = articles.id)
         order by published_at asc limit 1 offset ?`,
        hero.id,
        round,
      );
      const bTags = (await (await api(`/api/articles/${b.id}`)).json()).tags as string[];
      expect(bTags.length).toBeGreaterThan(0);
      const word = `квазарит${Date.now()}`;
      const title = `${word[0].toUpperCase()}${word.slice(1)} відкликана стаття`;
      const created = await api("/api/articles/", {
        method: "POST",
        body: JSON.stringify({ title, content: "Текст статті.", category_id: categoryId, tags: bTags, status: "published" }),
      });
      expect(created.status).toBe(201);
      const a = (await created.json()) as { id: string; slug: string };
      const own = [
        `/article/${a.slug}`,
        `/ARTICLE/${a.slug}`,
        `/Article/${a.slug}`,
        `/%61rticle/${a.slug}`,
        `/%61%72%74%69%63%6C%65/${a.slug}`,
        `/x/../article/${a.slug}`,
        `/article/${a.id}`,
        `/article/${a.slug}?ref=probe`,
        `/article/${a.slug}.data`,
        `/ARTICLE/${a.slug}.data`,
        `/api/articles/slug/${a.slug}`,
        `/API/articles/slug/${a.slug}`,
      ];
      const showing = [
        "/",
        "/_root.data",
        "/rss.xml",
        "/RSS.xml",
        "/%72ss.xml",
        "/rss.xml?utm_source=probe&x=1",
        `/category/${hero.category_slug}`,
        `/Category/${hero.category_slug}`,
        `/CATEGORY/${hero.category_slug}.data`,
        `/Category/${otherCategory}`,
        "/search",
        "/SEARCH",
        "/search.data",
        `/search?q=${encodeURIComponent(word)}`,
        `/Search?q=${encodeURIComponent(word)}&x=1`,
        // Another article's related row.
        `/article/${b.slug}`,
        `/Article/${b.slug}`,
        `/article/${b.slug}.data`,
        "/sitemap.xml",
        "/SITEMAP.xml",
        "/api/seo/sitemap.xml",
      ];
      const link = new RegExp(`/article/(${a.slug}|${a.id})(?![\\w-])`);
      const shows = (body: string) => body.includes(title) || link.test(body);
      // Every variant stored (a hit), showing the new article.
      const before = new Map<string, string>();
      for (const path of [...own, ...showing]) {
        await expect
          .poll(
            async () => {
              const res = await raw(path);
              before.set(path, String(res.headers.etag));
              return `${path} ${res.status} ${res.headers["x-cache"]} ${shows(decoded(res))}`;
            },
            { timeout: 5_000, interval: 100 },
          )
          .toBe(`${path} 200 HIT true`);
      }

      expect([200, 204]).toContain((await withdraw(a.id)).status);
      // Not once more from the store: no copy stored before is served (a spelling of a page met
      // again after its first request here is a hit on the copy rendered since), and none shows it.
      for (const path of own) {
        const res = await raw(path);
        expect(res.headers["x-cache"], path).toBe("MISS");
        expect(res.status, path).toBe(404);
        expect(decoded(res), path).not.toContain(title);
      }
      for (const path of showing) {
        const res = await raw(path);
        expect(res.status, path).toBe(200);
        expect(["MISS", "HIT"], path).toContain(res.headers["x-cache"]);
        expect(res.headers.etag, path).not.toBe(before.get(path));
        expect(shows(decoded(res)), path).toBe(false);
      }
    }, 60_000);
  });

  it("every stored page carries a tag for each article it links to (what the loaders report), sitemaps aside", async () => {
    const categories = await query<{ slug: string }>("select slug from categories");
    const articles = (await published(14)).slice(9);
    const paths = [
      "/",
      "/_root.data",
      "/api/homepage/public",
      "/rss.xml",
      "/search",
      "/search?q=%D0%BA%D0%BE%D1%81%D0%BC%D0%BE%D1%81",
      "/search?page=2",
      ...categories.flatMap((c) => [`/category/${c.slug}`, `/category/${c.slug}.data`]),
      ...articles.flatMap((a) => [`/article/${a.slug}`, `/article/${a.slug}.data`, `/api/articles/slug/${a.slug}`]),
    ];
    for (const path of paths) expect((await raw(path)).status, path).toBe(200);
    const refs = new Map<string, string>();
    for (const row of await query<{ id: string; slug: string }>("select id, slug from articles")) refs.set(row.slug, row.id).set(row.id, row.id);
    for (const row of await query<{ old_slug: string; article_id: string }>("select old_slug, article_id from slug_redirects"))
      refs.set(row.old_slug, row.article_id);
    const rows = stored<{ key: string; tags: string; body: Buffer }>("select p.key, p.tags, b.body from pages p join page_plain b on b.id = p.rowid");
    let checked = 0;
    for (const { key, tags, body } of rows) {
      if (key.startsWith("/sitemap.xml") || key.startsWith("/api/seo/sitemap.xml")) continue;
      const tagged = new Set(tags.split("\n"));
      for (const [, ref] of body.toString("utf8").matchAll(/\/article\/([^"'<>\s?#\\/]+)/g)) {
        const slug = decodeURIComponent(ref);
        const id = refs.get(slug);
        if (!id) continue;
        expect(tagged.has(`article:${id}`) || tagged.has(`article:${slug}`), `${key} links to ${slug} without its tag`).toBe(true);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(200);
  });

  it("1,000 random query strings on an article leave one stored copy; feeds and sitemaps ignore theirs; search keeps q and page", async () => {
    const [a] = (await published(14)).slice(13);
    const path = `/article/${a.slug}`;
    // Names a page reads elsewhere, Remix's own, tracking ones and made-up ones; values of any kind.
    const names = ["page", "q", "_data", "_routes", "index", "file", "utm_source", "fbclid", "x", "ref", "Q", "PAGE", "%71", "a[]", "%D0%BA%D0%BB%D1%8E%D1%87"];
    let seed = 25;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)];
    const value = () =>
      pick([String(Math.floor(random() * 1e6)), "", "%D0%BA%D0%BE%D1%81", "a+b", "%E0%A4%A", "routes%2F_public", "..%2F..", "x".repeat(300), "1,2,3"]);
    const queries = new Set<string>();
    while (queries.size < 1_000) {
      queries.add(Array.from({ length: 1 + Math.floor(random() * 4) }, () => `${random() < 0.2 ? `n${queries.size}` : pick(names)}=${value()}`).join("&"));
    }
    const statuses = new Map<number, number>();
    const list = [...queries];
    for (let i = 0; i < list.length; i += 20) {
      const batch = await Promise.all(list.slice(i, i + 20).map((q) => raw(`${path}?${q}`)));
      for (const res of batch) statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    }
    const copies = stored<{ key: string }>("select key from pages where key = ? or key like ?", path, `${path}?%`).map((r) => r.key);
    expect(copies.length).toBe(1);
    expect(copies).toEqual([path]);
    // `?_data=` (Remix's old data requests, which single fetch replaced) gets the page like any
    // other parameter it does not read.
    expect(Object.fromEntries(statuses)).toEqual({ 200: 1_000 });

    for (const feed of ["/rss.xml", "/sitemap.xml", "/api/seo/sitemap.xml", "/robots.txt"]) {
      for (const q of ["?x=1", "?page=2", "?utm_source=a&ref=b", "?_data=root"]) expect((await raw(`${feed}${q}`)).status, feed + q).toBe(200);
      expect(
        // (A sitemap's files are keys of their own: tests/integration/sitemap.test.ts.)
        stored<{ key: string }>("select key from pages where key like ? and key not like '%?file=%'", `${feed}%`).map((r) => r.key),
        feed,
      ).toEqual([feed]);
    }
    // Search reads q and page: one copy per (q, page), whatever else the query holds.
    const q = encodeURIComponent("космос");
    for (const search of [`/search?q=${q}&x=1`, `/search?utm_source=a&q=${q}`, `/search?page=2&q=${q}&ref=z`, `/search?q=${q}&page=2`, "/search?page=1&x=2"]) {
      expect((await raw(search)).status, search).toBe(200);
    }
    expect(stored<{ key: string }>("select key from pages where key like '/search%' order by key").map((r) => r.key)).toEqual(
      expect.arrayContaining([`/search?q=${q}`, `/search?q=${q}&page=2`, "/search"]),
    );
    expect(stored<{ n: number }>("select count(*) n from pages where key like '/search?q=%D0%BA%D0%BE%D1%81%D0%BC%D0%BE%D1%81%'")[0].n).toBe(2);
  }, 120_000);

  it("evicts the least recently used pages to stay within PAGE_CACHE_MB", async () => {
    await server.stop("SIGTERM");
    // 1 MB: about fifteen article pages (gzip + brotli + the plain body ≈ 60–70 KB each).
    server = await startServer({ dataDir, env: { ...COLD, PAGE_CACHE_MB: "1" } });
    const articles = await published(60);
    const first = `/article/${articles[0].slug}?lru`;
    await raw(first);
    expect((await raw(first)).headers["x-cache"]).toBe("HIT");
    expect(articles.length).toBeGreaterThan(20);
    for (const a of articles.slice(1)) await raw(`/article/${a.slug}?lru`);
    // The first page was used least recently: it went; the last one is still there.
    expect((await raw(`/article/${articles.at(-1)!.slug}?lru`)).headers["x-cache"]).toBe("HIT");
    expect((await raw(first)).headers["x-cache"]).toBe("MISS");
    await server.stop("SIGTERM");
    const store = new SQLite(join(dataDir, "pages.db"), { readonly: true });
    try {
      const { bytes, n } = store.prepare("select sum(size) bytes, count(*) n from pages").get() as { bytes: number; n: number };
      expect(bytes).toBeLessThanOrEqual(1024 * 1024);
      expect(n).toBeGreaterThan(3);
      expect(n).toBeLessThan(articles.length);
    } finally {
      store.close();
    }
  });

  it("PAGE_CACHE=0 stores and serves nothing, with the same headers", async () => {
    server = await startServer({ dataDir, env: { ...COLD, PAGE_CACHE: "0" } });
    await signIn();
    const path = `/article/${(await published(20))[19].slug}`;
    for (let i = 0; i < 2; i++) {
      const res = await raw(path, { "Accept-Encoding": "identity" });
      expect(res.status).toBe(200);
      expect(res.headers["x-cache"]).toBe("MISS");
      expect(res.headers["cache-control"]).toBe("public, max-age=0, s-maxage=60, stale-while-revalidate=300");
      expect(String(res.headers["content-security-policy"])).toMatch(/'sha256-/);
      expect(res.headers.etag).toMatch(/^W\/"/);
    }
  });
});
