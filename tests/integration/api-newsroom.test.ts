import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { createCategory } from "../../app/models/category.server";
import { createUser } from "../../app/models/user.server";
import { MESSAGES } from "../../app/utils/newsroom-rules";
import { db } from "../../db/index";
import { migrated, request, TEST_ACTOR, tokenFor } from "../helpers";

// /api/articles and /api/categories through the real production build (SPEC §7, DESIGN §5, §7).

const send = (method: string, path: string, token: string | null, body?: unknown) =>
  request(path, {
    method,
    headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), "Content-Type": "application/json" },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
const count = async (table: "articles" | "categories" | "articles_fts" | "slug_redirects" | "article_tags") =>
  Number(
    (
      await db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll().as("n"))
        .executeTakeFirstOrThrow()
    ).n,
  );
const snapshot = async () => ({
  articles: await count("articles"),
  fts: await count("articles_fts"),
  tags: await count("article_tags"),
  categories: await count("categories"),
  redirects: await count("slug_redirects"),
  versions: await db.selectFrom("articles").select(["id", "version", "status"]).orderBy("id").execute(),
});

let admin: string, editor: string, reporter: string, reporter2: string;
let science: string, empty: string;
const article = (extra: Record<string, unknown> = {}) => ({
  title: "Щастя у Києві",
  content: "# Привіт\n\n**жирний** текст",
  category_id: science,
  tags: "a, b, ,c",
  ...extra,
});

describe("newsroom API", () => {
  beforeAll(async () => {
    await migrated();
    for (const [username, role] of [
      ["boss", "admin"],
      ["eddie", "editor"],
      ["rita", "reporter"],
      ["rob", "reporter"],
    ] as const) {
      await createUser({ username, email: `${username}@example.com`, password: "correct-horse", role, name: username.toUpperCase() });
    }
    [admin, editor, reporter, reporter2] = await Promise.all(["boss", "eddie", "rita", "rob"].map(tokenFor));
    science = (await createCategory({ actor: TEST_ACTOR, input: { name: "Наука і техніка", description: null, slug: undefined } })).id;
    empty = (await createCategory({ actor: TEST_ACTOR, input: { name: "Порожня", description: "нічого", slug: undefined } })).id;
  });

  it("creates an article (201): transliterated unique slug, tags, rendered HTML, search row", async () => {
    const res = await send("POST", "/api/articles/", editor, article({ status: "published", author_id: "someone-else", views: 999 }));
    expect(res.status).toBe(201);
    const a = await res.json();
    expect(a).toMatchObject({ slug: "shchastia-u-kyievi", tags: ["a", "b", "c"], status: "published", views: 0, version: 1, author: { username: "eddie" } });
    expect(a.published_at).toBeTruthy();
    const row = await db.selectFrom("articles").select(["content_html", "author_id"]).where("id", "=", a.id).executeTakeFirstOrThrow();
    expect(row.content_html).toContain("<h1>Привіт</h1>");
    expect(row.content_html).toContain("<strong>жирний</strong>");
    const again = await (await send("POST", "/api/articles", editor, article())).json();
    expect(again.slug).toBe("shchastia-u-kyievi-2");
    const fts = await db.selectFrom("articles_fts").select("article_id").where("article_id", "=", again.id).execute();
    expect(fts).toHaveLength(1);
    const pub = await (await request("/api/articles/")).json();
    expect(pub.data.map((x: any) => x.id)).toContain(a.id);
    expect(pub.data.map((x: any) => x.id)).not.toContain(again.id);
    expect(pub.data[0]).not.toHaveProperty("content");
  });

  it("401 without a token on every article and category write and admin read; nothing written", async () => {
    const before = await snapshot();
    const [{ id }] = before.versions;
    for (const [method, path] of [
      ["POST", "/api/articles/"],
      ["GET", "/api/articles/admin"],
      ["GET", `/api/articles/${id}`],
      ["PUT", `/api/articles/${id}`],
      ["DELETE", `/api/articles/${id}`],
      ["POST", `/api/articles/${id}/publish`],
      ["POST", `/api/articles/${id}/unpublish`],
      ["GET", "/api/categories/admin"],
      ["POST", "/api/categories/"],
      ["GET", `/api/categories/${science}`],
      ["PUT", `/api/categories/${science}`],
      ["DELETE", `/api/categories/${empty}`],
    ]) {
      const res = await send(method, path, null, method === "GET" ? undefined : article({ name: "x" }));
      expect(res.status, `${method} ${path}`).toBe(401);
      expect(await res.json()).toHaveProperty("detail");
    }
    expect(await snapshot()).toEqual(before);
  });

  it("422 with the SPEC messages per field, 400 malformed, 415 wrong type, 413 too large; nothing written", async () => {
    const before = await snapshot();
    let res = await send("POST", "/api/articles/", editor, { title: "", content: "", seo_title: "x".repeat(61), seo_description: "y".repeat(161) });
    expect(res.status).toBe(422);
    expect((await res.json()).errors).toEqual({
      title: MESSAGES.titleContentRequired,
      content: MESSAGES.titleContentRequired,
      category_id: MESSAGES.categoryRequired,
      seo_title: MESSAGES.seoTitle,
      seo_description: MESSAGES.seoDescription,
    });
    res = await send("POST", "/api/articles/", editor, article({ category_id: "12345" }));
    expect((await res.json()).errors).toEqual({ category_id: MESSAGES.categoryInvalid });
    res = await send("POST", "/api/articles/", editor, article({ category_id: "00000000-0000-4000-8000-000000000000" }));
    expect(res.status).toBe(422);
    expect((await res.json()).errors).toEqual({ category_id: MESSAGES.categoryMissing });
    res = await send("POST", "/api/articles/", editor, article({ title: ["not", "text"], tags: 5 }));
    expect(res.status).toBe(422);
    res = await send("POST", "/api/articles/", editor, "{not json");
    expect(res.status).toBe(400);
    res = await request("/api/articles/", { method: "POST", headers: { Authorization: `Bearer ${editor}`, "Content-Type": "text/plain" }, body: "x" });
    expect(res.status).toBe(415);
    res = await send("POST", "/api/articles/", editor, article({ content: "x".repeat(9 * 1024 * 1024) }));
    expect(res.status).toBe(413);
    res = await send("POST", "/api/articles/", editor, article({ content: "x".repeat(500_001) }));
    expect(res.status).toBe(422);
    expect((await res.json()).errors).toEqual({ content: MESSAGES.content });
    expect(await snapshot()).toEqual(before);
  });

  it("a reporter writes drafts only and touches only their own drafts (403, nothing written)", async () => {
    const others = await (await send("POST", "/api/articles/", editor, article({ title: "Чужа стаття" }))).json();
    let before = await snapshot();
    let res = await send("POST", "/api/articles/", reporter, article({ status: "published" }));
    expect(res.status).toBe(403);
    expect((await res.json()).errors).toHaveProperty("status");
    for (const [method, path, body] of [
      ["PUT", `/api/articles/${others.id}`, article({ title: "Захоплено" })],
      ["DELETE", `/api/articles/${others.id}`, undefined],
      ["POST", `/api/articles/${others.id}/publish`, undefined],
      ["POST", `/api/articles/${others.id}/unpublish`, undefined],
    ] as const) {
      res = await send(method, path, reporter, body);
      expect(res.status, `${method} ${path}`).toBe(403);
    }
    expect(await snapshot()).toEqual(before);

    const own = await (await send("POST", "/api/articles/", reporter, article({ title: "Моя чернетка" }))).json();
    expect(own.status).toBe("draft");
    before = await snapshot();
    res = await send("PUT", `/api/articles/${own.id}`, reporter, article({ title: "Моя чернетка", status: "published" }));
    expect(res.status).toBe(403);
    res = await send("POST", `/api/articles/${own.id}/publish`, reporter);
    expect(res.status).toBe(403);
    res = await send("PUT", `/api/articles/${own.id}`, reporter2, article({ title: "Не моя" }));
    expect(res.status).toBe(403);
    expect(await snapshot()).toEqual(before);
    res = await send("PUT", `/api/articles/${own.id}`, reporter, article({ title: "Моя чернетка 2", status: "draft" }));
    expect(res.status).toBe(200);
    // Once an editor publishes it, it is no longer the reporter's to change.
    expect((await send("POST", `/api/articles/${own.id}/publish`, editor)).status).toBe(200);
    expect((await send("PUT", `/api/articles/${own.id}`, reporter, article({ status: "draft" }))).status).toBe(403);
    expect((await send("DELETE", `/api/articles/${own.id}`, reporter)).status).toBe(403);
    const draft = await (await send("POST", "/api/articles/", reporter, article({ title: "Видалю сама" }))).json();
    expect((await send("DELETE", `/api/articles/${draft.id}`, reporter)).status).toBe(204);
  });

  it("404 for an unknown article on every method", async () => {
    const id = "00000000-0000-4000-8000-000000000000";
    for (const [method, path] of [
      ["GET", `/api/articles/${id}`],
      ["PUT", `/api/articles/${id}`],
      ["DELETE", `/api/articles/${id}`],
      ["POST", `/api/articles/${id}/publish`],
      ["POST", `/api/articles/${id}/unpublish`],
    ]) {
      expect((await send(method, path, admin, method === "PUT" ? article() : undefined)).status, `${method} ${path}`).toBe(404);
    }
  });

  it("publish and unpublish change what the public list shows", async () => {
    const a = await (await send("POST", "/api/articles/", editor, article({ title: "Перемикач" }))).json();
    const publicIds = async () => (await (await request("/api/articles/?limit=100")).json()).data.map((x: any) => x.id);
    expect(await publicIds()).not.toContain(a.id);
    const published = await (await send("POST", `/api/articles/${a.id}/publish`, editor)).json();
    expect(published).toMatchObject({ status: "published", version: 2 });
    expect(await publicIds()).toContain(a.id);
    const unpublished = await (await send("POST", `/api/articles/${a.id}/unpublish`, admin)).json();
    expect(unpublished.status).toBe("draft");
    expect(await publicIds()).not.toContain(a.id);
    expect((await send("GET", `/api/articles/${a.id}/publish`, admin)).status).toBe(405);
  });

  it("refuses a save based on an older version (409 naming who saved), keeps the newer text", async () => {
    const a = await (await send("POST", "/api/articles/", editor, article({ title: "Спільна стаття" }))).json();
    expect((await send("PUT", `/api/articles/${a.id}`, admin, article({ title: "Версія адміна", version: 1 }))).status).toBe(200);
    const before = await snapshot();
    const res = await send("PUT", `/api/articles/${a.id}`, editor, article({ title: "Версія редактора", version: 1 }));
    expect(res.status).toBe(409);
    expect((await res.json()).detail).toContain("BOSS");
    expect(await snapshot()).toEqual(before);
    expect((await (await send("GET", `/api/articles/${a.id}`, editor)).json()).title).toBe("Версія адміна");
  });

  it("a published article's old slug is kept as a redirect; a taken slug is 409", async () => {
    const a = await (await send("POST", "/api/articles/", editor, article({ title: "Стара назва", status: "published" }))).json();
    expect(a.slug).toBe("stara-nazva");
    const res = await send("PUT", `/api/articles/${a.id}`, editor, article({ title: "Нова назва", slug: "nova-nazva", status: "published" }));
    expect((await res.json()).slug).toBe("nova-nazva");
    const redirect = await db.selectFrom("slug_redirects").selectAll().where("old_slug", "=", "stara-nazva").executeTakeFirst();
    expect(redirect?.article_id).toBe(a.id);
    // The old slug is not handed to a new article while it still redirects.
    expect((await (await send("POST", "/api/articles/", editor, article({ title: "Стара назва" }))).json()).slug).toBe("stara-nazva-2");
    const before = await snapshot();
    const taken = await send("PUT", `/api/articles/${a.id}`, editor, article({ slug: "shchastia-u-kyievi", status: "published" }));
    expect(taken.status).toBe(409);
    expect((await taken.json()).errors).toEqual({ slug: MESSAGES.slugTaken });
    expect(await snapshot()).toEqual(before);
  });

  it("delete removes the article, its tags and its search row", async () => {
    const a = await (await send("POST", "/api/articles/", admin, article({ title: "Тимчасова", tags: ["x", "y"] }))).json();
    const before = await snapshot();
    expect((await send("DELETE", `/api/articles/${a.id}`, admin)).status).toBe(204);
    const after = await snapshot();
    expect(after.articles).toBe(before.articles - 1);
    expect(after.fts).toBe(before.fts - 1);
    expect(after.tags).toBe(before.tags - 2);
    expect((await send("GET", `/api/articles/${a.id}`, admin)).status).toBe(404);
  });

  it("stores data URLs in featured_image and content as media files and saves their URLs", async () => {
    const png = await sharp({ create: { width: 8, height: 6, channels: 3, background: "#c8102e" } })
      .png()
      .toBuffer();
    const dataUrl = `data:image/png;base64,${png.toString("base64")}`;
    const media = async () =>
      Number(
        (
          await db
            .selectFrom("media")
            .select((eb) => eb.fn.countAll().as("n"))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await media();
    const res = await send(
      "POST",
      "/api/articles/",
      editor,
      article({ featured_image: dataUrl, content: `Текст\n\n![Схема](${dataUrl})\n\n![Ще](${dataUrl})` }),
    );
    expect(res.status).toBe(201);
    const a = await res.json();
    expect(a.featured_image).toMatch(/^\/media\/[0-9a-f]{32}\.png$/);
    expect(a.content).not.toContain("data:");
    expect(a.content).toMatch(/!\[Схема\]\(\/media\/[0-9a-f]{32}\.png\)/);
    expect(await media()).toBe(before + 2);
    const snap = await snapshot();
    const refused = await send(
      "POST",
      "/api/articles/",
      editor,
      article({ featured_image: `data:image/png;base64,${Buffer.from("<svg onload=alert(1)>").toString("base64")}` }),
    );
    expect(refused.status).toBe(422);
    expect(Object.keys((await refused.json()).errors)).toEqual(["featured_image"]);
    expect(await snapshot()).toEqual(snap);
  });

  it("admin list: full-text search, status and category filters, paging, bad params", async () => {
    await send(
      "POST",
      "/api/articles/",
      editor,
      article({ title: "Квантовий комп'ютер рахує", category_id: empty, content: "кубіти та надпровідники", status: "published" }),
    );
    const list = async (query: string, token = reporter) => (await send("GET", `/api/articles/admin?${query}`, token)).json();
    let body = await list(`search=${encodeURIComponent("кубіт")}`);
    expect(body.data.map((x: any) => x.title)).toEqual(["Квантовий комп'ютер рахує"]);
    // Issue 30: words match by stem (no prefixes), any apostrophe the same.
    body = await list(`search=${encodeURIComponent("квантового комп’ютера")}`);
    expect(body.total).toBe(1);
    body = await list(`category_id=${empty}`);
    expect(body.total).toBe(1);
    body = await list("status=draft&limit=2&skip=1");
    expect(body).toMatchObject({ skip: 1, limit: 2 });
    expect(body.data.every((x: any) => x.status === "draft")).toBe(true);
    expect(body.data.length).toBeLessThanOrEqual(2);
    expect((await list("limit=1000")).limit).toBe(100);
    expect((await send("GET", "/api/articles/admin?status=live", editor)).status).toBe(422);
    expect((await send("GET", "/api/articles/admin?skip=-1", editor)).status).toBe(422);
    expect((await list(`search=${encodeURIComponent('"*) OR (')}`)).data).toBeInstanceOf(Array);
  });

  it("categories: create (201, slug), 'Name is required', reporter 403, slug 409, in-use delete 409, delete 204", async () => {
    let before = await snapshot();
    expect((await send("POST", "/api/categories/", reporter, { name: "Хімія" })).status).toBe(403);
    expect((await send("PUT", `/api/categories/${empty}`, reporter, { name: "Хімія" })).status).toBe(403);
    expect((await send("DELETE", `/api/categories/${empty}`, reporter)).status).toBe(403);
    let res = await send("POST", "/api/categories/", editor, { name: " ", description: "x" });
    expect(res.status).toBe(422);
    expect((await res.json()).errors).toEqual({ name: "Name is required" });
    expect((await send("POST", "/api/categories/", editor, "{")).status).toBe(400);
    expect(await snapshot()).toEqual(before);

    res = await send("POST", "/api/categories/", editor, { name: "Хімія та матеріали", description: "Опис" });
    expect(res.status).toBe(201);
    const chem = await res.json();
    expect(chem).toMatchObject({ slug: "khimiia-ta-materialy", description: "Опис", article_count: 0 });
    // Issue 31 item 8: the same name (in any case) is refused; a name with the same slug gets -2.
    const twin = await send("POST", "/api/categories/", admin, { name: "хімія та матеріали" });
    expect(twin.status).toBe(409);
    expect((await twin.json()).detail).toMatch(/Категорія з такою назвою вже існує/);
    expect((await (await send("POST", "/api/categories/", admin, { name: "Хімія — та матеріали" })).json()).slug).toBe("khimiia-ta-materialy-2");
    expect((await send("GET", "/api/categories/admin", reporter)).status).toBe(200);
    expect((await send("GET", `/api/categories/${chem.id}`, reporter)).status).toBe(200);
    expect((await send("GET", "/api/categories/00000000-0000-4000-8000-000000000000", reporter)).status).toBe(404);

    res = await send("PUT", `/api/categories/${chem.id}`, editor, { name: "Хімія", description: "", slug: "khimiia" });
    expect(await res.json()).toMatchObject({ name: "Хімія", slug: "khimiia", description: null });
    before = await snapshot();
    res = await send("PUT", `/api/categories/${chem.id}`, editor, { name: "Хімія", slug: "khimiia-ta-materialy-2" });
    expect(res.status).toBe(409);
    res = await send("DELETE", `/api/categories/${science}`, admin);
    expect(res.status).toBe(409);
    expect((await res.json()).detail).toMatch(/не можна видалити/);
    expect(await snapshot()).toEqual(before);
    expect((await send("DELETE", `/api/categories/${chem.id}`, editor)).status).toBe(204);
    expect((await send("DELETE", `/api/categories/${chem.id}`, editor)).status).toBe(404);
  });
});
