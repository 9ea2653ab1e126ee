import { expect, signIn, test, uniqueName } from "./fixtures";

// Issue 31 item 13, without JavaScript: "Зберегти як чернетку" pressed several times quickly sent
// the new-article form several times and made several drafts. The form carries a one-time token:
// however many times the same form arrives, one draft is made and every later copy leads to it.
test.use({ javaScriptEnabled: false });

test("the same new-article form sent three times at once, then pressed again, makes one draft", async ({ page }) => {
  await signIn(page, "reporter");
  await page.goto("/admin/articles/new");
  const title = uniqueName("Одна чернетка");
  await page.getByRole("textbox", { name: "Заголовок", exact: true }).fill(title);
  await page.getByRole("textbox", { name: "Вміст (Markdown)", exact: true }).fill("Текст, що мав зберегтися один раз.");
  await page.getByRole("combobox", { name: "Категорія", exact: true }).selectOption({ label: "Медицина" });
  const token = await page.locator('input[name="form_token"]').inputValue();
  expect(token).toMatch(/^[A-Za-z0-9_-]{22,}$/);
  const categoryId = await page.getByRole("combobox", { name: "Категорія", exact: true }).inputValue();

  // Three quick presses: the browser sends the same form body three times.
  const origin = new URL(page.url()).origin;
  const send = () =>
    page.request.post("/admin/articles/new", {
      headers: { Origin: origin },
      multipart: { title, content: "Текст, що мав зберегтися один раз.", category_id: categoryId, status: "draft", intent: "draft", form_token: token },
      maxRedirects: 0,
    });
  const answers = await Promise.all([send(), send(), send()]);
  const targets = answers.map((a) => a.headers()["location"]);
  expect(answers.map((a) => a.status())).toEqual([302, 302, 302]);
  expect(new Set(targets).size).toBe(1);

  // And the button on the page itself, pressed once more, leads to the same draft.
  await page.getByRole("button", { name: "Зберегти як чернетку" }).click();
  await expect(page).toHaveURL(targets[0]!);
  await expect(page.getByRole("status")).toContainText("повторне надсилання не створило копії");

  const list = await (await page.request.get(`/api/articles/admin?search=${encodeURIComponent(title)}`)).json();
  expect(list.data.map((a: { title: string }) => a.title)).toEqual([title]);

  // A fresh form gets a fresh token and makes a new article.
  await page.goto("/admin/articles/new");
  expect(await page.locator('input[name="form_token"]').inputValue()).not.toBe(token);
});

// Issue 31 item 11: the address follows the title until the article is first published.
test("a draft's address follows its title; once published it stays", async ({ page }) => {
  await signIn(page, "editor");
  await page.goto("/admin/articles/new");
  const suffix = uniqueName("x").slice(2);
  await page.getByRole("textbox", { name: "Заголовок", exact: true }).fill(`ааа тест ${suffix}`);
  await page.getByRole("textbox", { name: "Вміст (Markdown)", exact: true }).fill("Текст статті.");
  await page.getByRole("combobox", { name: "Категорія", exact: true }).selectOption({ label: "Медицина" });
  await page.getByRole("button", { name: "Зберегти як чернетку" }).click();
  await expect(page).toHaveURL(/\/admin\/articles\/edit\//);
  const slug = page.getByRole("textbox", { name: "Slug (адреса статті)" });
  await expect(slug).toHaveValue(`aaa-test-${suffix}`);

  await page.getByRole("textbox", { name: "Заголовок", exact: true }).fill(`Мозок уві сні ${suffix}`);
  await page.getByRole("button", { name: "Зберегти як чернетку" }).click();
  await expect(page.getByRole("status")).toContainText("успішно оновлено");
  await expect(slug).toHaveValue(`mozok-uvi-sni-${suffix}`);

  // Published through the desk's call (the publish panel's buttons are another item's work).
  const id = new URL(page.url()).pathname.split("/").pop();
  const origin = new URL(page.url()).origin;
  expect((await page.request.post(`/api/articles/${id}/publish`, { headers: { Origin: origin }, data: {} })).status()).toBe(200);
  await page.reload();
  await page.getByRole("textbox", { name: "Заголовок", exact: true }).fill(`Сон і мозок ${suffix}`);
  await page.getByRole("button", { name: "Зберегти", exact: true }).click();
  await expect(page.getByRole("status")).toContainText("успішно");
  await expect(slug).toHaveValue(`mozok-uvi-sni-${suffix}`);
});
