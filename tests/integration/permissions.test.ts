// SECURITY.md 'Permissions' (docs/security.md): a table-driven walk of every route of the build's
// route table as anonymous, reporter, editor and admin, compared with DESIGN §5 ("Who may do
// what"). Screens are read with the session cookie, /api with a bearer token. A route that is
// missing from the table fails the test, so a new route must say who may open it. Writes that a
// role may not make are tried too: refused (401/403, or the sign-in redirect) and nothing changes.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contentDigest, rowsOf } from "../database-of";
import { startServer, type RunningServer } from "../server-process";

type Role = "anonymous" | "reporter" | "editor" | "admin";
const ROLES: Role[] = ["anonymous", "reporter", "editor", "admin"];

// GET status per role. `login`: the sign-in redirect (302 to /admin/login); `home`: a signed-in
// person is sent on (302) to the dashboard.
type Expect = number | "login" | "home";
const OPEN: Record<Role, Expect> = { anonymous: 200, reporter: 200, editor: 200, admin: 200 };
const STAFF_SCREEN: Record<Role, Expect> = { anonymous: "login", reporter: 200, editor: 200, admin: 200 };
const EDITOR_SCREEN: Record<Role, Expect> = { anonymous: "login", reporter: 403, editor: 200, admin: 200 };
const ADMIN_SCREEN: Record<Role, Expect> = { anonymous: "login", reporter: 403, editor: 403, admin: 200 };
const STAFF_API: Record<Role, Expect> = { anonymous: 401, reporter: 200, editor: 200, admin: 200 };
const EDITOR_API: Record<Role, Expect> = { anonymous: 401, reporter: 403, editor: 200, admin: 200 };
const ADMIN_API: Record<Role, Expect> = { anonymous: 401, reporter: 403, editor: 403, admin: 200 };
const WRITE_ONLY_API: Record<Role, Expect> = { anonymous: 405, reporter: 405, editor: 405, admin: 405 };

/** Every route of the route table (as build.assets.routes spells it) → who may GET it (DESIGN §5). */
const TABLE: Record<string, Record<Role, Expect>> = {
  "/": OPEN,
  "/*": { anonymous: 404, reporter: 404, editor: 404, admin: 404 },
  "/article/:slug": OPEN,
  "/category/:slug": OPEN,
  "/search": OPEN,
  "/robots.txt": OPEN,
  "/rss.xml": OPEN,
  "/sitemap.xml": OPEN,
  // Issue 29: author and tag pages with their feeds, the Google News sitemap; guest authors; one's own author page.
  "/author/:slug": OPEN,
  "/author/:slug/rss.xml": OPEN,
  "/tag/:slug": OPEN,
  "/tag/:slug/rss.xml": OPEN,
  "/news-sitemap.xml": OPEN,
  // Issue 29: corrections and their feed (public); the Crossref lookup is staff only, and 404 while lookups are off.
  "/corrections": OPEN,
  "/corrections/rss.xml": OPEN,
  "/api/sources/lookup": { anonymous: 401, reporter: 404, editor: 404, admin: 404 },
  // Issue 27: import and export (admin only); the export is a POST from that screen.
  "/admin/import": ADMIN_SCREEN,
  "/admin/import/export": WRITE_ONLY_API,
  "/admin/authors": EDITOR_SCREEN,
  "/admin/profile/author": STAFF_SCREEN,
  "/admin": STAFF_SCREEN,
  "/admin/login": { anonymous: 200, reporter: "home", editor: "home", admin: "home" },
  // The second step of a sign-in (issue 25): without a sign-in waiting for its code it says so.
  "/admin/login/code": { anonymous: 200, reporter: "home", editor: "home", admin: "home" },
  "/admin/logout": { anonymous: "login", reporter: "login", editor: "login", admin: "login" },
  "/admin/dashboard": STAFF_SCREEN,
  "/admin/analytics": STAFF_SCREEN,
  "/admin/articles": STAFF_SCREEN,
  "/admin/articles/new": STAFF_SCREEN,
  // Someone else's published article: a reporter edits only their own drafts.
  "/admin/articles/edit/:id": { anonymous: "login", reporter: 403, editor: 200, admin: 200 },
  "/admin/articles/edit/:id/history": { anonymous: "login", reporter: 403, editor: 200, admin: 200 }, // issue 15
  // The editorial desk's page (issue 14): who may open the editor.
  "/admin/articles/desk/:id": { anonymous: "login", reporter: 403, editor: 200, admin: 200 },
  "/admin/categories": STAFF_SCREEN, // reporters read them
  "/admin/media": STAFF_SCREEN, // reporters upload and delete their own
  "/admin/homepage": EDITOR_SCREEN,
  "/admin/seo": EDITOR_SCREEN,
  "/admin/seo/analytics": EDITOR_SCREEN,
  "/admin/settings": ADMIN_SCREEN,
  "/admin/users": ADMIN_SCREEN,
  "/admin/audit": ADMIN_SCREEN, // issue 25: the audit log and its CSV
  "/admin/audit.csv": ADMIN_SCREEN,
  "/admin/comments": EDITOR_SCREEN, // issue 28: comment moderation
  // Issue 28: the newsletter (a confirmation link without its token is a 404) and its admin screen;
  // issue 31 item 20: forgot password, open to anyone.
  "/newsletter": OPEN,
  "/newsletter/confirm": { anonymous: 404, reporter: 404, editor: 404, admin: 404 },
  "/newsletter/unsubscribe": OPEN,
  "/admin/newsletter": EDITOR_SCREEN,
  "/admin/newsletter.csv": EDITOR_SCREEN,
  "/admin/forgot-password": OPEN,
  "/admin/reset-password": OPEN,
  "/admin/profile": STAFF_SCREEN, // everyone edits their own
  "/admin/profile/two-factor": STAFF_SCREEN, // everyone's own second factor (issue 25)
  "/api/*": { anonymous: 404, reporter: 404, editor: 404, admin: 404 },
  "/api/auth/login": WRITE_ONLY_API,
  "/api/auth/logout": WRITE_ONLY_API,
  "/api/auth/me": STAFF_API,
  "/api/articles": OPEN,
  "/api/articles/admin": STAFF_API,
  "/api/articles/:id": STAFF_API,
  "/api/articles/:id/publish": WRITE_ONLY_API,
  "/api/articles/:id/unpublish": WRITE_ONLY_API,
  // Issue 15: who may edit the article (someone else's published one: not a reporter).
  "/api/articles/:id/revisions": EDITOR_API,
  "/api/articles/:id/revisions/:rev": EDITOR_API,
  "/api/articles/:id/revisions/:rev/restore": WRITE_ONLY_API,
  "/api/articles/:id/preview-link": WRITE_ONLY_API,
  "/api/articles/:id/autosave": EDITOR_API,
  "/preview/:token": { anonymous: 404, reporter: 404, editor: 404, admin: 404 }, // an unknown token
  "/api/articles/:id/submit": WRITE_ONLY_API,
  "/api/articles/:id/return": WRITE_ONLY_API,
  "/api/articles/slug/:slug": OPEN,
  "/api/categories": STAFF_API,
  "/api/categories/admin": STAFF_API,
  "/api/categories/:id": STAFF_API,
  "/api/media": STAFF_API,
  "/api/media/:id": STAFF_API,
  "/api/analytics/dashboard": STAFF_API,
  "/api/analytics/articles/:id": STAFF_API,
  "/api/analytics/track-view": WRITE_ONLY_API,
  "/api/homepage/public": OPEN,
  "/api/homepage/config": EDITOR_API,
  "/api/seo/settings": EDITOR_API, // reading them; changing them is for admins (below)
  "/api/seo/sitemap.xml": OPEN,
  "/api/seo/submit-url": WRITE_ONLY_API,
  "/api/seo/search-console/submit-sitemap": WRITE_ONLY_API,
  "/api/users": ADMIN_API,
  "/api/users/:id": ADMIN_API,
  "/api/audit": ADMIN_API,
  "/api/comments": EDITOR_API,
  // An unknown comment: 404 once the role may moderate.
  "/api/comments/:id": { anonymous: 401, reporter: 403, editor: 404, admin: 404 },
  // Static pages (issue 31 item 5): the demo's six are drafts, so the public page is 404 for everyone.
  "/page/:slug": { anonymous: 404, reporter: 404, editor: 404, admin: 404 },
  "/admin/pages": EDITOR_SCREEN,
  "/api/pages": STAFF_API,
  "/api/pages/:id": STAFF_API,
  // The menus (issue 31 item 5): the editor for admins and editors; the JSON for staff to read.
  "/admin/menu": EDITOR_SCREEN,
  "/api/menu": STAFF_API,
};

let server: RunningServer;
let dataDir: string;
let routes: string[] = [];
const who: Record<Role, { cookie?: string; bearer?: string }> = { anonymous: {}, reporter: {}, editor: {}, admin: {} };
const ids: Record<string, string> = {};

const rows = <T>(statement: string) => rowsOf<T>(dataDir, statement);

/** The site's content (views, sessions and sign-in records move on their own). */
async function digest(): Promise<string> {
  return JSON.stringify(
    await contentDigest(dataDir, [
      ["articles", "id, slug, title, content, status, category_id, featured_image, version"],
      ["article_revisions", "id, article_id"],
      ["preview_links", "article_id"],
      ["article_autosaves", "article_id, user_id, fields"],
      ["categories", "*"],
      ["users", "id, username, email, role, is_active, password_hash, name, bio"],
      ["media", "id, file_name"],
      ["homepage_blocks", "*"],
      ["menu_items", "id, menu, position, label, kind, category_id, page_id, url"],
      ["settings", "key, value"],
      ["slug_redirects", "*"],
      // A refused write records nothing either (issue 25).
      ["audit_log", "id, action, object_id"],
    ] as const),
  );
}

const fill = (route: string) =>
  route
    .replace(/\/\*$/, "/no-such-page")
    .replace("/api/articles/:id", `/api/articles/${ids.article}`)
    .replace("/api/analytics/articles/:id", `/api/analytics/articles/${ids.article}`)
    .replace("/admin/articles/edit/:id", `/admin/articles/edit/${ids.article}`)
    .replace("/admin/articles/desk/:id", `/admin/articles/desk/${ids.article}`)
    .replace("/api/categories/:id", `/api/categories/${ids.category}`)
    .replace("/api/media/:id", `/api/media/${ids.media}`)
    .replace("/api/users/:id", `/api/users/${ids.user}`)
    .replace("/api/pages/:id", `/api/pages/${ids.page}`)
    .replace("/page/:slug", "/page/about")
    .replace("/article/:slug", `/article/${ids.slug}`)
    .replace("/api/articles/slug/:slug", `/api/articles/slug/${ids.slug}`)
    .replace("/category/:slug", `/category/${ids.categorySlug}`)
    .replace("/author/:slug", "/author/olena-kovalenko")
    .replace("/tag/:slug", `/tag/${ids.tagSlug}`)
    .replace("/revisions/:rev", `/revisions/${ids.rev}`)
    .replace("/preview/:token", "/preview/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA");

function send(role: Role, method: string, path: string, body?: unknown) {
  const api = path.startsWith("/api/");
  const headers: Record<string, string> = { Origin: server.url };
  if (api && who[role].bearer) headers.Authorization = `Bearer ${who[role].bearer}`;
  if (!api && who[role].cookie) headers.Cookie = who[role].cookie!;
  let payload: string | URLSearchParams | undefined;
  if (body !== undefined && api) {
    headers["Content-Type"] = "application/json";
    payload = JSON.stringify(body);
  } else if (body !== undefined) {
    payload = new URLSearchParams(body as Record<string, string>);
  }
  return fetch(`${server.url}${path}`, { method, headers, body: payload, redirect: "manual" });
}

beforeAll(async () => {
  const build = (await import(pathToFileURL(resolve("build/remix/index.js")).href)) as {
    assets: { routes: Record<string, { path?: string; parentId?: string }> };
  };
  const all = build.assets.routes;
  const full = (id: string): string => {
    const route = all[id];
    const parent = route.parentId ? full(route.parentId) : "";
    return route.path ? `${parent}/${route.path}`.replace(/\/+/g, "/") : parent;
  };
  routes = [...new Set(Object.keys(all).map((id) => full(id) || "/"))].sort();

  dataDir = mkdtempSync(join(tmpdir(), "news-permissions-"));
  server = await startServer({ dataDir });
  for (const role of ["admin", "editor", "reporter"] as const) {
    const api = await fetch(`${server.url}/api/auth/login`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ username: role, password: `${role}123` }),
    });
    const form = await fetch(`${server.url}/admin/login`, {
      method: "POST",
      headers: { Origin: server.url },
      body: new URLSearchParams({ username: role, password: `${role}123` }),
      redirect: "manual",
    });
    who[role] = { bearer: (await api.json()).access_token, cookie: (form.headers.get("set-cookie") ?? "").split(";")[0] };
  }
  const article = (
    await rows<{ id: string; slug: string }>(
      "select a.id, a.slug from articles a join users u on u.id = a.author_id where a.status = 'published' and u.username != 'reporter' limit 1",
    )
  )[0];
  const category = (await rows<{ id: string; slug: string }>("select id, slug from categories order by name limit 1"))[0];
  Object.assign(ids, {
    article: article.id,
    slug: article.slug,
    category: category.id,
    categorySlug: category.slug,
    user: (await rows<{ id: string }>("select id from users where username = 'editor'"))[0].id,
    tagSlug: (
      await rows<{ slug: string }>(
        "select t.slug from tags t join article_tags x on x.tag_id = t.id join articles a on a.id = x.article_id where a.status = 'published' limit 1",
      )
    )[0].slug,
  });
  // An image uploaded by the editor, so /api/media/:id has something to show.
  const png = await sharp({ create: { width: 2, height: 2, channels: 3, background: { r: 1, g: 2, b: 3 } } })
    .png()
    .toBuffer();
  const upload = new FormData();
  upload.append("files", new Blob([new Uint8Array(png)], { type: "image/png" }), "dot.png");
  const stored = await fetch(`${server.url}/api/media/`, { method: "POST", headers: { Authorization: `Bearer ${who.editor.bearer}` }, body: upload });
  expect(stored.status, await stored.clone().text()).toBe(201);
  ids.media = (await rows<{ id: string }>("select id from media limit 1"))[0].id;
  ids.page = (await rows<{ id: string }>("select id from pages limit 1"))[0].id;
  // A save by the editor, so the article has revisions (issue 15) for /revisions/:rev.
  const current = await (await send("editor", "GET", `/api/articles/${ids.article}`)).json();
  const saved = await send("editor", "PUT", `/api/articles/${ids.article}`, {
    title: current.title,
    content: `${current.content}\n\nДоповнення.`,
    category_id: current.category_id,
    tags: current.tags,
    status: current.status,
  });
  expect(saved.status, await saved.clone().text()).toBe(200);
  ids.rev = String((await rows<{ id: number }>("select max(id) as id from article_revisions"))[0].id);
}, 120_000);

afterAll(async () => {
  await server?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe("permissions (DESIGN §5): every route as every role", () => {
  it("the table names every route of the route table, and nothing else", () => {
    expect(
      routes.filter((r) => !(r in TABLE)),
      "routes missing from the table",
    ).toEqual([]);
    expect(
      Object.keys(TABLE).filter((r) => !routes.includes(r)),
      "table rows for routes that do not exist",
    ).toEqual([]);
  });

  it("GET of every route answers each role as the table says", async () => {
    const wrong: string[] = [];
    for (const route of routes.filter((r) => r in TABLE)) {
      const path = fill(route);
      for (const role of ROLES) {
        if (route === "/admin/logout") continue; // GET of logout is checked below (it must not sign out)
        const res = await send(role, "GET", path);
        const expected = TABLE[route][role];
        const location = res.headers.get("location") ?? "";
        const actual =
          res.status === 302 && location.startsWith("/admin/login")
            ? "login"
            : res.status === 302 && location.startsWith("/admin/dashboard")
              ? "home"
              : res.status;
        if (actual !== expected) wrong.push(`${role} GET ${path}: ${actual} (${location}), expected ${expected}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it("a GET never signs anyone out", async () => {
    for (const role of ["reporter", "editor", "admin"] as const) {
      await send(role, "GET", "/admin/logout");
      expect((await send(role, "GET", "/admin/dashboard")).status, role).toBe(200);
    }
  });

  it("writes a role may not make are refused and change nothing", async () => {
    const before = await digest();
    const category = { name: "Заборонена", description: "x" };
    const user = { username: "intruder", email: "intruder@example.com", password: "Dovgyi-parol-2026", role: "admin" };
    // [path, method, body, roles refused]
    const writes: [string, string, unknown, Role[]][] = [
      ["/api/categories/", "POST", category, ["anonymous", "reporter"]],
      [`/api/categories/${ids.category}`, "PUT", category, ["anonymous", "reporter"]],
      [`/api/categories/${ids.category}`, "DELETE", undefined, ["anonymous", "reporter"]],
      ["/api/homepage/config", "PUT", { blocks: [] }, ["anonymous", "reporter"]],
      ["/api/menu", "PUT", { header: [], social: { telegram: "https://t.me/x" } }, ["anonymous", "reporter"]],
      ["/api/seo/settings", "PUT", { site_title: "Чужа назва" }, ["anonymous", "reporter", "editor"]],
      ["/api/seo/submit-url", "POST", { url: "https://news.example/article/x" }, ["anonymous", "reporter"]],
      ["/api/seo/search-console/submit-sitemap", "POST", {}, ["anonymous", "reporter"]],
      ["/api/users/", "POST", user, ["anonymous", "reporter", "editor"]],
      [`/api/users/${ids.user}`, "PUT", { role: "admin" }, ["anonymous", "reporter", "editor"]],
      [`/api/users/${ids.user}`, "DELETE", undefined, ["anonymous", "reporter", "editor"]],
      [`/api/articles/${ids.article}`, "PUT", { title: "Чуже", content: "x", category_id: ids.category, status: "draft" }, ["anonymous", "reporter"]],
      [`/api/articles/${ids.article}`, "DELETE", undefined, ["anonymous", "reporter"]],
      [`/api/articles/${ids.article}/unpublish`, "POST", {}, ["anonymous", "reporter"]],
      [`/api/articles/${ids.article}/revisions/${ids.rev}/restore`, "POST", {}, ["anonymous", "reporter"]],
      [`/api/articles/${ids.article}/preview-link`, "POST", {}, ["anonymous", "reporter"]],
      [`/api/articles/${ids.article}/autosave`, "PUT", { fields: { content: "чуже" } }, ["anonymous", "reporter"]],
      [`/api/articles/${ids.article}/publish`, "POST", { publish_at: "2099-01-01T09:00:00+02:00" }, ["anonymous", "reporter"]],
      [`/api/articles/${ids.article}/submit`, "POST", { note: "не моя" }, ["anonymous", "reporter"]],
      [`/api/articles/${ids.article}/return`, "POST", { note: "x" }, ["anonymous", "reporter"]],
      [`/admin/articles/desk/${ids.article}`, "POST", { intent: "schedule", publish_at_local: "2099-01-01T09:00" }, ["anonymous", "reporter"]],
      [`/admin/articles/desk/${ids.article}`, "POST", { intent: "submit", note: "" }, ["anonymous", "reporter"]],
      [`/api/media/${ids.media}`, "DELETE", undefined, ["anonymous", "reporter"]],
      ["/api/articles/", "POST", { title: "Анонім", content: "x", category_id: ids.category, status: "draft" }, ["anonymous"]],
      ["/admin/categories", "POST", { intent: "create", ...category }, ["anonymous", "reporter"]],
      ["/admin/homepage", "POST", { intent: "save", config: '{"blocks":[]}' }, ["anonymous", "reporter"]],
      ["/admin/menu", "POST", { intent: "add", menu: "header", kind: "home", label: "Чуже" }, ["anonymous", "reporter"]],
      ["/admin/settings", "POST", { site_title: "Чужа назва" }, ["anonymous", "reporter", "editor"]],
      ["/admin/users", "POST", { intent: "create", ...user }, ["anonymous", "reporter", "editor"]],
      ["/admin/seo/analytics", "POST", { intent: "sitemap" }, ["anonymous", "reporter"]],
      ["/admin/articles", "POST", { intent: "unpublish", id: ids.article, confirmed: "1" }, ["anonymous", "reporter"]],
      [
        `/admin/articles/edit/${ids.article}`,
        "POST",
        { intent: "save", title: "Чуже", content: "x", category_id: ids.category, status: "draft" },
        ["anonymous", "reporter"],
      ],
      ["/admin/media", "POST", { intent: "delete", ids: ids.media }, ["anonymous", "reporter"]],
      [`/admin/articles/edit/${ids.article}/history`, "POST", { intent: "restore", rev: ids.rev, confirmed: "1" }, ["anonymous", "reporter"]],
      [`/admin/articles/edit/${ids.article}/history`, "POST", { intent: "preview-link" }, ["anonymous", "reporter"]],
    ];
    const wrong: string[] = [];
    for (const [path, method, body, refused] of writes) {
      for (const role of refused) {
        const res = await send(role, method, path, body);
        const location = res.headers.get("location") ?? "";
        const ok = role === "anonymous" ? res.status === 401 || (res.status === 302 && location.startsWith("/admin/login")) : res.status === 403;
        if (!ok) wrong.push(`${role} ${method} ${path}: ${res.status} ${location}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(await digest()).toBe(before);
  });
});

// Issue 25 (item 8), docs/decisions/019-what-reporters-read.md: one rule for every newsroom read.
// A reporter reads their own articles in every status and another author's only once it has passed
// the desk (published, scheduled, archived), never a colleague's draft or review item; editing
// stays narrower (their own draft or review article). Each read below, as each staff role, against
// an article of each kind.
describe("what each role reads (docs/decisions/019): every read of an article, by status and author", () => {
  type Kind = "others-draft" | "others-review" | "others-scheduled" | "others-archived" | "others-published" | "own-draft";
  type Staff = Exclude<Role, "anonymous">;
  const KINDS: Kind[] = ["others-draft", "others-review", "others-scheduled", "others-archived", "others-published", "own-draft"];
  // [may read, may edit] for the reporter; editors and admins read and edit all.
  const REPORTER: Record<Kind, { read: boolean; edit: boolean }> = {
    "others-draft": { read: false, edit: false },
    "others-review": { read: false, edit: false },
    "others-scheduled": { read: true, edit: false },
    "others-archived": { read: true, edit: false },
    "others-published": { read: true, edit: false },
    "own-draft": { read: true, edit: true },
  };
  const may = (role: Staff, kind: Kind, what: "read" | "edit") => role !== "reporter" || REPORTER[kind][what];
  const word = `таємниця${Date.now().toString(36)}`;
  const made: Record<Kind, { id: string; title: string; status: string }> = {} as never;

  beforeAll(async () => {
    const create = async (role: Staff, kind: Kind, status: string) => {
      const title = `${word} ${kind}`;
      const res = await send(role, "POST", "/api/articles/", { title, content: `Текст: ${kind}.`, category_id: ids.category, status });
      expect(res.status, await res.clone().text()).toBe(201);
      made[kind] = { id: (await res.json()).id, title, status };
    };
    await create("editor", "others-draft", "draft");
    await create("editor", "others-review", "draft");
    expect((await send("editor", "POST", `/api/articles/${made["others-review"].id}/submit`, { note: "на перевірку" })).status).toBe(200);
    made["others-review"].status = "review";
    await create("editor", "others-scheduled", "draft");
    expect((await send("editor", "POST", `/api/articles/${made["others-scheduled"].id}/publish`, { publish_at: "2099-01-01T09:00:00+02:00" })).status).toBe(
      200,
    );
    made["others-scheduled"].status = "scheduled";
    await create("editor", "others-archived", "archived");
    await create("editor", "others-published", "published");
    await create("reporter", "own-draft", "draft");
  });

  const listed = async (role: Staff, path: string) => {
    const res = await send(role, "GET", path);
    expect(res.status, `${role} ${path}`).toBe(200);
    const body = (await res.json()) as { data: { id: string }[]; total: number };
    return { ids: new Set(body.data.map((a) => a.id)), total: body.total, length: body.data.length };
  };

  it.each(["reporter", "editor", "admin"] as const)("as %s: list, search, item, editor, preview link, analytics", async (role) => {
    const wrong: string[] = [];
    const expectSeen = (what: string, kind: Kind, seen: boolean) => {
      if (seen !== may(role, kind, "read")) wrong.push(`${what}: ${kind} ${seen ? "shown" : "hidden"}`);
    };
    // The admin search (JSON): the rows and the total agree.
    const search = await listed(role, `/api/articles/admin?search=${encodeURIComponent(word)}&limit=100`);
    if (search.total !== search.length) wrong.push(`search total ${search.total} for ${search.length} rows`);
    // The admin list, filtered by each article's status (JSON), and the screen with its search box.
    const screen = await (await send(role, "GET", `/admin/articles?q=${encodeURIComponent(word)}`)).text();
    const dashboard = (await (await send(role, "GET", "/api/analytics/dashboard")).json()) as { recent_articles: { id: string }[] };
    for (const kind of KINDS) {
      const { id, title, status } = made[kind];
      expectSeen("GET /api/articles/admin?search", kind, search.ids.has(id));
      const byStatus = await listed(role, `/api/articles/admin?status=${status}&limit=100`);
      expectSeen(`GET /api/articles/admin?status=${status}`, kind, byStatus.ids.has(id));
      expectSeen("/admin/articles?q", kind, screen.includes(title));
      if (dashboard.recent_articles.some((a) => a.id === id) && !may(role, kind, "read")) wrong.push(`dashboard recent: ${kind} shown`);
      // The item, and its views.
      const item = await send(role, "GET", `/api/articles/${id}`);
      if (item.status !== (may(role, kind, "read") ? 200 : 403)) wrong.push(`GET /api/articles/{id}: ${kind} ${item.status}`);
      if (item.status === 403 && (await item.text()).includes(word)) wrong.push(`GET /api/articles/{id}: ${kind} 403 names the article`);
      const views = await send(role, "GET", `/api/analytics/articles/${id}`);
      if (views.status !== (may(role, kind, "read") ? 200 : 403)) wrong.push(`GET /api/analytics/articles/{id}: ${kind} ${views.status}`);
      // The editor screen and the preview link: who may edit.
      const editor = await send(role, "GET", `/admin/articles/edit/${id}`);
      if (editor.status !== (may(role, kind, "edit") ? 200 : 403)) wrong.push(`/admin/articles/edit/{id}: ${kind} ${editor.status}`);
      // `replace`: the roles walk the same articles, and a live link is replaced only on request (issue 31 item 10).
      const link = await send(role, "POST", `/api/articles/${id}/preview-link`, { replace: true });
      if (link.status !== (may(role, kind, "edit") ? 200 : 403)) wrong.push(`POST preview-link: ${kind} ${link.status}`);
      // The article list's confirmation step names the article: only for who may read it.
      const confirm = await send(role, "POST", "/admin/articles", { intent: "delete", id });
      if (!may(role, kind, "read") && (confirm.status !== 403 || (await confirm.text()).includes(title)))
        wrong.push(`/admin/articles delete confirmation: ${kind} ${confirm.status}`);
    }
    expect(wrong).toEqual([]);
  });
});
