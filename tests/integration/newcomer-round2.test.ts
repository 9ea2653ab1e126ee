// Issue 31 (newcomer round 2), the server rules of items 8, 13, 14 and 16, on both engines
// (`npm run test:pg -- vitest tests/integration/newcomer-round2.test.ts`).
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { createArticle, updateArticle } from "../../app/models/article-writes.server";
import { createCategory, listCategories, updateCategory } from "../../app/models/category.server";
import { FormTokenSpent, issueFormToken } from "../../app/models/form-token.server";
import { getMedia, setMediaAlt, storeImage } from "../../app/models/media.server";
import { addUser, ProfileSchema, updateUser } from "../../app/models/user.server";
import { DomainError } from "../../app/utils/errors";
import { slugify } from "../../app/utils/slug.server";
import { db } from "../../db/index";
import { migrated, TEST_ACTOR } from "../helpers";

beforeAll(migrated);

async function refusal(promise: Promise<unknown>) {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainError);
  return error as DomainError;
}

describe("item 8: category names", () => {
  it("refuses a name another category has, whatever the case (Cyrillic too), on create and rename", async () => {
    const first = await createCategory({ actor: TEST_ACTOR, input: { name: "Палеонтологія", description: null } });
    for (const name of ["Палеонтологія", "ПАЛЕОНТОЛОГІЯ", "палеонтологія"]) {
      const error = await refusal(createCategory({ actor: TEST_ACTOR, input: { name, description: null } }));
      expect(error.status).toBe(409);
      expect(error.message).toMatch(/Категорія з такою назвою вже існує/);
    }
    const other = await createCategory({ actor: TEST_ACTOR, input: { name: "Геологія", description: null } });
    expect((await refusal(updateCategory({ actor: TEST_ACTOR, id: other.id, input: { name: "палеонтологія", description: null } }))).status).toBe(409);
    // Renaming a category to its own name in another case is fine.
    const renamed = await updateCategory({ actor: TEST_ACTOR, id: first.id, input: { name: "ПалеонтологіЯ", description: null } });
    expect(renamed.name).toBe("ПалеонтологіЯ");
    const rows = await db.selectFrom("categories").select("slug").where("slug", "like", "paleontolohiia%").execute();
    expect(rows).toHaveLength(1);
  });

  it("the database itself refuses a twin that differs in case (index from migration 000030)", async () => {
    await createCategory({ actor: TEST_ACTOR, input: { name: "Robotics", description: null } });
    const now = new Date().toISOString();
    await expect(
      db
        .insertInto("categories")
        .values({ id: "twin", name: "ROBOTICS", slug: "robotics-twin", description: null, created_at: now, updated_at: now })
        .execute(),
    ).rejects.toThrow();
  });

  it("lists categories in Ukrainian alphabetical order, not by character code", async () => {
    for (const name of ["Їжа", "Інновації", "Археологія", "Ґрунти", "Єгиптологія", "Біологія", "Генетика"]) {
      await createCategory({ actor: TEST_ACTOR, input: { name, description: null } });
    }
    const names = (await listCategories({ limit: 1000 })).categories.map((c) => c.name);
    const wanted = ["Археологія", "Біологія", "Генетика", "Ґрунти", "Єгиптологія", "Інновації", "Їжа"];
    expect(names.filter((n) => wanted.includes(n))).toEqual(wanted);
  });
});

describe("item 14: emails and the repeated password", () => {
  const staff = (username: string, email: string) => ({ username, email, password: "Ясен-пень 42 шипшина", role: "reporter" as const, full_name: null });

  it("refuses an email another user has in any case, on create and on change (Cyrillic domain too)", async () => {
    const first = await addUser(staff("olha", "Olha.Koval@Example.org"), TEST_ACTOR);
    const error = await refusal(addUser(staff("olha2", "olha.koval@example.ORG"), TEST_ACTOR));
    expect(error.status).toBe(409);
    expect(error.message).toBe("Цей email уже використовує інший користувач");
    await addUser(staff("petro", "petro@приклад.укр"), TEST_ACTOR);
    expect((await refusal(addUser(staff("petro2", "PETRO@ПРИКЛАД.УКР"), TEST_ACTOR))).status).toBe(409);
    const other = await addUser(staff("ivan", "ivan@example.org"), TEST_ACTOR);
    expect((await refusal(updateUser({ actor: TEST_ACTOR, id: other.id, changes: { email: "OLHA.KOVAL@example.org" } }))).status).toBe(409);
    // One's own email in another case is fine.
    const same = await updateUser({ actor: TEST_ACTOR, id: first.id, changes: { email: "olha.koval@example.org" } });
    expect(same.email).toBe("olha.koval@example.org");
  });

  it("the database itself refuses an email that differs only in case (index from migration 000030)", async () => {
    const now = new Date().toISOString();
    await expect(
      db
        .insertInto("users")
        .values({ id: "twin", username: "twin", email: "IVAN@EXAMPLE.ORG", password_hash: "x", role: "reporter", created_at: now, updated_at: now })
        .execute(),
    ).rejects.toThrow();
  });

  it("a new password must be typed twice the same", () => {
    const base = { full_name: "Ольга", email: "olha@example.org", current_password: "x", new_password: "Ясен-пень 42 шипшина" };
    const wrong = ProfileSchema.safeParse({ ...base, new_password_repeat: "Ясен-пень 42 шипшинa" });
    expect(wrong.success).toBe(false);
    expect(wrong.error?.issues[0]).toMatchObject({ path: ["new_password_repeat"], message: expect.stringMatching(/Паролі не збігаються/) });
    expect(ProfileSchema.safeParse({ ...base, new_password_repeat: base.new_password }).success).toBe(true);
    expect(ProfileSchema.safeParse({ ...base, new_password: "" }).success).toBe(true);
  });
});

describe("item 13: the new-article form's one-time token", () => {
  it("creates one article per token, for its user; a failed save spends nothing", async () => {
    const category = await createCategory({ actor: TEST_ACTOR, input: { name: "Форми", description: null } });
    const author = await addUser(
      { username: "former", email: "former@example.org", password: "Ясен-пень 42 шипшина", role: "reporter", full_name: null },
      TEST_ACTOR,
    );
    const actor = { id: author.id, username: author.username, role: author.role, ip: null };
    const input = { title: "Одна чернетка", content: "Текст.", category_id: category.id, status: "draft" as const, tags: [] } as never;
    const token = issueFormToken();
    // A save that fails (no such category) spends nothing.
    await expect(createArticle({ actor, input: { ...(input as object), category_id: "no-such" } as never, formToken: token })).rejects.toThrow();
    const first = await createArticle({ actor, input, formToken: token });
    const again = await createArticle({ actor, input, formToken: token }).catch((e: unknown) => e);
    expect(again).toBeInstanceOf(FormTokenSpent);
    expect((again as FormTokenSpent).articleId).toBe(first.id);
    const made = await db.selectFrom("articles").select("id").where("title", "=", "Одна чернетка").execute();
    expect(made).toHaveLength(1);
    // Another person's token is theirs alone; a new token makes a new article.
    const someone = await addUser(
      { username: "former2", email: "former2@example.org", password: "Ясен-пень 42 шипшина", role: "editor", full_name: null },
      TEST_ACTOR,
    );
    const other = await createArticle({ actor: { id: someone.id, username: someone.username, role: someone.role, ip: null }, input, formToken: token });
    expect(other.id).not.toBe(first.id);
    expect((await createArticle({ actor, input, formToken: issueFormToken() })).id).not.toBe(first.id);
  });
});

describe("item 11: the slug follows the title until first published", () => {
  it("moves with the title of a draft, stays once published, and a hand-typed slug stays", async () => {
    const category = await createCategory({ actor: TEST_ACTOR, input: { name: "Адреси", description: null } });
    const editor = await addUser(
      { username: "slugger", email: "slugger@example.org", password: "Ясен-пень 42 шипшина", role: "editor", full_name: null },
      TEST_ACTOR,
    );
    const actor = { id: editor.id, username: editor.username, role: editor.role, ip: null };
    const base = { content: "Текст.", category_id: category.id, tags: [] };
    const draft = await createArticle({ actor, input: { ...base, title: "ааа тест", status: "draft" } as never });
    expect(draft.slug).toBe(slugify("ааа тест"));
    const renamed = await updateArticle({ actor, id: draft.id, input: { ...base, title: "Нейрони пам'яті", slug: draft.slug, status: "draft" } as never });
    expect(renamed.slug).toBe(slugify("Нейрони пам'яті"));
    const published = await updateArticle({
      actor,
      id: draft.id,
      input: { ...base, title: "Нейрони пам'яті", slug: renamed.slug, status: "published" } as never,
    });
    const after = await updateArticle({
      actor,
      id: draft.id,
      input: { ...base, title: "Нейрони й пам'ять", slug: published.slug, status: "published" } as never,
    });
    expect(after.slug).toBe(renamed.slug);

    const own = await createArticle({ actor, input: { ...base, title: "Перша назва", slug: "moia-adresa", status: "draft" } as never });
    const kept = await updateArticle({ actor, id: own.id, input: { ...base, title: "Друга назва", slug: "moia-adresa", status: "draft" } as never });
    expect(kept.slug).toBe("moia-adresa");
  });
});

describe("item 16: media alt text from the editor, identical files reused", () => {
  const image = (r: number) =>
    sharp({ create: { width: 40, height: 30, channels: 3, background: { r, g: 90, b: 30 } } })
      .png()
      .toBuffer();

  it("the same file uploaded three times is one media item; another file is another", async () => {
    const user = await addUser(
      { username: "uploader", email: "uploader@example.org", password: "Ясен-пень 42 шипшина", role: "reporter", full_name: null },
      TEST_ACTOR,
    );
    const actor = { id: user.id, username: user.username, role: user.role, ip: null };
    const bytes = await image(10);
    const first = await storeImage({ bytes, fileName: "a.png", userId: user.id, actor });
    const second = await storeImage({ bytes, fileName: "a-copy.png", userId: user.id, actor });
    const third = await storeImage({ bytes: Buffer.from(bytes), fileName: "a.png", userId: user.id, actor });
    expect(new Set([first.id, second.id, third.id]).size).toBe(1);
    const rows = await db.selectFrom("media").select(["id", "sha256"]).where("uploaded_by", "=", user.id).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.sha256).toMatch(/^[0-9a-f]{64}$/);
    const other = await storeImage({ bytes: await image(11), fileName: "b.png", userId: user.id, actor });
    expect(other.id).not.toBe(first.id);
  });

  it("an article's featured-image alt and its ![alt](…) reach items without one, never overwrite one", async () => {
    const user = await addUser(
      { username: "alter", email: "alter@example.org", password: "Ясен-пень 42 шипшина", role: "editor", full_name: null },
      TEST_ACTOR,
    );
    const actor = { id: user.id, username: user.username, role: user.role, ip: null };
    const category = await createCategory({ actor: TEST_ACTOR, input: { name: "Зображення", description: null } });
    const featured = await storeImage({ bytes: await image(20), fileName: "f.png", userId: user.id, actor });
    const inline = await storeImage({ bytes: await image(21), fileName: "i.png", userId: user.id, actor });
    const described = await storeImage({ bytes: await image(22), fileName: "d.png", userId: user.id, actor });
    await setMediaAlt({ id: described.id, alt: "Опис з медіатеки", user: actor });
    await createArticle({
      actor,
      input: {
        title: "Про зображення",
        content: `Текст.\n\n![Клітини під мікроскопом](${inline.url})\n\n![Інший опис](${described.url})`,
        category_id: category.id,
        status: "draft",
        tags: [],
        featured_image: featured.url,
        featured_image_alt: "Телескоп на горі",
      } as never,
    });
    expect((await getMedia({ id: featured.id }))!.alt).toBe("Телескоп на горі");
    expect((await getMedia({ id: inline.id }))!.alt).toBe("Клітини під мікроскопом");
    expect((await getMedia({ id: described.id }))!.alt).toBe("Опис з медіатеки");
  });
});
