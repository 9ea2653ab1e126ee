// Issue 29: migration 000026 on a database that already holds articles (both engines): every
// article's author becomes its first byline, every user and tag gets a unique page slug (Cyrillic
// names transliterated, clashes numbered), every article starts indexable, and the byline table
// holds "a staff user or a guest, never both or neither".
import { Kysely, Migrator, sql, type Migration } from "kysely";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "../../db/index";
import * as initial from "../../migrations/2026_11_22_000001_initial";
import * as imageText from "../../migrations/2026_11_24_000017_image_text";
import * as reviewSchedule from "../../migrations/2026_11_24_000018_review_schedule";
import * as revisionsPreviews from "../../migrations/2026_11_24_000019_revisions_previews";
import * as articleColumns from "../../migrations/2026_11_24_000020_article_columns";
import * as twoFactor from "../../migrations/2026_11_25_000021_two_factor";
import * as auditLog from "../../migrations/2026_11_25_000022_audit_log";
import * as bylines from "../../migrations/2026_11_25_000026_bylines";

const all: Record<string, Migration> = {
  "2026_11_22_000001_initial": initial,
  "2026_11_24_000017_image_text": imageText,
  "2026_11_24_000018_review_schedule": reviewSchedule,
  "2026_11_24_000019_revisions_previews": revisionsPreviews,
  "2026_11_24_000020_article_columns": articleColumns,
  "2026_11_25_000021_two_factor": twoFactor,
  "2026_11_25_000022_audit_log": auditLog,
  "2026_11_25_000026_bylines": bylines,
};
const any = db as unknown as Kysely<any>;
const migrator = () => new Migrator({ db: any, provider: { getMigrations: async () => all } });

describe("migration 2026_11_25_000026_bylines", () => {
  beforeAll(async () => {
    expect((await migrator().migrateTo("2026_11_25_000022_audit_log")).error).toBeUndefined();
    const user = (id: string, username: string, name: string | null) => ({
      id,
      username,
      name,
      email: `${username}@example.org`,
      password_hash: "x",
      role: "reporter",
    });
    await any
      .insertInto("users")
      .values([user("u-1", "olena", "Олена Коваленко"), user("u-2", "olena2", "Олена Коваленко"), user("u-3", "bez-imeni", null)])
      .execute();
    await any.insertInto("categories").values({ id: "c-1", name: "Космос", slug: "kosmos" }).execute();
    const article = (id: string, author: string | null) => ({
      id,
      slug: id,
      title: id,
      content: "т",
      content_html: "<p>т</p>",
      category_id: "c-1",
      author_id: author,
      status: "published",
      published_at: "2026-01-01T00:00:00.000Z",
    });
    await any
      .insertInto("articles")
      .values([article("a-1", "u-1"), article("a-2", "u-2"), article("a-3", null)])
      .execute();
    await any
      .insertInto("tags")
      .values([{ name: "Чорні діри" }, { name: "чорні-діри" }])
      .execute();
    expect((await migrator().migrateToLatest()).error).toBeUndefined();
  });

  it("makes each article's author its first byline, and leaves an authorless article without one", async () => {
    const rows = await any.selectFrom("article_authors").select(["article_id", "position", "user_id", "guest_id"]).orderBy("article_id").execute();
    expect(rows).toEqual([
      { article_id: "a-1", position: 0, user_id: "u-1", guest_id: null },
      { article_id: "a-2", position: 0, user_id: "u-2", guest_id: null },
    ]);
    const articles = await any.selectFrom("articles").select(["id", "noindex"]).orderBy("id").execute();
    expect(articles.map((a) => Number(a.noindex))).toEqual([0, 0, 0]);
  });

  it("gives users and tags unique transliterated slugs", async () => {
    const users = await any.selectFrom("users").select(["id", "slug"]).orderBy("id").execute();
    expect(users.map((u) => u.slug)).toEqual(["olena-kovalenko", "olena-kovalenko-2", "bez-imeni"]);
    const tags = await any.selectFrom("tags").select(["name", "slug"]).orderBy("id").execute();
    expect(tags.map((t) => t.slug)).toEqual(["chorni-diry", "chorni-diry-2"]);
  });

  it("holds a byline to exactly one of a staff user and a guest", async () => {
    await any.insertInto("guest_authors").values({ id: "g-1", name: "Гість", slug: "hist" }).execute();
    await expect(any.insertInto("article_authors").values({ article_id: "a-3", position: 0, user_id: null, guest_id: null }).execute()).rejects.toThrow();
    await expect(any.insertInto("article_authors").values({ article_id: "a-3", position: 0, user_id: "u-1", guest_id: "g-1" }).execute()).rejects.toThrow();
    await any.insertInto("article_authors").values({ article_id: "a-3", position: 0, user_id: "u-3", guest_id: null }).execute();
    await any.insertInto("article_authors").values({ article_id: "a-3", position: 1, user_id: null, guest_id: "g-1" }).execute();
    // A guest who signs an article cannot be deleted; deleting the article removes its bylines.
    await expect(any.deleteFrom("guest_authors").where("id", "=", "g-1").execute()).rejects.toThrow();
    await any.deleteFrom("articles").where("id", "=", "a-3").execute();
    const [{ n }] = (await sql<{ n: number }>`select count(*) as n from article_authors where article_id = 'a-3'`.execute(any)).rows;
    expect(Number(n)).toBe(0);
  });
});
