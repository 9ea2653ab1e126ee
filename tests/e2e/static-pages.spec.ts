import { expect, signIn, test, uniqueName } from "./fixtures";

// Issue 31 item 5 (DESIGN §17): /admin/pages with JavaScript on and off: the six footer pages of a
// new site are drafts; a page is created, published (then public at /page/{slug}, linked from the
// footer), and deleted. No link anywhere points to `#`.

for (const javaScriptEnabled of [true, false]) {
  test.describe(`static pages (JavaScript ${javaScriptEnabled ? "on" : "off"})`, () => {
    test.use({ javaScriptEnabled });

    test("create a draft, publish it, see it public and in the footer, delete it", async ({ page }) => {
      await signIn(page, "editor", "/admin/pages");
      await expect(page.locator("#pages-title")).toHaveText("Сторінки");
      const rows = page.getByRole("row");
      for (const title of ["Про нас", "Контакти", "Правила для дослідників", "Політика конфіденційності", "Умови використання", "Редакційні стандарти"]) {
        await expect(rows.filter({ hasText: title }).first()).toContainText("Чернетка");
      }

      const slug = uniqueName("pro-redakciyu").toLowerCase();
      const title = `Про редакцію ${slug.slice(-8)}`;
      await page.getByRole("link", { name: "Нова сторінка" }).click();
      await page.getByLabel("Заголовок", { exact: true }).fill(title);
      await page.getByLabel("Адреса (slug)").fill("Погана адреса");
      await page.getByRole("button", { name: "Зберегти сторінку" }).click();
      await expect(page.getByText("Лише латинські літери, цифри та дефіси")).toBeVisible();
      await page.getByLabel("Адреса (slug)").fill(slug);
      await page.getByLabel("Текст (Markdown)").fill("Ми **пишемо** про науку.");
      await page.getByRole("button", { name: "Зберегти сторінку" }).click();
      await expect(page.getByRole("status")).toHaveText(`Сторінку «${title}» збережено`);
      expect((await page.request.get(`/page/${slug}`, { headers: { Cookie: "" } })).status()).toBe(404);

      await page.getByRole("link", { name: `Редагувати: ${title}` }).click();
      await page.getByLabel("Статус", { exact: true }).selectOption("published");
      await page.getByRole("button", { name: "Зберегти сторінку" }).click();
      await expect(page.getByRole("status")).toHaveText(`Сторінку «${title}» збережено`);
      await expect(page.getByRole("row").filter({ hasText: title })).toContainText("Опубліковано");

      await page.goto(`/page/${slug}`);
      await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
      await expect(page.locator(".article-body strong")).toHaveText("пишемо");
      await expect(page.getByRole("contentinfo").getByRole("link", { name: title })).toHaveAttribute("href", `/page/${slug}`);
      await expect(page.locator('a[href="#"]')).toHaveCount(0);

      await page.goto("/admin/pages");
      page.once("dialog", (d) => void d.accept());
      await page.getByRole("button", { name: `Видалити: ${title}` }).click();
      await expect(page.getByRole("status")).toHaveText(`Сторінку «${title}» видалено`);
      expect((await page.request.get(`/page/${slug}`, { headers: { Cookie: "" } })).status()).toBe(404);
    });
  });
}

test("reporters may not open /admin/pages", async ({ page }) => {
  await signIn(page, "reporter");
  await page.goto("/admin/pages");
  await expect(page.getByRole("heading", { name: "Access Denied" })).toBeVisible();
  await expect(page.locator("#pages-title")).toHaveCount(0);
});
