// Related articles on the article page (issue 17, item 15): those sharing the most tags first,
// then the newest of its category or tags, then the newest others; never itself, never a draft.
import { beforeAll, describe, expect, it } from "vitest";
import { insertArticle } from "../../app/models/article-writes.server";
import { listRelatedArticles } from "../../app/models/public-article.server";
import { db, writeTransaction } from "../../db/index";
import { migrated } from "../helpers";

const day = 86_400_000;
async function article(
  slug: string,
  { category, tags, daysAgo, status = "published" }: { category: string; tags: string[]; daysAgo: number; status?: "published" | "draft" },
) {
  const at = new Date(Date.now() - daysAgo * day).toISOString();
  return writeTransaction((trx) =>
    insertArticle(trx, {
      slug,
      title: slug,
      content: "текст",
      contentHtml: "<p>текст</p>",
      categoryId: category,
      authorId: null,
      status,
      tags,
      publishedAt: status === "published" ? at : null,
      createdAt: at,
    }),
  );
}

describe("related articles", () => {
  let main: string;
  beforeAll(async () => {
    await migrated();
    await db.deleteFrom("articles").execute();
    for (const [id, slug] of [
      ["cat-a", "rel-a"],
      ["cat-b", "rel-b"],
    ])
      await db.insertInto("categories").values({ id, name: slug, slug }).execute();
    main = await article("main", { category: "cat-a", tags: ["космос", "марс", "ракети"], daysAgo: 5 });
    await article("two-tags-old", { category: "cat-b", tags: ["космос", "марс"], daysAgo: 30 });
    await article("one-tag-new", { category: "cat-b", tags: ["ракети"], daysAgo: 1 });
    await article("same-category", { category: "cat-a", tags: [], daysAgo: 2 });
    await article("three-tags-draft", { category: "cat-a", tags: ["космос", "марс", "ракети"], daysAgo: 1, status: "draft" });
    await article("unrelated-newest", { category: "cat-b", tags: ["біологія"], daysAgo: 0 });
    await article("unrelated-older", { category: "cat-b", tags: [], daysAgo: 40 });
  });

  it("ranks by shared tags, then by date, and fills a short row with the newest others", async () => {
    const related = await listRelatedArticles({ id: main, categoryId: "cat-a" });
    expect(related.map((c) => c.slug)).toEqual(["two-tags-old", "one-tag-new", "same-category", "unrelated-newest"]);
  });

  it("never lists the article itself or a draft, and asks for no more than it shows", async () => {
    const related = await listRelatedArticles({ id: main, categoryId: "cat-a", limit: 2 });
    expect(related.map((c) => c.slug)).toEqual(["two-tags-old", "one-tag-new"]);
  });
});
