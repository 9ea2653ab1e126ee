// Issue 30 items 2–3 and issue 31 item 6 (docs/decisions/030-search-stemming.md): search that knows
// Ukrainian. Runs on SQLite under `npm test` and on PostgreSQL under `npm run test:pg` with the same
// expectations: inflected forms find each other, a phrase in quotes means that phrase, the four
// apostrophes are one, highlights are escaped, title matches come first, paging needs no count,
// and the public and admin searches agree.
import { Kysely, Migrator, sql, type Migration } from "kysely";
import { beforeAll, describe, expect, it } from "vitest";
import { ADMIN_SEARCH_COUNTED, listAdminArticles } from "../../app/models/article-queries.server";
import { SEARCH_COUNTED, searchArticles } from "../../app/models/article-search.server";
import { deleteArticle, insertArticle } from "../../app/models/article-writes.server";
import { db, writeTransaction } from "../../db/index";
import { migrateToLatest } from "../../db/migrate";
import * as initial from "../../migrations/2026_11_22_000001_initial";
import * as imageText from "../../migrations/2026_11_24_000017_image_text";
import * as reviewSchedule from "../../migrations/2026_11_24_000018_review_schedule";
import * as revisionsPreviews from "../../migrations/2026_11_24_000019_revisions_previews";
import * as articleColumns from "../../migrations/2026_11_24_000020_article_columns";
import * as twoFactor from "../../migrations/2026_11_25_000021_two_factor";
import * as auditLog from "../../migrations/2026_11_25_000022_audit_log";
import { request, TEST_ACTOR } from "../helpers";

const BEFORE: Record<string, Migration> = {
  "2026_11_22_000001_initial": initial,
  "2026_11_24_000017_image_text": imageText,
  "2026_11_24_000018_review_schedule": reviewSchedule,
  "2026_11_24_000019_revisions_previews": revisionsPreviews,
  "2026_11_24_000020_article_columns": articleColumns,
  "2026_11_25_000021_two_factor": twoFactor,
  "2026_11_25_000022_audit_log": auditLog,
};

const CATEGORY = "cat-stems";
const start = Date.UTC(2026, 0, 1);
let written = 0;

/** Writes a published article (or as `status` says); each one newer than the last. */
async function article(
  slug: string,
  {
    title,
    content = "Текст.",
    subtitle = null,
    tags = [],
    status = "published",
  }: { title: string; content?: string; subtitle?: string | null; tags?: string[]; status?: "published" | "draft" },
) {
  const at = new Date(start + written++ * 60_000).toISOString();
  await writeTransaction((trx) =>
    insertArticle(trx, {
      slug,
      title,
      subtitle,
      content,
      contentHtml: "<p>x</p>",
      categoryId: CATEGORY,
      authorId: null,
      status,
      tags,
      publishedAt: status === "published" ? at : null,
      createdAt: at,
    }),
  );
}

const slugs = async (q: string, page = 1, perPage = 10) => (await searchArticles({ q, page, perPage })).hits.map((h) => h.slug);

describe("search that knows Ukrainian, on either engine", () => {
  beforeAll(async () => {
    // The migration runs over articles written before it: they are found by stem afterwards.
    await new Migrator({ db: db as unknown as Kysely<any>, provider: { getMigrations: async () => BEFORE } }).migrateToLatest();
    await db.insertInto("categories").values({ id: CATEGORY, name: "Стеми", slug: "stemy" }).execute();
    await db
      .insertInto("articles")
      .values({
        id: "old-1",
        slug: "stara",
        title: "Стара стаття про дослідження",
        content: "Давній текст про комп’ютери.",
        category_id: CATEGORY,
        status: "published",
        published_at: new Date(start - 86_400_000).toISOString(),
      })
      .execute();
    await sql`insert into articles_fts (rowid, article_id, title, subtitle, content, tags)
      select rowid, id, title, '', content, '' from articles`.execute(db);
    await migrateToLatest(db);

    await article("vakcyna-title", { title: "Вакцина проти грипу", content: "Про щеплення." });
    await article("vakcyny-body", { title: "Новини медицини", content: "Нові вакцини проходять випробування." });
    await article("vakcynamy-subtitle", { title: "Огляд тижня", subtitle: "Що зробили з вакцинами", content: "Різне." });
    await article("vakcynoiu-tag", { title: "Щеплення дітей", content: "Тема тижня.", tags: ["вакциною"] });
    await article("doslidzhennia", { title: "Досліджень стало більше", content: "Кількість дослідженнями підтверджених фактів." });
    await article("chorna-dira", { title: "Чорна діра в центрі галактики", content: "Астрономи побачили, як чорна діра поглинає зорю." });
    await article("dira-chorna", { title: "Діра в паркані", content: "Чорна фарба і діра в дошці." });
    await article("kompiutery-02bc", { title: "Компʼютери майбутнього", content: "Текст." });
    await article("kompiutery-0027", { title: "Квантові комп'ютери", content: "Текст." });
    await article("kompiutery-2019", { title: "Комп’ютери в школах", content: "Текст." });
    await article("kompiutery-0060", { title: "Старі комп`ютери", content: "Текст." });
    await article("chernetka", { title: "Вакцина в чернетці", content: "Не для читачів.", status: "draft" });
    await article("xss", { title: "Вакцина <script>alert(1)</script> & «лапки»", content: "Вакцина і <b>жирний</b> текст." });
  });

  it("the migration indexed the existing article by stem and joined its apostrophes", async () => {
    expect(await slugs("досліджень")).toContain("stara");
    expect(await slugs("компʼютерів")).toContain("stara");
  });

  it("finds every form of a word by any form: вакцина, вакцини, вакцинами, вакциною", async () => {
    const expected = ["vakcyna-title", "vakcyny-body", "vakcynamy-subtitle", "vakcynoiu-tag", "xss"].sort();
    for (const q of ["вакцина", "вакцини", "вакцинами", "вакциною", "ВАКЦИНАХ"]) expect((await slugs(q)).sort(), q).toEqual(expected);
    for (const q of ["дослідження", "досліджень", "дослідженнями"]) expect(await slugs(q), q).toEqual(["doslidzhennia", "stara"]);
  });

  it("ranks title matches first, then subtitle and tags, then the body; newest first within each", async () => {
    expect(await slugs("вакцинах")).toEqual(["xss", "vakcyna-title", "vakcynoiu-tag", "vakcynamy-subtitle", "vakcyny-body"]);
  });

  it("reads a phrase in quotes as that phrase, word for word", async () => {
    expect(await slugs('"чорна діра"')).toEqual(["chorna-dira"]);
    expect(await slugs("«чорна діра»")).toEqual(["chorna-dira"]);
    // Without quotes the words may stand anywhere (both in the title first).
    expect(await slugs("чорна діра")).toEqual(["chorna-dira", "dira-chorna"]);
    // A quoted word is that word: "вакцини" is not "вакцина".
    expect(await slugs('"вакцини"')).toEqual(["vakcyny-body"]);
    // A phrase and a word together.
    expect(await slugs('"чорна діра" галактикою')).toEqual(["chorna-dira"]);
    const [hit] = (await searchArticles({ q: '"чорна діра"', page: 1, perPage: 10 })).hits;
    expect(hit.title_marked).toBe("\u0001Чорна\u0002 \u0001діра\u0002 в центрі галактики");
    expect(hit.snippet).toContain("\u0001чорна\u0002 \u0001діра\u0002");
  });

  it("treats U+02BC, U+0027, U+2019 and U+0060 as one character, in the query, the index and the highlight", async () => {
    const all = ["kompiutery-0060", "kompiutery-2019", "kompiutery-0027", "kompiutery-02bc", "stara"];
    for (const q of ["компʼютери", "комп'ютери", "комп’ютери", "комп`ютери", "компютерами"]) expect(await slugs(q), q).toEqual(all);
    const { hits } = await searchArticles({ q: "комп'ютери", page: 1, perPage: 10 });
    expect(hits.map((h) => h.title_marked)).toEqual([
      "Старі \u0001комп`ютери\u0002",
      "\u0001Комп’ютери\u0002 в школах",
      "Квантові \u0001комп'ютери\u0002",
      "\u0001Компʼютери\u0002 майбутнього",
      "Стара стаття про дослідження",
    ]);
    const admin = await listAdminArticles({ search: "компʼютерів", limit: 20 });
    expect(admin.articles.map((a) => a.slug).sort()).toEqual([...all].sort());
  });

  it("marks the matched forms, escaped: no HTML from a title, the text or the query reaches the page", async () => {
    const res = await request(`/search?q=${encodeURIComponent("вакцинами")}`);
    expect(res.status).toBe(200);
    const page = await res.text();
    expect(page).toContain("<mark>Вакцина</mark> &lt;script&gt;alert(1)&lt;/script&gt; &amp; «лапки»");
    expect(page).toContain("<mark>вакцини</mark>");
    expect(page).toContain("<mark>Вакцина</mark> і &lt;bжирний&lt;/b текст.");
    expect(page).not.toContain("<script>alert(1)");
    expect(page).not.toContain("<b>жирний</b>");
    for (const q of ["<img src=x onerror=alert(1)>", 'вакцина "<img src=x>', "\u0001вакцина\u0002"]) {
      const injected = await (await request(`/search?q=${encodeURIComponent(q)}`)).text();
      expect(injected, q).not.toContain("<img src=x");
      expect(injected, q).not.toMatch(/<mark>[^<]*\u0001/);
    }
  });

  it("never shows drafts to readers; the admin search finds them, by stem too", async () => {
    expect(await slugs("вакцина")).not.toContain("chernetka");
    const admin = await listAdminArticles({ search: "вакцинах", limit: 20 });
    expect(admin.articles.map((a) => a.slug)).toContain("chernetka");
    expect(admin).toMatchObject({ total: 6, capped: false });
  });

  it("pages without counting every match: exact up to SEARCH_COUNTED, then 'more than' and a next page", async () => {
    for (let i = 0; i < SEARCH_COUNTED + 5; i++) await article(`masa-${i}`, { title: `Замітка ${i}`, content: "Про телескопами зроблені знімки." });
    const first = await searchArticles({ q: "телескоп", page: 1, perPage: 10 });
    expect(first).toMatchObject({ total: SEARCH_COUNTED, capped: true });
    expect(first.hits.map((h) => h.slug)).toEqual(Array.from({ length: 10 }, (_, k) => `masa-${SEARCH_COUNTED + 4 - k}`));
    const eleventh = await searchArticles({ q: "телескоп", page: 11, perPage: 10 });
    expect(eleventh.hits.map((h) => h.slug)).toEqual(["masa-4", "masa-3", "masa-2", "masa-1", "masa-0"]);
    expect(eleventh).toMatchObject({ total: SEARCH_COUNTED + 5, capped: false });
    expect((await searchArticles({ q: "телескоп", page: 12, perPage: 10 })).hits).toEqual([]);
    const page = await (await request(`/search?q=${encodeURIComponent("телескопи")}`)).text();
    expect(page).toContain(`Знайдено статей: понад ${SEARCH_COUNTED}`);
    expect(page).toContain("&amp;page=2");
    // The admin list counts at most ADMIN_SEARCH_COUNTED matches.
    expect(await listAdminArticles({ search: "телескопів", limit: 20 })).toMatchObject({ total: SEARCH_COUNTED + 5, capped: false });
    expect(ADMIN_SEARCH_COUNTED).toBeGreaterThan(SEARCH_COUNTED + 5);
  });

  it("the admin list past ADMIN_SEARCH_COUNTED matches: newest first, filters, pages and counts as with few", async () => {
    // More matches than the list counts: it walks the created_at index and probes the index per row
    // (listAdminArticles) instead of reading the match list. Every tenth one a draft.
    const many = ADMIN_SEARCH_COUNTED + 30;
    const made: { slug: string; draft: boolean }[] = [];
    for (let batch = 0; batch < many; batch += 250) {
      await writeTransaction(async (trx) => {
        for (let i = batch; i < Math.min(many, batch + 250); i++) {
          const at = new Date(start + written++ * 60_000).toISOString();
          const draft = i % 10 === 0;
          const slug = `kvazar-${String(i).padStart(4, "0")}`;
          made.push({ slug, draft });
          await insertArticle(trx, {
            slug,
            title: `Спостереження ${i}`,
            content: "Квазарами світять далекі галактики.",
            contentHtml: "<p>x</p>",
            categoryId: CATEGORY,
            authorId: null,
            status: draft ? "draft" : "published",
            tags: [],
            publishedAt: draft ? null : at,
            createdAt: at,
          });
        }
      });
    }
    const newest = [...made].reverse();
    const all = await listAdminArticles({ search: "квазар", limit: 20 });
    expect(all).toMatchObject({ total: ADMIN_SEARCH_COUNTED, capped: true });
    expect(all.articles.map((a) => a.slug)).toEqual(newest.slice(0, 20).map((a) => a.slug));
    const deep = await listAdminArticles({ search: "квазари", skip: ADMIN_SEARCH_COUNTED, limit: 20 });
    expect(deep.articles.map((a) => a.slug)).toEqual(newest.slice(ADMIN_SEARCH_COUNTED, ADMIN_SEARCH_COUNTED + 20).map((a) => a.slug));
    // Filtered: counted exactly below the cap.
    const drafts = newest.filter((a) => a.draft);
    const draftList = await listAdminArticles({ search: "квазарів", status: "draft", limit: 20 });
    expect(draftList).toMatchObject({ total: drafts.length, capped: false });
    expect(draftList.articles.map((a) => a.slug)).toEqual(drafts.slice(0, 20).map((a) => a.slug));
    const published = await listAdminArticles({ search: "квазар", status: "published", categoryId: CATEGORY, limit: 20 });
    expect(published).toMatchObject({ total: many - drafts.length, capped: false });
    expect(published.articles.map((a) => a.slug)).toEqual(
      newest
        .filter((a) => !a.draft)
        .slice(0, 20)
        .map((a) => a.slug),
    );
    // Another order still finds them all (read, then sorted).
    const byTitle = await listAdminArticles({ search: "квазар", sort: "title", dir: "asc", limit: 3 });
    expect(byTitle).toMatchObject({ total: ADMIN_SEARCH_COUNTED, capped: true });
    expect(byTitle.articles.map((a) => a.title)).toEqual(["Спостереження 0", "Спостереження 1", "Спостереження 10"]);
  }, 120_000);

  it("gives the same order on both engines for a small corpus (the list this file expects on each)", async () => {
    expect(await slugs("текст")).toEqual(["xss", "kompiutery-0060", "kompiutery-2019", "kompiutery-0027", "kompiutery-02bc", "stara"]);
    expect(await slugs("чорна")).toEqual(["chorna-dira", "dira-chorna"]);
  });

  it("keeps the search rows in step with deletes", async () => {
    const { id } = await db.selectFrom("articles").select("id").where("slug", "=", "dira-chorna").executeTakeFirstOrThrow();
    const count = async () => Number((await sql<{ n: number }>`select count(*) as n from articles_stems`.execute(db)).rows[0].n);
    const before = await count();
    await deleteArticle({ actor: TEST_ACTOR, id });
    expect(await count()).toBe(before - 1);
    expect(await slugs("чорна діра")).toEqual(["chorna-dira"]);
  });
});
