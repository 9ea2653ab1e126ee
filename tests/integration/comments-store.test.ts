import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf } from "../database-of";
import { startServer, type RunningServer } from "../server-process";

// These tests count misses and hits: the store's warm-up (issue 30) would render pages before they ask.
const COLD = { PAGE_STORE_WARM: "0" };

// Issue 28 item 2 through the real production server and its page store (DESIGN §12): a pending
// comment changes no kept page; an approved one reaches the kept article page at once (its page is
// removed and rendered again on the next request) while other articles' pages stay kept; a reader
// who just commented (the comment_token cookie) gets their pages rendered for them, never stored.
const dataDir = mkdtempSync(join(tmpdir(), "news-comments-store-"));
let server: RunningServer;
let token: string;

const published = (n: number) =>
  rowsOf<{ id: string; slug: string }>(dataDir, "select id, slug from articles where status = 'published' order by published_at desc limit ?", n);

const get = (path: string, cookie?: string) => fetch(`${server.url}${path}`, { headers: cookie ? { Cookie: cookie } : {} });

describe("comments and the page store (production server)", () => {
  beforeAll(async () => {
    server = await startServer({ dataDir, env: COLD });
    const login = await fetch(`${server.url}/api/auth/login`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ username: "admin", password: "admin123" }),
    });
    token = (await login.json()).access_token;
    // Comments on, moderation on, through the settings screen (which empties the store).
    const signIn = await fetch(`${server.url}/admin/login`, {
      method: "POST",
      redirect: "manual",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: server.url },
      body: new URLSearchParams({ username: "admin", password: "admin123", redirectTo: "" }).toString(),
    });
    const cookie = signIn.headers.get("set-cookie")!.split(";")[0];
    const saved = await fetch(`${server.url}/admin/settings`, {
      method: "POST",
      redirect: "manual",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: server.url, Cookie: cookie },
      body: new URLSearchParams({
        site_title: "Наука UA",
        posts_per_page: "10",
        allow_comments: "on",
        moderation_required: "on",
        analytics_enabled: "on",
      }).toString(),
    });
    expect(saved.status).toBe(200);
  });
  afterAll(async () => {
    await server?.stop("SIGKILL");
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("an approved comment is on the kept article page at once; the other article's page stays kept", async () => {
    const [a, b] = await published(2);
    const pageA = `/article/${a.slug}`;
    const pageB = `/article/${b.slug}`;
    for (const path of [pageA, pageB]) {
      await get(path);
      expect((await get(path)).headers.get("x-cache")).toBe("HIT");
    }
    // A reader reads the kept page, takes a few seconds, and posts its form (with our Origin).
    const html = await (await get(pageA)).text();
    expect(html).toContain("Залишити коментар");
    const stamp = /name="stamp" value="([^"]+)"/.exec(html)![1];
    await new Promise((r) => setTimeout(r, 3_100));
    const body = `Коментар для сховища ${Date.now()}`;
    const posted = await fetch(`${server.url}${pageA}`, {
      method: "POST",
      redirect: "manual",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: server.url },
      body: new URLSearchParams({ intent: "comment", stamp, parent_id: "", website: "", author_name: "Читачка", body }).toString(),
    });
    expect(posted.status).toBe(303);
    const cookie = posted.headers.get("set-cookie")!.split(";")[0];
    expect(cookie).toMatch(/^comment_token=/);

    // Pending: the kept page is unchanged and still served from the store.
    const pending = await get(pageA);
    expect(pending.headers.get("x-cache")).toBe("HIT");
    expect(await pending.text()).not.toContain(body);
    // The reader sees their own comment waiting, on a page rendered for them and never kept.
    const own = await get(pageA, cookie);
    expect(own.headers.get("x-cache")).toBe("BYPASS");
    expect(own.headers.get("cache-control")).toBe("private, no-store");
    const ownHtml = await own.text();
    expect(ownHtml).toContain("Коментар очікує на модерацію");
    expect(ownHtml).toContain(body);

    const [{ id }] = await rowsOf<{ id: string }>(dataDir, "select id from comments where body = ?", body);
    const approved = await fetch(`${server.url}/api/comments/${id}`, {
      method: "PATCH",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      body: JSON.stringify({ status: "approved" }),
    });
    expect(approved.status).toBe(200);

    // At once: the next anonymous request renders the page again, with the comment.
    const after = await get(pageA);
    expect(after.headers.get("x-cache")).toBe("MISS");
    expect(await after.text()).toContain(body);
    expect((await get(pageA)).headers.get("x-cache")).toBe("HIT");
    expect((await (await get(`/api/articles/slug/${a.slug}`)).json()).comment_count).toBe(1);
    // Only that article: the other page was not touched.
    expect((await get(pageB)).headers.get("x-cache")).toBe("HIT");
  });
});
