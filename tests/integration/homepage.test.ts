import { beforeAll, describe, expect, it } from "vitest";
import { insertArticle } from "../../app/models/article.server";
import { checkBlockRules, getHomepageLayout, HOMEPAGE_BLOCKS, saveHomepageLayout } from "../../app/models/homepage.server";
import { createUser } from "../../app/models/user.server";
import { applyLayoutOp } from "../../app/routes/admin.homepage/homepage-ops";
import { db, writeTransaction } from "../../db/index";
import { migrated, request, TEST_ACTOR, tokenFor } from "../helpers";

// The block rules (SPEC §5 'Homepage blocks') and GET/PUT /api/homepage/config.

const ids: string[] = [];
let draft: string;

async function article(n: number, status: "published" | "draft" = "published") {
  return writeTransaction((trx) =>
    insertArticle(trx, {
      slug: `stattia-${n}-${status}`,
      title: `Стаття ${n}`,
      content: "Текст",
      contentHtml: "<p>Текст</p>",
      categoryId: null,
      authorId: null,
      status,
      publishedAt: status === "published" ? new Date(Date.now() - n * 60_000).toISOString() : null,
      tags: [],
    }),
  );
}

const put = (token: string | undefined, body: unknown, type = "application/json") =>
  request("/api/homepage/config", {
    method: "PUT",
    headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), "Content-Type": type },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
const layoutRows = async () => db.selectFrom("homepage_blocks").selectAll().orderBy("block_id").orderBy("position").execute();

let editor: string;
let reporter: string;

describe("homepage block rules", () => {
  it("maximums: hero 1, main 3, sidebar 5, trending 4, featured 6", () => {
    expect(Object.fromEntries(HOMEPAGE_BLOCKS.map((b) => [b.id, b.maxArticles]))).toEqual({ hero: 1, main: 3, sidebar: 5, trending: 4, featured: 6 });
  });

  it("checkBlockRules refuses too many and duplicates in one block, allows one article in several blocks", () => {
    expect(checkBlockRules([{ id: "hero", articles: ["a", "b"] }])).toHaveProperty("blocks.hero");
    expect(checkBlockRules([{ id: "main", articles: ["a", "a"] }])["blocks.main"]).toMatch(/вже є/);
    expect(
      checkBlockRules([
        { id: "main", articles: ["a"] },
        { id: "main", articles: [] },
      ])["blocks.main"],
    ).toMatch(/двічі/);
    expect(
      checkBlockRules([
        { id: "hero", articles: ["a"] },
        { id: "main", articles: ["a", "b", "c"] },
        { id: "featured", articles: ["a"] },
      ]),
    ).toEqual({});
  });

  it("applyLayoutOp adds only with room and without a duplicate, moves and removes", () => {
    const blocks = HOMEPAGE_BLOCKS;
    let layout: Record<string, string[]> = { hero: [], main: ["x"] };
    const added = applyLayoutOp(blocks, layout, { type: "add", blockId: "hero", articleId: "x" });
    expect(added).toMatchObject({ ok: true, layout: { hero: ["x"], main: ["x"] } });
    layout = (added as { layout: typeof layout }).layout;
    expect(applyLayoutOp(blocks, layout, { type: "add", blockId: "hero", articleId: "y" })).toEqual({
      ok: false,
      reason: "Блок «Головна історія» заповнено (1/1)",
    });
    expect(applyLayoutOp(blocks, layout, { type: "add", blockId: "main", articleId: "x" })).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/вже є/),
    });
    const two = applyLayoutOp(blocks, layout, { type: "add", blockId: "main", articleId: "y", index: 0 });
    expect(two).toMatchObject({ layout: { main: ["y", "x"] } });
    expect(applyLayoutOp(blocks, (two as { layout: typeof layout }).layout, { type: "move", blockId: "main", from: 0, to: 1 })).toMatchObject({
      layout: { main: ["x", "y"] },
    });
    expect(applyLayoutOp(blocks, layout, { type: "remove", blockId: "main", index: 0 })).toMatchObject({ layout: { main: [] } });
    expect(applyLayoutOp(blocks, layout, { type: "remove", blockId: "main", index: 5 }).ok).toBe(false);
    expect(applyLayoutOp(blocks, layout, { type: "add", blockId: "nowhere", articleId: "x" }).ok).toBe(false);
  });
});

describe("/api/homepage/config", () => {
  beforeAll(async () => {
    await migrated();
    for (let n = 0; n < 8; n++) ids.push(await article(n));
    draft = await article(99, "draft");
    await createUser({ username: "eddie", email: "e@example.com", password: "correct-horse", role: "editor" });
    await createUser({ username: "rita", email: "r@example.com", password: "correct-horse", role: "reporter" });
    editor = await tokenFor("eddie");
    reporter = await tokenFor("rita");
  });

  it("401 without a token, 403 for a reporter; nothing written", async () => {
    expect((await request("/api/homepage/config")).status).toBe(401);
    expect((await put(undefined, { blocks: [] })).status).toBe(401);
    expect((await request("/api/homepage/config", { headers: { Authorization: `Bearer ${reporter}` } })).status).toBe(403);
    expect((await put(reporter, { blocks: [{ id: "hero", articles: [ids[0]] }] })).status).toBe(403);
    expect(await layoutRows()).toEqual([]);
  });

  it("saves and reads back the blocks with id, name, articles and maxArticles", async () => {
    const res = await put(editor, {
      blocks: [
        { id: "hero", name: "Головна історія", articles: [ids[0]], maxArticles: 1 },
        { id: "main", articles: [ids[1], ids[2], ids[0]] },
        { id: "trending", articles: [{ id: ids[3] }] },
      ],
    });
    expect(res.status).toBe(200);
    const got = await (await request("/api/homepage/config/", { headers: { Authorization: `Bearer ${editor}` } })).json();
    expect(got.blocks).toEqual([
      { id: "hero", name: "Головна історія", articles: [ids[0]], maxArticles: 1 },
      { id: "main", name: "Останні наукові відкриття", articles: [ids[1], ids[2], ids[0]], maxArticles: 3 },
      { id: "sidebar", name: "Стрічка новин", articles: [], maxArticles: 5 },
      { id: "trending", name: "Популярне", articles: [ids[3]], maxArticles: 4 },
      { id: "featured", name: "Вибрані публікації", articles: [], maxArticles: 6 },
    ]);
    expect((await getHomepageLayout()).main).toEqual([ids[1], ids[2], ids[0]]);
  });

  it("422 for a full block, a duplicate, an unknown or unpublished article, an unknown block; the layout stays", async () => {
    const before = await layoutRows();
    for (const blocks of [
      [{ id: "hero", articles: [ids[0], ids[1]] }],
      [{ id: "main", articles: [ids[1], ids[1]] }],
      [{ id: "sidebar", articles: ["no-such-article"] }],
      [{ id: "sidebar", articles: [draft] }],
      [{ id: "footer", articles: [] }],
      [{ id: "hero", articles: "abc" }],
    ]) {
      const res = await put(editor, { blocks });
      expect(res.status, JSON.stringify(blocks)).toBe(422);
      expect((await res.json()).detail).toBeTruthy();
    }
    expect(await layoutRows()).toEqual(before);
    await expect(saveHomepageLayout([{ id: "featured", articles: [draft] }], TEST_ACTOR)).rejects.toMatchObject({ status: 422 });
  });

  it("400 for malformed JSON, 415 for another content type, 413 for a huge body, 405 for POST", async () => {
    expect((await put(editor, "{not json")).status).toBe(400);
    expect((await put(editor, "blocks=1", "application/x-www-form-urlencoded")).status).toBe(415);
    expect((await put(editor, JSON.stringify({ blocks: [], pad: "x".repeat(9 * 1024 * 1024) }))).status).toBe(413);
    expect((await request("/api/homepage/config", { method: "POST", headers: { Authorization: `Bearer ${editor}` } })).status).toBe(405);
  });
});
