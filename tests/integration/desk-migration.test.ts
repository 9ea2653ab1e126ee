// Issue 14: the migration that widens the articles' status check rebuilds the table. On a database
// that already holds articles it must keep every row with its rowid (the search index shares it),
// the tags and redirects that point at it (no cascade on the way), the indexes, and the foreign keys.
import { Kysely, Migrator, type Migration } from "kysely";
import { beforeAll, describe, expect, it } from "vitest";
import { db, getSqlite } from "../../db/index";
import * as initial from "../../migrations/2026_11_22_000001_initial";
import * as imageText from "../../migrations/2026_11_24_000017_image_text";
import * as reviewSchedule from "../../migrations/2026_11_24_000018_review_schedule";
import { onPostgres } from "../database-of";
import { expectArticlesRebuiltWhole } from "../helpers";

const all: Record<string, Migration> = {
  "2026_11_22_000001_initial": initial,
  "2026_11_24_000017_image_text": imageText,
  "2026_11_24_000018_review_schedule": reviewSchedule,
};
const migrator = () => new Migrator({ db: db as unknown as Kysely<any>, provider: { getMigrations: async () => all } });

// The rebuild of the articles table is SQLite's; PostgreSQL replaces the check in place, and every
// test that schedules or submits an article uses the new statuses there.
describe.skipIf(onPostgres)("migration 2026_11_24_000018_review_schedule", () => {
  beforeAll(async () => {
    expect((await migrator().migrateTo("2026_11_24_000017_image_text")).error).toBeUndefined();
    const sqlite = getSqlite();
    sqlite.exec(`
      insert into categories (id, name, slug) values ('c-1', 'Космос', 'kosmos');
      insert into articles (id, slug, title, content, category_id, status, published_at) values
        ('a-1', 'pershyi', 'Перший', 'текст про зорі', 'c-1', 'published', '2026-01-01T00:00:00.000Z'),
        ('a-2', 'druhyi', 'Другий', 'текст про комети', 'c-1', 'draft', null);
      delete from articles where id = 'a-1';
      insert into articles (id, slug, title, content, category_id, status, published_at) values
        ('a-3', 'tretii', 'Третій', 'текст про планети', 'c-1', 'published', '2026-01-02T00:00:00.000Z');
      insert into articles_fts (rowid, article_id, title, subtitle, content, tags)
        select rowid, id, title, '', content, '' from articles;
      insert into tags (name) values ('астрономія');
      insert into article_tags (article_id, tag_id, position) values ('a-3', 1, 0);
      insert into slug_redirects (old_slug, article_id) values ('staryi', 'a-3');
    `);
  });

  it("keeps rows, rowids, search, tags and redirects, and accepts the new statuses", async () => {
    const sqlite = getSqlite();
    const before = sqlite.prepare("select rowid, * from articles order by id").all();
    expect((await migrator().migrateToLatest()).error).toBeUndefined();
    expect(sqlite.prepare("select rowid, * from articles order by id").all()).toEqual(before);
    expect(sqlite.prepare("select article_id from articles_fts where articles_fts match 'планети'").all()).toEqual([{ article_id: "a-3" }]);
    // The rowid still leads from the index to its article.
    expectArticlesRebuiltWhole({ word: "комети", id: "a-2" });
    expect(sqlite.prepare("select count(*) as n from article_tags").get()).toEqual({ n: 1 });
    expect(sqlite.prepare("select count(*) as n from slug_redirects").get()).toEqual({ n: 1 });

    sqlite.prepare("update articles set status = 'review' where id = 'a-2'").run();
    sqlite.prepare("update articles set status = 'scheduled' where id = 'a-3'").run();
    expect(() => sqlite.prepare("update articles set status = 'nonsense' where id = 'a-2'").run()).toThrow(/CHECK/);
    // The foreign keys still hold after the rebuild: deleting an article cascades to its tags.
    sqlite.prepare("delete from articles where id = 'a-3'").run();
    expect(sqlite.prepare("select count(*) as n from article_tags").get()).toEqual({ n: 0 });
  });

  it("goes down again (review and scheduled become drafts) and up again", async () => {
    const sqlite = getSqlite();
    expect((await migrator().migrateDown()).error).toBeUndefined();
    expect(sqlite.prepare("select status from articles where id = 'a-2'").get()).toEqual({ status: "draft" });
    expect(() => sqlite.prepare("update articles set status = 'review' where id = 'a-2'").run()).toThrow(/CHECK/);
    expect((await migrator().migrateToLatest()).error).toBeUndefined();
    sqlite.prepare("update articles set status = 'review' where id = 'a-2'").run();
  });
});
