import { beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../../app/models/user.server";
import { db } from "../../db/index";
import { migrated, postJson, request } from "../helpers";

// Issue 31 item 5 (DESIGN §17): static pages. A new site has the six footer pages as drafts; the
// JSON API (GET list and one for staff; POST, PUT, DELETE for admins and editors) with 401, 403,
// 404 and bad input; a published page is public at /page/{slug} and in the sitemap, a draft is not;
// each change is in the audit log.

async function tokenFor(username: string) {
  const res = await postJson("/api/auth/login", { username, password: "correct-horse" }, { ip: `198.51.100.${Math.floor(Math.random() * 200)}` });
  expect(res.status).toBe(200);
  return (await res.json()).access_token as string;
}
const send = (method: string, path: string, token: string | null, body?: unknown) =>
  request(path, {
    method,
    headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

let admin: string;
let editor: string;
let reporter: string;

describe("static pages", () => {
  beforeAll(async () => {
    await migrated();
    await createUser({ username: "pg-admin", email: "pa@example.com", password: "correct-horse", role: "admin" });
    await createUser({ username: "pg-editor", email: "pe@example.com", password: "correct-horse", role: "editor" });
    await createUser({ username: "pg-reporter", email: "pr@example.com", password: "correct-horse", role: "reporter" });
    [admin, editor, reporter] = await Promise.all([tokenFor("pg-admin"), tokenFor("pg-editor"), tokenFor("pg-reporter")]);
  });

  it("a new site has the six footer pages as drafts with placeholder text, not public", async () => {
    const res = await send("GET", "/api/pages", reporter);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.data.map((p: { slug: string }) => p.slug)).toEqual([
      "about",
      "contact",
      "research-guidelines",
      "privacy-policy",
      "terms-of-use",
      "editorial-standards",
    ]);
    expect(body.data.map((p: { title: string }) => p.title)).toEqual([
      "Про нас",
      "Контакти",
      "Правила для дослідників",
      "Політика конфіденційності",
      "Умови використання",
      "Редакційні стандарти",
    ]);
    expect(body.data.every((p: { status: string; body_html: string }) => p.status === "draft" && p.body_html.startsWith("<p>"))).toBe(true);
    expect((await request("/page/about")).status).toBe(404);
    expect(await (await request("/sitemap.xml")).text()).not.toContain("/page/");
  });

  it("401 without a token, 403 for a reporter's writes, 404 for an unknown id", async () => {
    expect((await send("GET", "/api/pages", null)).status).toBe(401);
    expect((await send("POST", "/api/pages", null, { title: "x", slug: "x" })).status).toBe(401);
    expect((await send("POST", "/api/pages", reporter, { title: "x", slug: "x" })).status).toBe(403);
    const [about] = (await (await send("GET", "/api/pages", editor)).json()).data;
    expect((await send("PUT", `/api/pages/${about.id}`, reporter, { title: "x", slug: "x" })).status).toBe(403);
    expect((await send("DELETE", `/api/pages/${about.id}`, reporter)).status).toBe(403);
    expect((await send("GET", "/api/pages/nope", editor)).status).toBe(404);
    expect((await send("PUT", "/api/pages/nope", editor, { title: "x", slug: "x" })).status).toBe(404);
    expect((await send("DELETE", "/api/pages/nope", editor)).status).toBe(404);
  });

  it("422 with Ukrainian messages for bad input; 409 for a taken address; 400 for broken JSON", async () => {
    const bad = await send("POST", "/api/pages", editor, { title: "", slug: "Не латиниця", status: "hidden" });
    expect(bad.status).toBe(422);
    const { errors } = await bad.json();
    expect(errors).toMatchObject({ title: "Вкажіть заголовок", slug: "Лише латинські літери, цифри та дефіси", status: "Статус: published або draft" });
    const taken = await send("POST", "/api/pages", editor, { title: "Ще одна", slug: "about" });
    expect(taken.status).toBe(409);
    expect((await taken.json()).detail).toBe("Сторінка з такою адресою вже існує");
    const broken = await request("/api/pages", {
      method: "POST",
      headers: { Authorization: `Bearer ${editor}`, "Content-Type": "application/json" },
      body: "{",
    });
    expect(broken.status).toBe(400);
  });

  it("create, publish (rendered and sanitised markdown), public page and sitemap, update, delete; audit entries", async () => {
    const created = await send("POST", "/api/pages", editor, { title: "Вакансії", slug: "vacancies", body: "**Пишіть** нам <script>alert(1)</script>" });
    expect(created.status).toBe(201);
    const page = await created.json();
    expect(page).toMatchObject({ title: "Вакансії", slug: "vacancies", status: "draft" });
    expect(page.body_html).toContain("<strong>Пишіть</strong>");
    expect(page.body_html).not.toContain("<script");
    expect((await request("/page/vacancies")).status).toBe(404);

    const published = await send("PUT", `/api/pages/${page.id}`, admin, {
      title: "Вакансії",
      slug: "vacancies",
      body: "Текст",
      status: "published",
      seo_title: "Робота в редакції",
    });
    expect(published.status).toBe(200);
    const html = await (await request("/page/vacancies")).text();
    expect(html).toContain("<h1>Вакансії</h1>");
    expect(html).toContain("<title>Робота в редакції");
    expect(html).toContain('href="/page/vacancies"'); // the footer's quick link
    expect(await (await request("/sitemap.xml")).text()).toContain("/page/vacancies</loc>");
    expect((await (await send("GET", `/api/pages/${page.id}`, reporter)).json()).status).toBe("published");

    expect((await send("DELETE", `/api/pages/${page.id}`, editor)).status).toBe(204);
    expect((await request("/page/vacancies")).status).toBe(404);
    const actions = (await db.selectFrom("audit_log").select("action").where("object_id", "=", page.id).orderBy("id").execute()).map((r) => r.action);
    expect(actions).toEqual(["page.create", "page.update", "page.delete"]);
  });
});
