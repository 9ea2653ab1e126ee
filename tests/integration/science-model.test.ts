// Issue 29 items 3–5 (DESIGN §16) at the domain level, on the test's own database (SQLite, or
// PostgreSQL under `npm run test:pg`): an embargo that no domain function and no raw write can
// break, a schedule at the embargo going out then, corrections kept with their revision, sources.
import { sql } from "kysely";
import { beforeAll, describe, expect, it } from "vitest";
import { publishArticle, publishDue } from "../../app/models/article-desk.server";
import { listRevisions } from "../../app/models/article-revision.server";
import { articleScience } from "../../app/models/article-science.server";
import { bulkArticleAction, createArticle, insertArticle, setArticleStatus, updateArticle } from "../../app/models/article-writes.server";
import { listSiteCorrections } from "../../app/models/corrections.server";
import { restoreRevision } from "../../app/services/article-history.server";
import { DomainError } from "../../app/utils/errors";
import { ArticleInputSchema } from "../../app/utils/newsroom-rules";
import { normaliseDoi, SourceSchema } from "../../app/utils/science-rules";
import { db, writeTransaction } from "../../db/index";
import { migrated } from "../helpers";

const admin = { id: "s-admin", username: "s-admin", role: "admin" as const, ip: null };
const editor = { id: "s-editor", username: "s-editor", role: "editor" as const, ip: null };
const reporter = { id: "s-reporter", username: "s-reporter", role: "reporter" as const, ip: null };
const hour = 3_600_000;
const inMs = (ms: number) => new Date(Date.now() + ms).toISOString();
let categoryId = "";

const input = (over: Record<string, unknown> = {}) =>
  ArticleInputSchema.parse({ title: `Стаття ${Math.random()}`, content: "Текст статті.", category_id: categoryId, status: "draft", ...over });

const row = (id: string) =>
  db
    .selectFrom("articles")
    .select(["status", "published_at", "embargo_until", "embargo_note", "updated_significantly_at", "version"])
    .where("id", "=", id)
    .executeTakeFirstOrThrow();

async function refused(promise: Promise<unknown>, status: number, message: RegExp) {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, "expected a refusal").toBeInstanceOf(DomainError);
  expect((error as DomainError).status).toBe(status);
  expect((error as DomainError).message).toMatch(message);
}

beforeAll(async () => {
  await migrated();
  for (const u of [admin, editor, reporter]) {
    await db
      .insertInto("users")
      .values({ id: u.id, username: u.id, email: `${u.id}@example.com`, password_hash: "x", role: u.role })
      .execute();
  }
  categoryId = "c0ffee00-0000-4000-8000-000000000001";
  await db.insertInto("categories").values({ id: categoryId, name: "Наука", slug: "nauka", description: null }).execute();
});

describe("an embargo no domain function breaks", () => {
  it("refuses every way of publishing early, for every role, and writes nothing", async () => {
    const until = inMs(2 * hour);
    const a = await createArticle({ actor: reporter, input: input({ embargo_until: until, embargo_note: "Nature, 16:00 Лондон" }) });
    expect(a).toMatchObject({ embargo_until: until, embargo_note: "Nature, 16:00 Лондон", sources: [], corrections: [] });
    const before = await row(a.id);
    const early = /під ембарго до .* не можна опублікувати раніше/;
    for (const actor of [editor, admin]) {
      await refused(updateArticle({ actor, id: a.id, input: input({ title: a.title, status: "published" }) }), 409, early);
      await refused(setArticleStatus({ actor, id: a.id, status: "published" }), 409, early);
      await refused(publishArticle({ actor, id: a.id }), 409, early);
      await refused(bulkArticleAction({ actor, ids: [a.id], action: "publish" }), 409, early);
      await refused(publishArticle({ actor, id: a.id, publishAt: inMs(hour) }), 422, /не можна запланувати раніше/);
      // Created published with an embargo ahead.
      await refused(createArticle({ actor, input: input({ status: "published", embargo_until: until }) }), 409, early);
    }
    // The import path writes through insertArticle.
    await refused(
      writeTransaction((trx) =>
        insertArticle(trx, {
          slug: `imp-${Date.now()}`,
          title: "Імпорт",
          content: "x",
          contentHtml: "<p>x</p>",
          categoryId,
          authorId: editor.id,
          status: "published",
          tags: [],
          embargoUntil: until,
        }),
      ),
      409,
      early,
    );
    // Lifting or shortening an embargo in force is an admin's correction only.
    for (const actor of [reporter, editor]) {
      const id = actor === reporter ? a.id : a.id;
      await refused(updateArticle({ actor, id, input: input({ title: a.title, embargo_until: null }) }), 403, /лише адміністратор/);
      await refused(updateArticle({ actor, id, input: input({ title: a.title, embargo_until: inMs(hour) }) }), 403, /лише адміністратор/);
    }
    expect(await row(a.id)).toEqual(before);
  });

  it("the database itself refuses a published row before its embargo, whatever code writes it", async () => {
    const a = await createArticle({ actor: editor, input: input({ embargo_until: inMs(hour) }) });
    await expect(sql`update articles set status = 'published' where id = ${a.id}`.execute(db)).rejects.toThrow(/embargo/);
    const live = await createArticle({ actor: editor, input: input({ status: "published" }) });
    await expect(sql`update articles set embargo_until = ${inMs(hour)} where id = ${live.id}`.execute(db)).rejects.toThrow(/embargo/);
    expect((await row(a.id)).status).toBe("draft");
    expect((await row(live.id)).embargo_until).toBeNull();
  });

  it("a schedule at the embargo waits for it, and the scheduler never publishes before it lifts", async () => {
    const until = inMs(5_000);
    const a = await createArticle({ actor: editor, input: input({ embargo_until: until }) });
    const scheduled = await publishArticle({ actor: editor, id: a.id, publishAt: until });
    expect(scheduled.status).toBe("scheduled");
    // A restore keeps the schedule (it never publishes).
    const [rev] = (await listRevisions({ articleId: a.id, skip: 0, limit: 1 })).data;
    expect((await restoreRevision({ actor: editor, articleId: a.id, revisionId: rev.id })).status).toBe("scheduled");
    expect(await publishDue()).toEqual([]);
    expect((await row(a.id)).status).toBe("scheduled");
    // An embargo moved past the schedule is refused while scheduled (the time would break it).
    await refused(
      updateArticle({ actor: editor, id: a.id, input: input({ title: a.title, status: "scheduled", embargo_until: inMs(hour) }) }),
      422,
      /не можна запланувати раніше/,
    );
    await new Promise((r) => setTimeout(r, Date.parse(until) - Date.now() + 50));
    expect(await publishDue()).toEqual([a.id]);
    expect(await row(a.id)).toMatchObject({ status: "published", published_at: until });
  });

  it("an admin may correct a wrong embargo; once lifted, anyone with the right publishes", async () => {
    const a = await createArticle({ actor: editor, input: input({ embargo_until: inMs(hour) }) });
    const fixed = await updateArticle({ actor: admin, id: a.id, input: input({ title: a.title, embargo_until: inMs(-1_000) }) });
    expect(fixed.embargo_until! < new Date().toISOString()).toBe(true);
    expect((await setArticleStatus({ actor: editor, id: a.id, status: "published" })).status).toBe("published");
    // A later embargo may be set by whoever edits a draft.
    const b = await createArticle({ actor: reporter, input: input() });
    expect((await updateArticle({ actor: reporter, id: b.id, input: input({ title: b.title, embargo_until: inMs(hour) }) })).embargo_until).not.toBeNull();
  });
});

describe("corrections", () => {
  it("are kept with the revision their save wrote, newest first, listed site-wide, and need a note", async () => {
    const a = await createArticle({ actor: editor, input: input({ status: "published" }) });
    expect(ArticleInputSchema.safeParse({ title: "x", content: "x", category_id: categoryId, correction: true }).error?.issues[0]).toMatchObject({
      path: ["correction_note"],
      message: "Опишіть виправлення: примітка обов'язкова",
    });
    await updateArticle({
      actor: editor,
      id: a.id,
      input: input({
        title: a.title,
        content: "Текст статті, виправлений.",
        status: "published",
        correction: true,
        correction_note: "Виправлено рік дослідження",
      }),
    });
    // A correction that changes no kept field still has a revision of its own.
    const second = await updateArticle({
      actor: editor,
      id: a.id,
      input: input({ title: a.title, content: "Текст статті, виправлений.", status: "published", correction: true, correction_note: "Уточнено назву журналу" }),
    });
    expect(second.corrections.map((c) => c.note)).toEqual(["Уточнено назву журналу", "Виправлено рік дослідження"]);
    expect(second.updated_significantly_at).toBe(second.corrections[0].created_at);
    const revisions = (await listRevisions({ articleId: a.id, skip: 0, limit: 10 })).data;
    expect(revisions[0].summary).toBe("Виправлення: Уточнено назву журналу");
    expect(revisions[1].summary).toMatch(/^Виправлення: Виправлено рік дослідження · Змінено: вміст/);
    expect(second.corrections.map((c) => c.revision_id)).toEqual([revisions[0].id, revisions[1].id]);
    const site = await listSiteCorrections();
    expect(site.data.slice(0, 2).map((c) => [c.note, c.article.id])).toEqual([
      ["Уточнено назву журналу", a.id],
      ["Виправлено рік дослідження", a.id],
    ]);
    // Only a published article's save is a correction.
    const draft = await createArticle({ actor: editor, input: input() });
    await refused(
      updateArticle({ actor: editor, id: draft.id, input: input({ title: draft.title, correction: true, correction_note: "x" }) }),
      422,
      /опублікованої статті/,
    );
    // An unpublished article's corrections leave the site-wide list.
    await setArticleStatus({ actor: editor, id: a.id, status: "draft" });
    expect((await listSiteCorrections()).data.some((c) => c.article.id === a.id)).toBe(false);
  });
});

describe("sources", () => {
  it("validates DOIs by shape and normalises them", () => {
    expect(normaliseDoi("https://doi.org/10.1038/S41586-020-2649-2")).toBe("10.1038/s41586-020-2649-2");
    expect(normaliseDoi("doi:10.1101/2024.01.02.123456")).toBe("10.1101/2024.01.02.123456");
    expect(normaliseDoi(" http://dx.doi.org/10.5281/zenodo.123 ")).toBe("10.5281/zenodo.123");
    for (const bad of ["", "10.12/x", "11.1038/abc", "10.1038", "10.1038/", "https://example.org/10.1038/x", "10.abcd/x"])
      expect(normaliseDoi(bad), bad).toBeUndefined();
    const bad = SourceSchema.safeParse({ title: "x", doi: "nature.com/x" });
    expect(bad.error?.issues[0]).toMatchObject({ path: ["doi"], message: expect.stringMatching(/^DOI має вигляд 10\.NNNN/) });
    expect(SourceSchema.safeParse({ doi: "10.1038/x" }).error?.issues[0].message).toMatch(/Назва джерела обов'язкова/);
    expect(SourceSchema.safeParse({ title: "x", year: "20x4" }).error?.issues[0].message).toMatch(/^Рік/);
    expect(SourceSchema.safeParse({ title: "x", url: "javascript:alert(1)" }).error?.issues[0].message).toMatch(/http/);
  });

  it("are saved in order, replaced by a save that sends them, kept by one that does not", async () => {
    const sources = [
      {
        kind: "study",
        doi: "https://doi.org/10.1038/S41586-020-2649-2",
        title: "Array programming with NumPy",
        publisher: "Nature",
        year: 2020,
        peer_reviewed: true,
        url: null,
      },
      { kind: "study", doi: "doi:10.1101/2024.01.02.123456", title: "Препринт", publisher: "bioRxiv", year: "2024", peer_reviewed: false },
      { kind: "dataset", title: "Дані спостережень", url: "https://example.org/data" },
    ];
    const a = await createArticle({ actor: editor, input: input({ sources }) });
    expect(a.sources).toEqual([
      {
        kind: "study",
        doi: "10.1038/s41586-020-2649-2",
        title: "Array programming with NumPy",
        publisher: "Nature",
        year: 2020,
        peer_reviewed: true,
        url: null,
      },
      { kind: "study", doi: "10.1101/2024.01.02.123456", title: "Препринт", publisher: "bioRxiv", year: 2024, peer_reviewed: false, url: null },
      { kind: "dataset", doi: null, title: "Дані спостережень", publisher: null, year: null, peer_reviewed: null, url: "https://example.org/data" },
    ]);
    await updateArticle({ actor: editor, id: a.id, input: input({ title: a.title }) });
    expect((await articleScience(a.id)).sources).toHaveLength(3);
    await updateArticle({ actor: editor, id: a.id, input: input({ title: a.title, sources: [sources[2]] }) });
    expect((await articleScience(a.id)).sources.map((s) => s.title)).toEqual(["Дані спостережень"]);
  });
});
