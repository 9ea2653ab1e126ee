// The store's warm list (issue 30 item 1, docs/decisions/032): the home and its feed, the menus'
// pages, the most read, then every published article newest first, each key once; drafts never.
import { beforeAll, describe, expect, it } from "vitest";
import { insertArticle } from "../../app/models/article-writes.server";
import { WARM_FIRST, warmKeys } from "../../app/page-store/warm-list.server";
import { db, writeTransaction } from "../../db/index";
import { migrated } from "../helpers";

const COUNT = WARM_FIRST + 1_500;

describe("the warm list", () => {
  beforeAll(async () => {
    await migrated();
    await db.deleteFrom("articles").execute();
    const now = Date.now();
    await writeTransaction(async (trx) => {
      for (let i = 0; i < COUNT; i++) {
        const at = new Date(now - i * 60_000).toISOString();
        await insertArticle(trx, {
          slug: `warm-${i}`,
          title: `warm ${i}`,
          content: "текст",
          contentHtml: "<p>текст</p>",
          categoryId: null,
          authorId: null,
          status: i % 10 === 9 ? "draft" : "published",
          tags: [],
          publishedAt: i % 10 === 9 ? null : at,
          createdAt: at,
        });
      }
    });
    // The most read are old articles, so they come before the newest.
    await db.updateTable("articles").set({ views: 1_000 }).where("slug", "in", ["warm-2000", "warm-2001"]).execute();
  }, 120_000);

  it("has every published article once, the home first and the most read before the newest, and no draft", async () => {
    const keys: string[] = [];
    for await (const key of warmKeys()) keys.push(key);
    expect(keys.slice(0, 2)).toEqual(["/", "/rss.xml"]);
    const articles = keys.filter((k) => k.startsWith("/article/"));
    expect(new Set(keys).size).toBe(keys.length);
    expect(articles).toHaveLength(COUNT - COUNT / 10);
    expect(articles.slice(0, 2)).toEqual(["/article/warm-2000", "/article/warm-2001"]);
    expect(articles).not.toContain("/article/warm-9");
    // After the most read, newest first.
    expect(articles.indexOf("/article/warm-0")).toBeLessThan(articles.indexOf("/article/warm-1"));
    expect(articles.indexOf("/article/warm-1500")).toBeGreaterThan(WARM_FIRST);
  });
});
