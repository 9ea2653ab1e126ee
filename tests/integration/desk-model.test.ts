// Issue 14: the desk's domain functions with a controllable clock: publishDue({ now }) publishes
// exactly the scheduled articles whose time has come, once, and nothing else; a failing call
// writes nothing (no half-writes).
import { beforeAll, describe, expect, it } from "vitest";
import { publishArticle, publishDue, returnArticle, submitArticle } from "../../app/models/article-desk.server";
import { listRevisions } from "../../app/models/article-revision.server";
import { insertArticle, updateArticle } from "../../app/models/article-writes.server";
import { restoreRevision } from "../../app/services/article-history.server";
import { DomainError } from "../../app/utils/errors";
import { db, writeTransaction } from "../../db/index";
import { migrated } from "../helpers";

const editor = { id: "u-editor", username: "u-editor", role: "editor" as const, ip: null };
const reporter = { id: "u-reporter", username: "u-reporter", role: "reporter" as const, ip: null };

async function article(id: string, authorId = reporter.id) {
  await writeTransaction((trx) =>
    insertArticle(trx, { id, slug: id, title: id, content: "текст", contentHtml: "<p>текст</p>", categoryId: null, authorId, status: "draft", tags: [] }),
  );
  return id;
}
const status = async (id: string) =>
  await db.selectFrom("articles").select(["status", "published_at", "version"]).where("id", "=", id).executeTakeFirstOrThrow();
const hour = 3_600_000;

beforeAll(async () => {
  await migrated();
  for (const u of [editor, reporter]) {
    await db
      .insertInto("users")
      .values({ id: u.id, username: u.id, email: `${u.id}@example.com`, password_hash: "x", role: u.role })
      .execute();
  }
});

describe("publishDue with a controllable clock", () => {
  it("publishes the due ones at their time and leaves the rest", async () => {
    const soon = await article("soon");
    const later = await article("later");
    const draft = await article("plain-draft");
    const t1 = new Date(Date.now() + hour).toISOString();
    const t2 = new Date(Date.now() + 2 * hour).toISOString();
    expect((await publishArticle({ actor: editor, id: soon, publishAt: t1 })).status).toBe("scheduled");
    expect((await publishArticle({ actor: editor, id: later, publishAt: t2 })).status).toBe("scheduled");

    expect(await publishDue({ now: new Date(Date.parse(t1) - 1) })).toEqual([]);
    expect(await publishDue({ now: new Date(t1) })).toEqual([soon]);
    expect(await status(soon)).toMatchObject({ status: "published", published_at: t1 });
    expect(await status(later)).toMatchObject({ status: "scheduled", published_at: t2 });
    // Once only.
    expect(await publishDue({ now: new Date(t1) })).toEqual([]);
    expect(await publishDue({ now: new Date(Date.parse(t2) + hour) })).toEqual([later]);
    expect((await status(draft)).status).toBe("draft");
  });
});

describe("the desk's calls write all or nothing", () => {
  it("a refused or invalid call leaves the article and the notes as they were", async () => {
    const id = await article("refused");
    const before = await status(id);
    const notes = async () => (await db.selectFrom("article_desk_notes").selectAll().where("article_id", "=", id).execute()).length;
    const refused = async (fn: () => Promise<unknown>, code: number) => {
      const error = await fn().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(DomainError);
      expect((error as DomainError).status).toBe(code);
    };
    await refused(() => submitArticle({ actor: editor, id, note: "не автор" }), 403);
    await refused(() => returnArticle({ actor: editor, id, note: "не на перевірці" }), 409);
    await refused(() => publishArticle({ actor: editor, id, publishAt: "2020-01-01T00:00:00Z" }), 422);
    await refused(() => publishArticle({ actor: reporter, id, publishAt: new Date(Date.now() + hour).toISOString() }), 403);
    await refused(() => submitArticle({ actor: reporter, id: "no-such", note: null }), 404);
    expect(await status(id)).toEqual(before);
    expect(await notes()).toBe(0);

    await submitArticle({ actor: reporter, id, note: "  " });
    await refused(() => returnArticle({ actor: editor, id, note: "" }), 422);
    expect((await status(id)).status).toBe("review");
    expect(await notes()).toBe(1);
  });
});

describe("revisions across a schedule (issues 14 and 15 together)", () => {
  it("an edit while scheduled is a revision and keeps the schedule; a restore keeps it too; the scheduled publish itself adds none", async () => {
    const categoryId = "cat-desk-rev";
    await db.insertInto("categories").values({ id: categoryId, name: "Редакція", slug: "desk-rev" }).execute();
    const id = await article("scheduled-rev", editor.id);
    await db.updateTable("articles").set({ category_id: categoryId }).where("id", "=", id).execute();
    const at = new Date(Date.now() + hour).toISOString();
    await publishArticle({ actor: editor, id, publishAt: at });
    const input = (content: string) => ({
      title: "Ембарго",
      subtitle: null,
      content,
      category_id: categoryId,
      tags: [],
      featured_image: null,
      featured_image_alt: null,
      featured_image_caption: null,
      seo_title: null,
      seo_description: null,
      slug: undefined,
      status: "scheduled" as const,
    });
    await updateArticle({ actor: editor, id, input: input("перша редакція") });
    await updateArticle({ actor: editor, id, input: input("друга редакція") });
    expect(await status(id)).toMatchObject({ status: "scheduled", published_at: at });
    const revisions = await listRevisions({ articleId: id, skip: 0, limit: 100 });
    // The text before the first edit ("Перша версія") and the two edits.
    expect(revisions.total).toBe(3);
    const first = revisions.data.find((r) => r.summary.includes("вміст") && r.id !== revisions.data[0].id)!;

    await restoreRevision({ actor: editor, articleId: id, revisionId: first.id });
    expect(await status(id)).toMatchObject({ status: "scheduled", published_at: at });
    expect((await listRevisions({ articleId: id, skip: 0, limit: 100 })).total).toBe(4);

    expect(await publishDue({ now: new Date(Date.parse(at) + 1) })).toContain(id);
    expect(await status(id)).toMatchObject({ status: "published", published_at: at });
    expect((await listRevisions({ articleId: id, skip: 0, limit: 100 })).total).toBe(4);
    const row = await db.selectFrom("articles").select("content").where("id", "=", id).executeTakeFirstOrThrow();
    expect(row.content).toBe("перша редакція");
  });
});
