import type { APIRequestContext, Page } from "@playwright/test";
import { DEMO, expect, signIn, test, uniqueName } from "./fixtures";

// Issue 31 item 4: deleting a user who wrote articles. The confirmation says how many they have
// and requires choosing who takes them over, or deactivating instead; their published story then
// shows the new author, never a placeholder. With JavaScript on and off.

/** A reporter with one published article (created through the JSON API); returns their names and the article's slug. */
async function reporterWithStory(request: APIRequestContext) {
  const login = async (username: string, password: string) =>
    `Bearer ${(await (await request.post("/api/auth/login", { data: { username, password } })).json()).access_token as string}`;
  const adminAuth = await login(DEMO.admin.username, DEMO.admin.password);
  const username = uniqueName("author").toLowerCase();
  const password = "Довгий пароль автора 2026";
  const created = await request.post("/api/users/", {
    headers: { Authorization: adminAuth },
    data: { username, email: `${username}@nauka-ua.example`, role: "reporter", password, full_name: `Автор ${username}` },
  });
  expect(created.status()).toBe(201);
  const categories = await (await request.get("/api/categories/admin", { headers: { Authorization: adminAuth } })).json();
  const category = categories.data.find((c: { slug: string }) => c.slug === "biology");
  const article = await request.post("/api/articles/", {
    headers: { Authorization: await login(username, password) },
    data: { title: `Стаття ${username}`, content: "Текст.", category_id: category.id, status: "draft" },
  });
  expect(article.status()).toBe(201);
  const { id, slug } = await article.json();
  expect((await request.post(`/api/articles/${id}/publish`, { headers: { Authorization: adminAuth }, data: {} })).status()).toBe(200);
  return { username, slug };
}

const row = (page: Page, username: string) => page.getByRole("row").filter({ hasText: `@${username}` });

for (const javaScriptEnabled of [true, false]) {
  test.describe(`deleting a user with articles (JavaScript ${javaScriptEnabled ? "on" : "off"})`, () => {
    test.use({ javaScriptEnabled });

    test("the confirmation counts the articles and requires someone to take them over", async ({ page, request }) => {
      const { username, slug } = await reporterWithStory(request);
      await signIn(page, "admin", "/admin/users");
      await row(page, username)
        .getByRole("link", { name: `Delete ${username}` })
        .click();
      const dialog = page.getByRole("dialog", { name: `Видалити ${username}?` });
      await expect(dialog).toContainText(`Автор ${username} має 1 статтю`);
      const heir = dialog.getByLabel("Передати статті користувачеві");
      await expect(heir).toHaveAttribute("required", "");
      await expect(heir.locator("option", { hasText: `@${username}` })).toHaveCount(0);
      await heir.selectOption({ label: `${DEMO.editor.name} (@editor)` });
      await dialog.getByRole("button", { name: "Передати статті й видалити" }).click();
      await expect(page.getByRole("status")).toHaveText(`Користувача ${username} видалено`);
      await expect(row(page, username)).toHaveCount(0);

      await page.goto(`/article/${slug}`);
      await expect(page.locator(".article-header .card-meta")).toContainText(DEMO.editor.name);
      await expect(page.getByText("Science Admin")).toHaveCount(0);
    });

    test("deactivating instead keeps the account and its byline", async ({ page, request }) => {
      const { username, slug } = await reporterWithStory(request);
      await signIn(page, "admin", "/admin/users");
      await row(page, username)
        .getByRole("link", { name: `Delete ${username}` })
        .click();
      await page.getByRole("button", { name: "Деактивувати замість видалення" }).click();
      await expect(page.getByRole("status")).toHaveText(`Користувача ${username} деактивовано`);
      await expect(row(page, username)).toContainText("inactive");
      await page.goto(`/article/${slug}`);
      await expect(page.locator(".article-header .card-meta")).toContainText(`Автор ${username}`);
    });
  });
}
