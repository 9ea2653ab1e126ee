import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowOf, rowsOf } from "../database-of";
import { startServer, type RunningServer } from "../server-process";

// Issue 15 (DESIGN §11) through the real production server: preview links show a draft to someone
// outside the newsroom, are never cached or counted, end after 7 days, when revoked or replaced,
// and when the article is deleted; only those who may edit the article make them.
const dataDir = mkdtempSync(join(tmpdir(), "news-preview-"));
let server: RunningServer;
const tokens: Record<string, string> = {};
let category: string;

const BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36";
const anonymous = (path: string) => fetch(`${server.url}${path}`, { headers: { "User-Agent": BROWSER } });
const api = (who: string | null, method: string, path: string, body?: unknown) =>
  fetch(`${server.url}${path}`, {
    method,
    headers: { ...(who ? { Authorization: `Bearer ${tokens[who]}` } : {}), ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

async function draft(who: string, title: string) {
  const res = await api(who, "POST", "/api/articles/", { title, content: `Чернетка: ${title}`, category_id: category, status: "draft" });
  expect(res.status).toBe(201);
  return (await res.json()) as { id: string; slug: string };
}
const pathOf = (url: string) => new URL(url).pathname;

describe("preview links (production server)", () => {
  beforeAll(async () => {
    server = await startServer({ dataDir });
    for (const username of ["admin", "editor", "reporter"]) {
      const res = await fetch(`${server.url}/api/auth/login`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ username, password: `${username}123` }),
      });
      tokens[username] = (await res.json()).access_token;
    }
    category = ((await (await api("admin", "GET", "/api/categories/")).json()).data as { id: string }[])[0].id;
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("a link shows the draft to anyone, noindex and private, never from the cache, never counted; only the token's hash is stored", async () => {
    const article = await draft("editor", "Таємна чернетка про квазари");
    expect((await anonymous(`/article/${article.slug}`)).status).toBe(404);
    const res = await api("editor", "POST", `/api/articles/${article.id}/preview-link`);
    expect(res.status).toBe(200);
    const link = await res.json();
    expect(link.url).toMatch(/\/preview\/[A-Za-z0-9_-]{43}$/);
    const days = (Date.parse(link.expires_at) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThanOrEqual(7);
    const token = pathOf(link.url).split("/").pop()!;
    const stored = await rowsOf<{ token_hash: string }>(dataDir, "select token_hash from preview_links where article_id = ?", article.id);
    expect(stored).toEqual([{ token_hash: createHash("sha256").update(token).digest("hex") }]);

    for (let i = 0; i < 2; i++) {
      const page = await anonymous(pathOf(link.url));
      expect(page.status).toBe(200);
      expect(page.headers.get("x-cache")).not.toBe("HIT");
      expect(page.headers.get("cache-control")).toBe("private, no-store");
      expect(page.headers.get("x-robots-tag")).toContain("noindex");
      // Browsers apply the last policy of the list (helmet's default comes first).
      expect(page.headers.get("referrer-policy")?.split(",").pop()?.trim()).toBe("no-referrer");
      const html = await page.text();
      expect(html).toContain("Таємна чернетка про квазари");
      expect(html).toContain("Чернетка: Таємна чернетка про квазари");
      expect(html).toMatch(/<meta name="robots" content="noindex[^"]*"/);
    }
    await new Promise((r) => setTimeout(r, 1_600)); // the view counter writes once a second
    expect(await rowOf(dataDir, "select views from articles where id = ?", article.id)).toEqual({ views: 0 });
  });

  it("a new link replaces the old one when asked to (issue 31 item 10: else 409); revoking ends it (200); an unknown or malformed token is the same 404", async () => {
    const article = await draft("editor", "Чернетка для відкликання");
    const first = await (await api("editor", "POST", `/api/articles/${article.id}/preview-link`, {})).json();
    expect((await api("admin", "POST", `/api/articles/${article.id}/preview-link`, {})).status).toBe(409);
    expect((await anonymous(pathOf(first.url))).status).toBe(200);
    const second = await (await api("admin", "POST", `/api/articles/${article.id}/preview-link`, { replace: true })).json();
    expect(second.url).not.toBe(first.url);
    expect((await anonymous(pathOf(first.url))).status).toBe(404);
    expect((await anonymous(pathOf(second.url))).status).toBe(200);
    const revoked = await api("editor", "POST", `/api/articles/${article.id}/preview-link`, { revoke: true });
    expect(revoked.status).toBe(200);
    expect(await revoked.json()).toEqual({ url: null, expires_at: null, revoked: true });
    const gone = await anonymous(pathOf(second.url));
    expect(gone.status).toBe(404);
    expect(gone.headers.get("x-robots-tag")).toContain("noindex");
    expect(gone.headers.get("cache-control")).toBe("private, no-store");
    const text = await gone.text();
    expect(text).toContain("Посилання недійсне");
    expect(text).not.toContain("Чернетка для відкликання");
    expect((await anonymous("/preview/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA")).status).toBe(404);
    expect((await anonymous("/preview/%E0%A4%A")).status).toBeLessThan(500);
    expect((await api("editor", "POST", `/api/articles/${article.id}/preview-link`, { revoke: "yes" })).status).toBe(422);
  });

  it("a link ends after its 7 days and when its article is deleted", async () => {
    const article = await draft("editor", "Чернетка, що старіє");
    const link = await (await api("editor", "POST", `/api/articles/${article.id}/preview-link`)).json();
    expect((await anonymous(pathOf(link.url))).status).toBe(200);
    await rowsOf(dataDir, "update preview_links set expires_at = ? where article_id = ?", new Date(Date.now() - 1000).toISOString(), article.id);
    expect((await anonymous(pathOf(link.url))).status).toBe(404);

    const other = await draft("editor", "Чернетка, яку видалять");
    const live = await (await api("editor", "POST", `/api/articles/${other.id}/preview-link`)).json();
    expect((await anonymous(pathOf(live.url))).status).toBe(200);
    expect((await api("editor", "DELETE", `/api/articles/${other.id}`)).status).toBe(204);
    expect(await rowOf(dataDir, "select count(*) as n from preview_links where article_id = ?", other.id)).toEqual({ n: 0 });
    expect((await anonymous(pathOf(live.url))).status).toBe(404);
  });

  it("only those who may edit the article make or revoke its link", async () => {
    const article = await draft("editor", "Чужа чернетка");
    expect((await api(null, "POST", `/api/articles/${article.id}/preview-link`)).status).toBe(401);
    expect((await api("reporter", "POST", `/api/articles/${article.id}/preview-link`)).status).toBe(403);
    expect((await api("reporter", "POST", `/api/articles/${article.id}/preview-link`, { revoke: true })).status).toBe(403);
    expect((await api("editor", "POST", "/api/articles/no-such-article/preview-link")).status).toBe(404);
    expect(await rowOf(dataDir, "select count(*) as n from preview_links where article_id = ?", article.id)).toEqual({ n: 0 });
    const own = await draft("reporter", "Моя чернетка");
    expect((await api("reporter", "POST", `/api/articles/${own.id}/preview-link`)).status).toBe(200);
  });
});
