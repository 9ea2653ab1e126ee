import { createHash } from "node:crypto";
import { readFileSync, statSync, mkdtempSync, rmSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import SQLite from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../server-process";

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

/** One request with exactly these headers (no automatic decompression, any Host). */
function raw(path: string, headers: Record<string, string> = {}, method = "GET"): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${server.url}${path}`, { method, headers }, (res) => {
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

function query<T>(sql: string, ...params: unknown[]): T[] {
  const sqlite = new SQLite(join(dataDir, "news.db"), { readonly: true });
  try {
    return sqlite.prepare(sql).all(...params) as T[];
  } finally {
    sqlite.close();
  }
}

const published = (n: number) =>
  query<{ id: string; slug: string; title: string }>("select id, slug, title from articles where status = 'published' order by published_at desc limit ?", n);

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
    server = await startServer({ dataDir });
    await signIn();
  });
  afterAll(async () => {
    await server?.stop("SIGKILL");
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("keeps pages in DATA_DIR/pages.db (0600): a page stored before a restart is a hit after it", async () => {
    const [a] = published(1);
    const path = `/article/${a.slug}`;
    expect((await raw(path)).headers["x-cache"]).toBe("MISS");
    const stored = await raw(path);
    expect(stored.headers["x-cache"]).toBe("HIT");
    expect(statSync(join(dataDir, "pages.db")).mode & 0o777).toBe(0o600);
    expect(await server.stop("SIGTERM")).toBe(0);
    server = await startServer({ dataDir });
    await signIn();
    const after = await raw(path);
    expect(after.headers["x-cache"]).toBe("HIT");
    expect(after.headers.etag).toBe(stored.headers.etag);
    expect(decoded(after)).toContain(a.title);
  });

  it("a pages.db of an older layout is replaced at start, never read; hits are counted in page_state", async () => {
    const [a] = published(1);
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
    server = await startServer({ dataDir });
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
    const path = `/article/${published(2)[1].slug}`;
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

  it("tracking parameters share the page's key; other queries do not", async () => {
    const path = `/article/${published(3)[2].slug}`;
    const first = await raw(`${path}?utm_source=news&utm_medium=x`);
    expect(first.headers["x-cache"]).toBe("MISS");
    for (const variant of [path, `${path}?fbclid=abc`, `${path}?gclid=1&utm_campaign=z`]) {
      const res = await raw(variant);
      expect(res.headers["x-cache"], variant).toBe("HIT");
      expect(res.headers.etag).toBe(first.headers.etag);
    }
    expect((await raw(`${path}?other=1`)).headers["x-cache"]).toBe("MISS");
  });

  it("no request header changes what is stored for others (Host, X-Forwarded-*)", async () => {
    const path = `/article/${published(4)[3].slug}?poison`;
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
    const path = `/article/${published(5)[4].slug}?staff`;
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
    const [{ id, slug }] = published(7).slice(6);
    const [{ content_html }] = query<{ content_html: string }>("select content_html from articles where id = ?", id);
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
    const [a, b] = published(8).slice(6);
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
    const c = published(12)[11];
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

  it("evicts the least recently used pages to stay within PAGE_CACHE_MB", async () => {
    await server.stop("SIGTERM");
    // 1 MB: about fifteen article pages (gzip + brotli + the plain body ≈ 60–70 KB each).
    server = await startServer({ dataDir, env: { PAGE_CACHE_MB: "1" } });
    const articles = published(60);
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
    server = await startServer({ dataDir, env: { PAGE_CACHE: "0" } });
    await signIn();
    const path = `/article/${published(20)[19].slug}`;
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
