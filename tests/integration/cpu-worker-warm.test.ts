// Issue 30 item 4 (memory): the CPU worker (jsdom, ~45–80 MB resident) starts when someone is about
// to write markdown, not for every staff request. A browser sign-in and the lists, dashboard and
// JSON reads start none; the article editor (new and edit), its history and the pages screen
// start it; an API sign-in or a bearer-token request does (a script is there to write). Through the
// real production build; the pool is read from the build's runtime export.
import { beforeAll, describe, expect, it } from "vitest";
import { createCategory } from "../../app/models/category.server";
import { createUser } from "../../app/models/user.server";
import { buildRuntime, migrated, postJson, request, sendJson, TEST_ACTOR } from "../helpers";

const PASSWORD = "Warm-Пароль-2026!";
let cookie = "";
let articleId = "";

const workers = () => buildRuntime().cpuPoolStats()?.workers ?? 0;
/** Ends the pool's worker, so the next step starts from none. */
const endWorkers = async () => {
  await buildRuntime().stop();
  expect(workers()).toBe(0);
};
const get = (path: string, headers: Record<string, string> = { Cookie: cookie }) => request(path, { headers });

beforeAll(async () => {
  await migrated();
  const category = await createCategory({ actor: TEST_ACTOR, input: { name: "Тепло", description: null, slug: undefined } });
  await createUser({ username: "warm-editor", email: "warm@example.com", password: PASSWORD, role: "editor" });
  const login = await postJson("/api/auth/login", { username: "warm-editor", password: PASSWORD });
  const created = await sendJson("POST", "/api/articles/", (await login.json()).access_token, {
    title: "Тепла стаття",
    content: "Текст **статті**.",
    category_id: category.id,
  });
  expect(created.status).toBe(201);
  articleId = (await created.json()).id;
  await endWorkers();
}, 60_000);

describe("the CPU worker starts for writing, not for reading", () => {
  it("a browser sign-in, the dashboard, the article list and JSON reads start no worker", async () => {
    const res = await request("/admin/login", { method: "POST", body: new URLSearchParams({ username: "warm-editor", password: PASSWORD }) });
    expect(res.status).toBe(302);
    cookie = (res.headers.get("set-cookie") ?? "").split(";")[0];
    expect(cookie).toMatch(/^__session=/);
    for (const path of ["/admin", "/admin/articles", "/admin/articles?search=стаття", "/api/articles/admin"]) {
      const page = await get(path);
      expect(page.status, path).toBe(200);
      await page.arrayBuffer();
    }
    expect(workers()).toBe(0);
  });

  it.each(["/admin/articles/new", `/admin/articles/edit/{id}`, `/admin/articles/edit/{id}/history`, "/admin/pages"])("%s starts it", async (path) => {
    await endWorkers();
    const res = await get(path.replace("{id}", articleId));
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    expect(workers()).toBe(1);
  });

  it("an API sign-in starts it, and so does a bearer-token request", async () => {
    await endWorkers();
    const login = await postJson("/api/auth/login", { username: "warm-editor", password: PASSWORD });
    expect(login.status).toBe(200);
    const token = (await login.json()).access_token as string;
    expect(workers()).toBe(1);
    await endWorkers();
    const list = await get("/api/articles/admin", { Authorization: `Bearer ${token}` });
    expect(list.status).toBe(200);
    expect(workers()).toBe(1);
  });

  it("a refused editor screen starts none", async () => {
    await endWorkers();
    const missing = await get("/admin/articles/edit/no-such-article");
    expect(missing.status).toBe(404);
    const anonymous = await request("/admin/articles/new");
    expect(anonymous.status).toBe(302);
    expect(workers()).toBe(0);
  });
});
