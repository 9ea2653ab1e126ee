import { beforeAll, describe, expect, it } from "vitest";
import { createCategory } from "../../app/models/category.server";
import { createUser } from "../../app/models/user.server";
import { db } from "../../db/index";
import { migrated, sendJson, TEST_ACTOR, tokenFor } from "../helpers";

// Issue 15: the editor's server-side autosave copy, one per article and user, offered back only
// while newer than the saved article, cleared by that user's save, for who may edit the article.

const send = sendJson;

let editor: string, admin: string, reporter: string, science: string;

describe("server-side autosave", () => {
  beforeAll(async () => {
    await migrated();
    for (const [username, role] of [
      ["eddie", "editor"],
      ["boss", "admin"],
      ["rita", "reporter"],
    ] as const) {
      await createUser({ username, email: `${username}@example.com`, password: "correct-horse", role });
    }
    [editor, admin, reporter] = await Promise.all(["eddie", "boss", "rita"].map(tokenFor));
    science = (await createCategory({ actor: TEST_ACTOR, input: { name: "Наука", description: null, slug: undefined } })).id;
  });

  it("keeps one copy per article and user, offers it while newer than the saved text, and a save clears it", async () => {
    const a = await (await send("POST", "/api/articles/", editor, { title: "Автозбереження", content: "збережений текст", category_id: science })).json();
    const url = `/api/articles/${a.id}/autosave`;
    expect(await (await send("GET", url, editor)).json()).toEqual({ autosave: null });
    const first = await send("PUT", url, editor, { fields: { title: "Автозбереження", content: "набраний текст 1" } });
    expect(first.status).toBe(200);
    const second = await send("PUT", url, editor, { fields: { title: "Автозбереження", content: "набраний текст 2" } });
    const { saved_at } = await second.json();
    const got = await (await send("GET", url, editor)).json();
    expect(got).toEqual({ autosave: { saved_at, fields: { title: "Автозбереження", content: "набраний текст 2" } } });
    expect(await db.selectFrom("article_autosaves").selectAll().where("article_id", "=", a.id).execute()).toHaveLength(1);
    // Another user has their own copy (none yet).
    expect(await (await send("GET", url, admin)).json()).toEqual({ autosave: null });
    await send("PUT", url, admin, { fields: { content: "текст адміністратора" } });
    expect(await db.selectFrom("article_autosaves").selectAll().where("article_id", "=", a.id).execute()).toHaveLength(2);

    // Someone else's save makes the editor's copy older than the saved text: no longer offered.
    await send("PUT", `/api/articles/${a.id}`, admin, { title: "Автозбереження", content: "новий збережений текст", category_id: science, status: "draft" });
    expect(await (await send("GET", url, editor)).json()).toEqual({ autosave: null });
    // The saver's own copy is cleared.
    const rows = await db
      .selectFrom("article_autosaves")
      .innerJoin("users", "users.id", "article_autosaves.user_id")
      .select("users.username")
      .where("article_id", "=", a.id)
      .execute();
    expect(rows).toEqual([{ username: "eddie" }]);

    await send("PUT", url, editor, { fields: { content: "ще новіший" } });
    expect((await (await send("GET", url, editor)).json()).autosave.fields.content).toBe("ще новіший");
    expect((await send("DELETE", url, editor)).status).toBe(204);
    expect(await (await send("GET", url, editor)).json()).toEqual({ autosave: null });
  });

  it("only who may edit the article; bad bodies are 422", async () => {
    const a = await (await send("POST", "/api/articles/", editor, { title: "Чуже", content: "т", category_id: science })).json();
    const url = `/api/articles/${a.id}/autosave`;
    expect((await send("GET", url, null)).status).toBe(401);
    expect((await send("GET", url, reporter)).status).toBe(403);
    expect((await send("PUT", url, reporter, { fields: { content: "x" } })).status).toBe(403);
    expect((await send("GET", "/api/articles/nope/autosave", editor)).status).toBe(404);
    expect((await send("PUT", url, editor, { fields: { content: 5 } })).status).toBe(422);
    expect((await send("PUT", url, editor, { fields: { unknown: "x" } })).status).toBe(422);
    expect((await send("PUT", url, editor, { content: "x" })).status).toBe(422);
    expect((await send("POST", url, editor, { fields: {} })).status).toBe(405);
    expect(await db.selectFrom("article_autosaves").selectAll().where("article_id", "=", a.id).execute()).toHaveLength(0);
  });
});
