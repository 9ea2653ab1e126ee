// Issue 16: migration 000020 rebuilds the articles table with its long text columns last (a card
// read walked ~65 KB of overflow pages to reach status, date and image). On a database that
// already holds articles it must keep every row and rowid (the search index shares them), the
// checks, defaults, indexes and foreign keys; only the column order changes.
import { Kysely, Migrator, type Migration } from "kysely";
import { beforeAll, describe, expect, it } from "vitest";
import { db, getSqlite } from "../../db/index";
import * as initial from "../../migrations/2026_11_22_000001_initial";
import * as imageText from "../../migrations/2026_11_24_000017_image_text";
import * as reviewSchedule from "../../migrations/2026_11_24_000018_review_schedule";
import * as revisionsPreviews from "../../migrations/2026_11_24_000019_revisions_previews";
import * as articleColumns from "../../migrations/2026_11_24_000020_article_columns";
import { onPostgres } from "../database-of";
import { expectArticlesRebuiltWhole } from "../helpers";

const all: Record<string, Migration> = {
  "2026_11_22_000001_initial": initial,
  "2026_11_24_000017_image_text": imageText,
  "2026_11_24_000018_review_schedule": reviewSchedule,
  "2026_11_24_000019_revisions_previews": revisionsPreviews,
  "2026_11_24_000020_article_columns": articleColumns,
};
const migrator = () => new Migrator({ db: db as unknown as Kysely<any>, provider: { getMigrations: async () => all } });
const columns = () => (getSqlite().prepare("select name from pragma_table_info('articles')").all() as { name: string }[]).map((c) => c.name);

// SQLite only: the migration rebuilds the table by SQLite's recipe; on PostgreSQL it does nothing.
describe.skipIf(onPostgres)("migration 2026_11_24_000020_article_columns", () => {
  beforeAll(async () => {
    expect((await migrator().migrateTo("2026_11_24_000019_revisions_previews")).error).toBeUndefined();
    getSqlite().exec(`
      insert into categories (id, name, slug) values ('c-1', 'Космос', 'kosmos');
      insert into articles (id, slug, title, content, content_html, category_id, status, published_at, featured_image) values
        ('a-1', 'pershyi', 'Перший', 'текст про зорі', '<p>текст про зорі</p>', 'c-1', 'published', '2026-01-01T00:00:00.000Z', '/media/a.webp'),
        ('a-2', 'druhyi', 'Другий', 'текст про комети', '<p>текст про комети</p>', 'c-1', 'review', null, null);
      delete from articles where id = 'a-1';
      insert into articles (id, slug, title, content, content_html, category_id, status, published_at) values
        ('a-3', 'tretii', 'Третій', '${"довгий текст ".repeat(5_000)}', '<p>${"довгий текст ".repeat(5_000)}</p>', 'c-1', 'scheduled', '2026-01-02T00:00:00.000Z');
      insert into articles_fts (rowid, article_id, title, subtitle, content, tags)
        select rowid, id, title, '', content, '' from articles;
      insert into tags (name) values ('астрономія');
      insert into article_tags (article_id, tag_id, position) values ('a-3', 1, 0);
      insert into slug_redirects (old_slug, article_id) values ('staryi', 'a-3');
      insert into article_revisions (article_id, title, summary, fields) values ('a-3', 'Третій', 'перша', '{}');
    `);
  });

  it("puts content and content_html last and keeps every row, rowid, check, index and key", async () => {
    const sqlite = getSqlite();
    const before = sqlite.prepare("select rowid, * from articles order by id").all();
    const names = columns();
    expect(names.slice(-2)).not.toEqual(["content", "content_html"]);
    expect((await migrator().migrateToLatest()).error).toBeUndefined();

    expect(columns().slice(-2)).toEqual(["content", "content_html"]);
    expect([...columns()].sort()).toEqual([...names].sort());
    expect(sqlite.prepare("select rowid, * from articles order by id").all()).toEqual(before);
    expectArticlesRebuiltWhole({ word: "комети", id: "a-2" });
    // Checks and defaults travel with their columns.
    expect(() => sqlite.prepare("update articles set status = 'nonsense' where id = 'a-2'").run()).toThrow(/CHECK/);
    expect(() => sqlite.prepare("update articles set seo_title = ? where id = 'a-2'").run("x".repeat(61))).toThrow(/CHECK/);
    sqlite.prepare("insert into articles (id, slug, title, category_id) values ('a-4', 'chetvertyi', 'Четвертий', 'c-1')").run();
    expect(sqlite.prepare("select content, content_html, status, version from articles where id = 'a-4'").get()).toEqual({
      content: "",
      content_html: "",
      status: "draft",
      version: 1,
    });
    // Deleting an article still cascades to its tags and revisions.
    sqlite.prepare("delete from articles where id = 'a-3'").run();
    expect(sqlite.prepare("select (select count(*) from article_tags) + (select count(*) from article_revisions) as n").get()).toEqual({ n: 0 });
  });

  it("goes down (the long columns after subtitle again) and up again", async () => {
    expect((await migrator().migrateDown()).error).toBeUndefined();
    const down = columns();
    expect(down.slice(down.indexOf("subtitle"), down.indexOf("subtitle") + 3)).toEqual(["subtitle", "content", "content_html"]);
    expect((await migrator().migrateToLatest()).error).toBeUndefined();
    expect(columns().slice(-2)).toEqual(["content", "content_html"]);
  });
});
