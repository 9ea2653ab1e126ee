import { beforeAll, describe, expect, it } from "vitest";
import { insertArticle } from "../../app/models/article.server";
import { createCategory } from "../../app/models/category.server";
import { createUser } from "../../app/models/user.server";
import { sessionStorage } from "../../app/services/session.server";
import { writeTransaction } from "../../db/index";
import { migrated, request, TEST_ACTOR } from "../helpers";

// A long server-rendered Cyrillic page must be valid UTF-8 without NUL bytes: React 18.3's
// stream writer pads a chunk with zero bytes when a multi-byte character does not fit, which
// browsers show as U+FFFD (app/entry.server.tsx drops them). The article list is such a page.
const CHROME = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36";

describe("server-rendered HTML", () => {
  let cookie = "";
  beforeAll(async () => {
    await migrated();
    const user = await createUser({ username: "eddie", email: "e@example.com", password: "correct-horse", role: "editor", name: "Редактор" });
    const category = await createCategory({ actor: TEST_ACTOR, input: { name: "Наука", description: null, slug: undefined } });
    await writeTransaction(async (trx) => {
      for (let i = 0; i < 40; i++) {
        const title = `Стаття номер ${i}: ${"дослідження ".repeat(1 + (i % 7))}галактик і клітин`;
        await insertArticle(trx, {
          slug: `stattia-${i}`,
          title,
          subtitle: "Підзаголовок українською мовою ".repeat(1 + (i % 3)),
          content: "Текст",
          contentHtml: "<p>Текст</p>",
          categoryId: category.id,
          authorId: user.id,
          status: "published",
          tags: [],
        });
      }
    });
    const session = await sessionStorage().getSession();
    session.set("userId", user.id);
    cookie = (await sessionStorage().commitSession(session)).split(";")[0];
  });

  it("the article list streams valid UTF-8 with no NUL bytes", async () => {
    for (const path of ["/admin/articles", "/admin/articles?page=2", "/admin/categories"]) {
      const res = await request(path, { headers: { Cookie: cookie, "User-Agent": CHROME } });
      expect(res.status, path).toBe(200);
      const bytes = new Uint8Array(await res.arrayBuffer());
      expect(bytes.length).toBeGreaterThan(4096);
      expect(bytes.indexOf(0), path).toBe(-1);
      expect(() => new TextDecoder("utf-8", { fatal: true }).decode(bytes)).not.toThrow();
    }
  });
});
