import { beforeAll, describe, expect, it } from "vitest";
import { REVISIONS_KEPT } from "../../app/models/article-revision.server";
import { insertArticle } from "../../app/models/article.server";
import { createCategory } from "../../app/models/category.server";
import { createUser } from "../../app/models/user.server";
import { sessionStorage } from "../../app/services/session.server";
import { db, writeTransaction } from "../../db/index";
import { migrated, request, sendJson, TEST_ACTOR, tokenFor } from "../helpers";

// Issue 15 (DESIGN §11): a revision on every kind of save, pruning at 100, who may read and
// restore them, restore under a conflicting edit, and the no-JS History page.

const send = sendJson;
const revisionCount = async (articleId: string) =>
  Number(
    (
      await db
        .selectFrom("article_revisions")
        .select((eb) => eb.fn.countAll().as("n"))
        .where("article_id", "=", articleId)
        .executeTakeFirstOrThrow()
    ).n,
  );
async function cookieFor(userId: string) {
  const session = await sessionStorage().getSession();
  session.set("userId", userId);
  return (await sessionStorage().commitSession(session)).split(";")[0];
}

let editor: string, reporter: string, reporter2: string, editorCookie: string;
let editorId: string, reporterId: string;
let science: string;

describe("article revisions", () => {
  beforeAll(async () => {
    await migrated();
    const users: Record<string, string> = {};
    for (const [username, role] of [
      ["eddie", "editor"],
      ["rita", "reporter"],
      ["rob", "reporter"],
    ] as const) {
      users[username] = (await createUser({ username, email: `${username}@example.com`, password: "correct-horse", role, name: `Ім'я ${username}` })).id;
    }
    editorId = users.eddie;
    reporterId = users.rita;
    [editor, reporter, reporter2] = await Promise.all(["eddie", "rita", "rob"].map(tokenFor));
    editorCookie = await cookieFor(editorId);
    science = (await createCategory({ actor: TEST_ACTOR, input: { name: "Наука", description: null, slug: undefined } })).id;
  });

  it("create writes the first revision; an API save that changes kept fields writes one naming them; a save changing nothing writes none", async () => {
    const created = await (
      await send("POST", "/api/articles/", editor, { title: "Перший заголовок", content: "Один два три", category_id: science, tags: "a" })
    ).json();
    expect(await revisionCount(created.id)).toBe(1);
    const same = { title: "Перший заголовок", content: "Один два три", category_id: science, tags: "a", status: "draft" };
    expect((await send("PUT", `/api/articles/${created.id}`, editor, same)).status).toBe(200);
    expect(await revisionCount(created.id)).toBe(1);
    const put = await send("PUT", `/api/articles/${created.id}`, editor, { ...same, title: "Другий заголовок", content: "Один два чотири" });
    expect(put.status).toBe(200);
    // A status change alone is not a kept field.
    expect((await send("POST", `/api/articles/${created.id}/publish`, editor, {})).status).toBe(200);
    // A refused save (a taken slug, a stale version) rolls back with its revision.
    const taken = await (await send("POST", "/api/articles/", editor, { title: "Зайнятий", content: "т", category_id: science })).json();
    expect((await send("PUT", `/api/articles/${created.id}`, editor, { ...same, title: "Інший", slug: taken.slug })).status).toBe(409);
    expect((await send("PUT", `/api/articles/${created.id}`, editor, { ...same, title: "Інший", version: 1 })).status).toBe(409);
    expect(await revisionCount(created.id)).toBe(2);
    const list = await (await send("GET", `/api/articles/${created.id}/revisions`, editor)).json();
    expect(list).toMatchObject({ total: 2, skip: 0, limit: 20 });
    expect(list.data[0]).toMatchObject({ title: "Другий заголовок", summary: "Змінено: заголовок, вміст", author: { username: "eddie", name: "Ім'я eddie" } });
    expect(list.data[0].created_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(list.data[1]).toMatchObject({ title: "Перший заголовок", summary: "Перша версія" });
    const first = await (await send("GET", `/api/articles/${created.id}/revisions/${list.data[1].id}`, editor)).json();
    expect(first).toMatchObject({
      title: "Перший заголовок",
      content: "Один два три",
      tags: ["a"],
      category_id: science,
      subtitle: null,
      featured_image: null,
    });
  });

  it("a save from the editor screen (form post) writes a revision, also with the publish button", async () => {
    const created = await (await send("POST", "/api/articles/", editor, { title: "Екранна", content: "текст", category_id: science })).json();
    const form = (title: string, intent: string, version: number) =>
      new URLSearchParams({ intent, title, content: "текст", category_id: science, tags: "", status: "draft", version: String(version) });
    let res = await request(`/admin/articles/edit/${created.id}`, { method: "POST", headers: { Cookie: editorCookie }, body: form("Екранна 2", "save", 1) });
    expect(res.status).toBe(302);
    res = await request(`/admin/articles/edit/${created.id}`, { method: "POST", headers: { Cookie: editorCookie }, body: form("Екранна 3", "publish", 2) });
    expect(res.status).toBe(302);
    const list = await (await send("GET", `/api/articles/${created.id}/revisions`, editor)).json();
    expect(list.data.map((r: { title: string }) => r.title)).toEqual(["Екранна 3", "Екранна 2", "Екранна"]);
  });

  it("an article saved before revisions existed gets its old text as the first revision on its next save", async () => {
    const id = await writeTransaction((trx) =>
      insertArticle(trx, {
        slug: "stara",
        title: "Стара",
        content: "давній текст",
        contentHtml: "<p>давній текст</p>",
        categoryId: science,
        authorId: editorId,
        status: "draft",
        tags: [],
      }),
    );
    expect(await revisionCount(id)).toBe(0);
    await send("PUT", `/api/articles/${id}`, editor, { title: "Нова", content: "новий текст", category_id: science, status: "draft" });
    const list = await (await send("GET", `/api/articles/${id}/revisions`, editor)).json();
    expect(list.data.map((r: { title: string; summary: string }) => [r.title, r.summary])).toEqual([
      ["Нова", "Змінено: заголовок, вміст"],
      ["Стара", "Перша версія"],
    ]);
  });

  it(`keeps the newest ${REVISIONS_KEPT} revisions per article; the list pages with limit ≤ 100`, async () => {
    const created = await (await send("POST", "/api/articles/", editor, { title: "Багато", content: "v0", category_id: science })).json();
    for (let i = 1; i <= REVISIONS_KEPT + 4; i++) {
      const res = await send("PUT", `/api/articles/${created.id}`, editor, { title: "Багато", content: `v${i}`, category_id: science, status: "draft" });
      expect(res.status).toBe(200);
    }
    expect(await revisionCount(created.id)).toBe(REVISIONS_KEPT);
    const page = await (await send("GET", `/api/articles/${created.id}/revisions?skip=99&limit=500`, editor)).json();
    expect(page).toMatchObject({ total: 100, skip: 99, limit: 100 });
    expect(page.data).toHaveLength(1);
    // The oldest kept is v5: v0 (first) to v4 were pruned.
    const oldest = await (await send("GET", `/api/articles/${created.id}/revisions/${page.data[0].id}`, editor)).json();
    expect(oldest.content).toBe("v5");
    const newest = (await (await send("GET", `/api/articles/${created.id}/revisions?limit=1`, editor)).json()).data[0];
    expect((await (await send("GET", `/api/articles/${created.id}/revisions/${newest.id}`, editor)).json()).content).toBe(`v${REVISIONS_KEPT + 4}`);
  });

  it("restore saves the revision's fields as a new revision, keeps status and slug, and obeys the edit-conflict rule", async () => {
    const a = await (
      await send("POST", "/api/articles/", editor, { title: "Оригінал", content: "Старий текст", category_id: science, tags: "x, y", status: "published" })
    ).json();
    const edited = await (
      await send("PUT", `/api/articles/${a.id}`, editor, { title: "Правка", content: "Новий текст", category_id: science, tags: "z", status: "published" })
    ).json();
    expect(edited.version).toBe(2);
    const [, first] = (await (await send("GET", `/api/articles/${a.id}/revisions`, editor)).json()).data;
    // Someone saved version 3 meanwhile: a restore based on version 2 is refused and changes nothing.
    await send("PUT", `/api/articles/${a.id}`, editor, {
      title: "Чужа правка",
      content: "Новий текст",
      category_id: science,
      tags: "z",
      status: "published",
      version: 2,
    });
    const stale = await send("POST", `/api/articles/${a.id}/revisions/${first.id}/restore`, editor, { version: 2 });
    expect(stale.status).toBe(409);
    expect((await stale.json()).detail).toContain("Ім'я eddie");
    expect((await (await send("GET", `/api/articles/${a.id}`, editor)).json()).title).toBe("Чужа правка");
    const restored = await send("POST", `/api/articles/${a.id}/revisions/${first.id}/restore`, editor, { version: 3 });
    expect(restored.status).toBe(200);
    expect(await restored.json()).toMatchObject({
      title: "Оригінал",
      content: "Старий текст",
      tags: ["x", "y"],
      status: "published",
      slug: a.slug,
      version: 4,
    });
    const list = (await (await send("GET", `/api/articles/${a.id}/revisions`, editor)).json()).data;
    expect(list).toHaveLength(4);
    // Issue 31 item 17: a restore's revision names the version it restored, in Kyiv time.
    expect(list[0]).toMatchObject({ title: "Оригінал", summary: expect.stringMatching(/^Відновлено з версії від \d\d\.\d\d\.\d{4} о \d\d:\d\d$/) });
    // Without a body, no version check.
    expect((await send("POST", `/api/articles/${a.id}/revisions/${list[1].id}/restore`, editor)).status).toBe(200);
    // Readers see the restored text.
    const page = await request(`/article/${a.slug}`);
    expect(await page.text()).toContain("Чужа правка");
  });

  it("only those who may edit the article read or restore its revisions; unknown ids are 404, bad bodies 422", async () => {
    const own = await (await send("POST", "/api/articles/", reporter, { title: "Моя чернетка", content: "текст", category_id: science })).json();
    const rev = (await (await send("GET", `/api/articles/${own.id}/revisions`, reporter)).json()).data[0];
    expect((await send("GET", `/api/articles/${own.id}/revisions/${rev.id}`, reporter)).status).toBe(200);
    expect((await send("GET", `/api/articles/${own.id}/revisions`, reporter2)).status).toBe(403);
    expect((await send("GET", `/api/articles/${own.id}/revisions/${rev.id}`, reporter2)).status).toBe(403);
    expect((await send("POST", `/api/articles/${own.id}/revisions/${rev.id}/restore`, reporter2)).status).toBe(403);
    expect((await send("GET", `/api/articles/${own.id}/revisions`, null)).status).toBe(401);
    expect((await send("GET", `/api/articles/${own.id}/revisions`, editor)).status).toBe(200);
    // A published article is no longer the reporter's to edit.
    await send("POST", `/api/articles/${own.id}/publish`, editor, {});
    expect((await send("GET", `/api/articles/${own.id}/revisions`, reporter)).status).toBe(403);
    expect((await send("GET", `/api/articles/no-such/revisions`, editor)).status).toBe(404);
    expect((await send("GET", `/api/articles/${own.id}/revisions/999999`, editor)).status).toBe(404);
    expect((await send("GET", `/api/articles/${own.id}/revisions/abc`, editor)).status).toBe(404);
    const other = await (await send("POST", "/api/articles/", editor, { title: "Інша", content: "т", category_id: science })).json();
    // A revision of another article is not this article's.
    expect((await send("GET", `/api/articles/${other.id}/revisions/${rev.id}`, editor)).status).toBe(404);
    expect((await send("POST", `/api/articles/${own.id}/revisions/${rev.id}/restore`, editor, { version: "x" })).status).toBe(422);
    expect(reporterId).toBeTruthy();
  });

  it("the History page works without JavaScript: list, word diff, restore with a confirmation step, conflict, preview link", async () => {
    const a = await (await send("POST", "/api/articles/", editor, { title: "Історія", content: "Сонце сходить на сході", category_id: science })).json();
    await send("PUT", `/api/articles/${a.id}`, editor, { title: "Історія", content: "Сонце сходить на заході", category_id: science, status: "draft" });
    const page = `/admin/articles/edit/${a.id}/history`;
    const list = await request(page, { headers: { Cookie: editorCookie } });
    expect(list.status).toBe(200);
    const listHtml = await list.text();
    expect(listHtml).toContain("Змінено: вміст");
    expect(listHtml).toContain("Перша версія");
    expect(listHtml).toContain("Ім&#x27;я eddie");
    const first = (await (await send("GET", `/api/articles/${a.id}/revisions`, editor)).json()).data[1];

    const compare = await (await request(`${page}?rev=${first.id}`, { headers: { Cookie: editorCookie } })).text();
    expect(compare).toContain("<del>сході</del>");
    expect(compare).toContain("<ins>заході</ins>");
    expect(compare).toContain("Відновити цю версію");

    const post = (fields: Record<string, string>) => request(page, { method: "POST", headers: { Cookie: editorCookie }, body: new URLSearchParams(fields) });
    // Step one: the question, nothing saved.
    const asked = await post({ intent: "restore", rev: String(first.id), version: "2" });
    expect(asked.status).toBe(200);
    expect(await asked.text()).toMatch(/role="alertdialog"[\s\S]*Відновити версію/);
    expect((await (await send("GET", `/api/articles/${a.id}`, editor)).json()).content).toBe("Сонце сходить на заході");
    // A stale version: 409 with the conflict message, nothing saved.
    const stale = await post({ intent: "restore", rev: String(first.id), version: "1", confirmed: "1" });
    expect(stale.status).toBe(409);
    expect(await stale.text()).toContain("Статтю вже змінив(ла)");
    expect((await (await send("GET", `/api/articles/${a.id}`, editor)).json()).version).toBe(2);
    // Confirmed: saved as a new version, back to the editor with a message.
    const done = await post({ intent: "restore", rev: String(first.id), version: "2", confirmed: "1" });
    expect(done.status).toBe(302);
    expect(done.headers.get("location")).toBe(`/admin/articles/edit/${a.id}`);
    expect(await (await send("GET", `/api/articles/${a.id}`, editor)).json()).toMatchObject({ content: "Сонце сходить на сході", version: 3 });
    expect(await revisionCount(a.id)).toBe(3);

    // The preview link button without JavaScript posts here.
    const link = await post({ intent: "preview-link" });
    expect(link.status).toBe(200);
    expect(await link.text()).toMatch(/\/preview\/[A-Za-z0-9_-]{43}/);
    expect((await post({ intent: "preview-revoke" })).status).toBe(200);
    expect((await post({ intent: "nonsense" })).status).toBe(400);

    // Someone who may not edit the article sees neither the page nor its actions.
    const robCookie = await cookieFor((await db.selectFrom("users").select("id").where("username", "=", "rob").executeTakeFirstOrThrow()).id);
    expect((await request(page, { headers: { Cookie: robCookie } })).status).toBe(403);
    const refused = await request(page, {
      method: "POST",
      headers: { Cookie: robCookie },
      body: new URLSearchParams({ intent: "restore", rev: String(first.id), confirmed: "1" }),
    });
    expect(refused.status).toBe(403);
    expect((await request(`/admin/articles/edit/no-such/history`, { headers: { Cookie: editorCookie } })).status).toBe(404);
    expect((await request(`${page}?rev=99999999`, { headers: { Cookie: editorCookie } })).status).toBe(200);
  });
});
