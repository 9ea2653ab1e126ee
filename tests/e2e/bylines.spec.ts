import { AxeBuilder } from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { expect, signIn, test, uniqueName } from "./fixtures";

// Issue 29 (DESIGN §16): bylines picked in the editor (keyboard, JavaScript on and off), guest
// contributors made on /admin/authors, the article's linked names, author and tag pages, and the
// "не індексувати" switch.

async function addGuest(page: Page, name: string) {
  await page.goto("/admin/authors");
  await page.getByLabel("Ім'я", { exact: true }).fill(name);
  await page.getByLabel("Коротка біографія").fill("Пише про космос.");
  await page.getByRole("button", { name: "Додати автора" }).click();
  await expect(page.getByRole("cell", { name, exact: true })).toBeVisible();
}

async function startArticle(page: Page, title: string, tag: string) {
  await page.goto("/admin/articles/new");
  await page.getByRole("textbox", { name: "Заголовок", exact: true }).fill(title);
  await page.getByRole("textbox", { name: "Вміст (Markdown)", exact: true }).fill("Текст статті з двома авторами.");
  await page.getByRole("combobox", { name: "Категорія", exact: true }).selectOption({ label: "Медицина" });
  await page.getByRole("textbox", { name: "Теги (через кому)", exact: true }).fill(tag);
}

test.describe("with JavaScript", () => {
  test("an editor adds a guest co-author, orders the byline with the keyboard, and readers follow the names", async ({ page }) => {
    const guest = uniqueName("Гість");
    const title = uniqueName("Стаття з гостем");
    const tag = uniqueName("тег").toLowerCase();
    await signIn(page, "editor");
    await addGuest(page, guest);
    await startArticle(page, title, tag);
    const guestBox = page.getByRole("checkbox", { name: `${guest} (гість)` });
    await guestBox.focus();
    await page.keyboard.press("Space");
    await expect(guestBox).toBeChecked();
    await expect(page.getByRole("spinbutton", { name: "Порядок: Андрій Мельник" })).toHaveValue("1");
    await expect(page.getByRole("spinbutton", { name: `Порядок: ${guest}` })).toHaveValue("2");
    // ↑ then ↓: the numbers follow.
    await page.getByRole("button", { name: `Вище: ${guest}` }).click();
    await expect(page.getByRole("spinbutton", { name: `Порядок: ${guest}` })).toHaveValue("1");
    await page.getByRole("button", { name: `Нижче: ${guest}` }).click();
    await expect(page.getByRole("spinbutton", { name: `Порядок: ${guest}` })).toHaveValue("2");
    await page.getByRole("button", { name: "Опублікувати", exact: true }).click();
    await expect(page).toHaveURL(/\/admin\/articles\/edit\/[0-9a-f-]{36}$/);
    await expect(page.getByRole("checkbox", { name: `${guest} (гість)` })).toBeChecked();
    const slug = await page.getByRole("textbox", { name: "Slug (адреса статті)", exact: true }).inputValue();

    await page.goto(`/article/${slug}`);
    const byline = page.locator(".article-header .byline");
    await expect(byline.getByRole("link")).toHaveText(["Андрій Мельник", guest]);
    await byline.getByRole("link", { name: guest }).click();
    await expect(page.getByRole("heading", { level: 1, name: guest })).toBeVisible();
    await expect(page.getByText("Запрошений автор")).toBeVisible();
    await expect(page.getByRole("link", { name: title })).toBeVisible();
    const feed = await page.request.get(`${new URL(page.url()).pathname}/rss.xml`);
    expect(await feed.text()).toContain(title);

    await page.goto(`/article/${slug}`);
    await page.getByRole("link", { name: `#${tag}` }).click();
    await expect(page.getByRole("heading", { level: 1, name: `#${tag}` })).toBeVisible();
    await expect(page.getByRole("link", { name: title })).toBeVisible();
  });

  test("a reporter cannot give their article away: the first byline stays theirs", async ({ page }) => {
    await signIn(page, "reporter");
    await startArticle(page, uniqueName("Чернетка"), "чернетки");
    await page.getByRole("checkbox", { name: "Марія Шевчук (reporter)" }).uncheck();
    await page.getByRole("checkbox", { name: "Андрій Мельник (editor)" }).check();
    await page.getByRole("button", { name: "Зберегти як чернетку" }).click();
    await expect(page.locator("#authors-error")).toHaveText("Репортер лишається першим автором своєї статті");
  });
});

for (const path of ["/author/olena-kovalenko", "/tag/onkolohiia", "/admin/authors"]) {
  test(`no serious or critical accessibility violations on ${path}`, async ({ page }) => {
    if (path.startsWith("/admin")) await signIn(page, "editor");
    await page.goto(path);
    const results = await new AxeBuilder({ page }).analyze();
    const bad = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
    expect(bad.map((v) => `${v.id} ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
  });
}

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("guest made, byline picked by numbers, noindex set; the author and tag pages render", async ({ page }) => {
    const guest = uniqueName("Гостя");
    const title = uniqueName("Без скриптів");
    const tag = uniqueName("безjs").toLowerCase();
    await signIn(page, "editor");
    await addGuest(page, guest);
    await startArticle(page, title, tag);
    // Guest first is refused (the first author owns the article): the number decides the order.
    await page.getByRole("checkbox", { name: `${guest} (гість)` }).check();
    await page.getByRole("spinbutton", { name: `Порядок: ${guest}` }).fill("1");
    await page.getByRole("spinbutton", { name: "Порядок: Андрій Мельник" }).fill("2");
    await page.getByRole("button", { name: "Опублікувати", exact: true }).click();
    await expect(page.locator("#authors-error")).toHaveText("Першим автором має бути працівник редакції (власник статті)");
    await page.getByRole("spinbutton", { name: `Порядок: ${guest}` }).fill("2");
    await page.getByRole("spinbutton", { name: "Порядок: Андрій Мельник" }).fill("1");
    await page.getByRole("checkbox", { name: "Не індексувати" }).check();
    await page.getByRole("button", { name: "Опублікувати", exact: true }).click();
    await expect(page).toHaveURL(/\/admin\/articles\/edit\/[0-9a-f-]{36}$/);
    await expect(page.getByRole("checkbox", { name: "Не індексувати" })).toBeChecked();
    const slug = await page.getByRole("textbox", { name: "Slug (адреса статті)", exact: true }).inputValue();

    await page.goto(`/article/${slug}`);
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", "noindex, follow");
    await expect(page.locator(".article-header .byline").getByRole("link")).toHaveText(["Андрій Мельник", guest]);
    const sitemap = await (await page.request.get("/sitemap.xml")).text();
    expect(sitemap).not.toContain(slug);
    expect(await (await page.request.get("/rss.xml")).text()).not.toContain(slug);

    await page.getByRole("link", { name: guest }).click();
    await expect(page.getByRole("heading", { level: 1, name: guest })).toBeVisible();
    await expect(page.getByText("Пише про космос.")).toBeVisible();
    await expect(page.getByRole("link", { name: title })).toBeVisible();
    await page.goto(`/article/${slug}`);
    await page.getByRole("link", { name: `#${tag}` }).click();
    await expect(page.getByRole("heading", { level: 1, name: `#${tag}` })).toBeVisible();
    expect(await (await page.request.get(`${new URL(page.url()).pathname}/rss.xml`)).text()).not.toContain(slug);
  });

  test("staff edit their own author page's bio and links", async ({ page }) => {
    await signIn(page, "admin");
    await page.goto("/admin/profile");
    await page.getByRole("link", { name: /Біографія, фото й посилання/ }).click();
    const bio = uniqueName("Наукова журналістка");
    await page.getByLabel("Коротка біографія").fill(bio);
    await page.getByLabel(/Посилання/).fill("не посилання");
    await page.getByRole("button", { name: "Зберегти" }).click();
    await expect(page.locator("#links-error")).toContainText("Посилання");
    await page.getByLabel(/Посилання/).fill("Мастодон | https://example.org/@olena");
    await page.getByRole("button", { name: "Зберегти" }).click();
    await expect(page.getByRole("status")).toHaveText("Сторінку автора збережено");
    await page.goto("/author/olena-kovalenko");
    await expect(page.getByText(bio)).toBeVisible();
    await expect(page.getByRole("link", { name: "Мастодон" })).toHaveAttribute("href", "https://example.org/@olena");
  });
});
