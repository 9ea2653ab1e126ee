// Issue 31 items 15 and 19 through the real production server and its page store (DESIGN §12):
// signed-in staff see a bar on the public site ("Редагувати" where they may edit the article, a
// warning while readers get the maintenance page); no page kept for readers ever carries it.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../server-process";
import { apiSend, apiSignIn, formSignIn, type Staff } from "../staff-client";

const dataDir = mkdtempSync(join(tmpdir(), "news-staffbar-"));
let server: RunningServer;
let editor: Staff, editorApi: Staff, reporter: Staff, reporterApi: Staff, admin: Staff;
let article: { id: string; slug: string };
let category: string;

const BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36";
const get = (path: string, who?: Staff) => fetch(`${server.url}${path}`, { headers: { "User-Agent": BROWSER, ...(who ? { Cookie: who.auth.Cookie } : {}) } });
const BAR = 'aria-label="Панель редакції"';

const saveSettings = (maintenance: boolean) =>
  fetch(`${server.url}/admin/settings`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", ...admin.auth },
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

async function until(check: () => Promise<boolean>, what: string, ms = 8_000) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("the staff bar on the public site (production server)", () => {
  beforeAll(async () => {
    server = await startServer({ dataDir });
    [editor, reporter, admin] = await Promise.all([
      formSignIn(server.url, "editor", "editor123"),
      formSignIn(server.url, "reporter", "reporter123"),
      formSignIn(server.url, "admin", "admin123"),
    ]);
    [editorApi, reporterApi] = await Promise.all([apiSignIn(server.url, "editor", "editor123"), apiSignIn(server.url, "reporter", "reporter123")]);
    category = (await apiSend(editorApi, "GET", "/api/categories/")).json.data[0].id;
    const made = await apiSend(editorApi, "POST", "/api/articles/", {
      title: "Стаття для панелі редакції",
      content: "Текст для читачів.",
      category_id: category,
      status: "published",
    });
    expect(made.status).toBe(201);
    article = made.json;
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("an editor sees 'Редагувати' to the article's editor; the page then stored for readers carries no bar", async () => {
    const path = `/article/${article.slug}`;
    const staff = await get(path, editor);
    expect(staff.status).toBe(200);
    expect(staff.headers.get("x-cache")).toBe("BYPASS");
    expect(staff.headers.get("cache-control")).toContain("no-store");
    const staffHtml = await staff.text();
    expect(staffHtml).toContain(BAR);
    expect(staffHtml).toContain(`href="/admin/articles/edit/${article.id}">Редагувати</a>`);
    expect(staffHtml).toContain("Ви ввійшли як Андрій Мельник");

    // The same page for a reader, rendered and then served from the store: no bar, no link, no "signed in as".
    for (let i = 0; i < 3; i++) {
      const reader = await get(path);
      expect(reader.status).toBe(200);
      const html = await reader.text();
      expect(html).not.toContain(BAR);
      expect(html).not.toContain("/admin/articles/edit/");
      expect(html).not.toContain("Ви ввійшли як");
      expect(html).not.toContain("Редагувати");
    }
    expect((await get(path)).headers.get("x-cache")).toBe("HIT");
    // And the single-fetch data of the page, for a reader.
    const data = await (await get(`${path}.data`)).text();
    expect(data).not.toContain("/admin/articles/edit/");
    // A stored page does not leak into the staff view either: staff still get their own render.
    expect(await (await get(path, editor)).text()).toContain(BAR);
  });

  it("a reporter sees the bar but no 'Редагувати' on an article they may not edit (the editor's rule), and on their own draft's preview page nothing public changes", async () => {
    const html = await (await get(`/article/${article.slug}`, reporter)).text();
    expect(html).toContain(BAR);
    expect(html).toContain('href="/admin/dashboard"');
    expect(html).not.toContain(`/admin/articles/edit/${article.id}`);
    // The editor page itself refuses them, which is what the missing link reflects.
    const editorPage = await fetch(`${server.url}/admin/articles/edit/${article.id}`, { headers: { Cookie: reporter.auth.Cookie } });
    expect(editorPage.status).toBe(403);
    // A reporter's own published article is not theirs to edit either (decision 019): no link.
    const own = await apiSend(reporterApi, "POST", "/api/articles/", {
      title: "Репортерська чернетка",
      content: "Текст.",
      category_id: category,
      status: "draft",
    });
    expect(own.status).toBe(201);
    expect((await apiSend(editorApi, "POST", `/api/articles/${own.json.id}/publish`, {})).status).toBe(200);
    const ownHtml = await (await get(`/article/${own.json.slug}`, reporter)).text();
    expect(ownHtml).toContain(BAR);
    expect(ownHtml).not.toContain(`/admin/articles/edit/${own.json.id}`);
    // Home has the bar, without an edit link.
    const home = await (await get("/", reporter)).text();
    expect(home).toContain(BAR);
    expect(home).not.toContain(">Редагувати</a>");
  });

  it("in maintenance mode readers get 503 and staff a red bar saying so; a page rendered for staff never reaches readers", async () => {
    const path = `/article/${article.slug}`;
    expect((await get(path)).status).toBe(200);
    expect(await (await get(path, editor)).text()).not.toContain("maintenance-bar");
    expect((await saveSettings(true)).status).toBe(200);
    try {
      await until(async () => (await get(path)).status === 503, "readers get 503");
      const staff = await get(path, editor);
      expect(staff.status).toBe(200);
      const html = await staff.text();
      expect(html).toContain('data-testid="maintenance-bar"');
      expect(html).toContain("Увімкнено режим обслуговування.");
      expect(html).toContain("Читачі зараз бачать сторінку «Сайт на технічному обслуговуванні» (503)");
      // Only an admin may change the settings: only they get the link.
      expect(html).not.toContain('href="/admin/settings"');
      expect(await (await get("/", admin)).text()).toContain('href="/admin/settings">Вимкнути в налаштуваннях</a>');
      const reader = await get(path);
      expect(reader.status).toBe(503);
      expect(await reader.text()).not.toContain("Увімкнено режим обслуговування.");
    } finally {
      expect((await saveSettings(false)).status).toBe(200);
    }
    await until(async () => (await get(path)).status === 200, "readers back");
    for (const p of [path, "/"]) {
      const html = await (await get(p)).text();
      expect(html).not.toContain(BAR);
      expect(html).not.toContain("maintenance-bar");
    }
    expect(await (await get(path, editor)).text()).not.toContain("maintenance-bar");
  });
});
