import sharp from "sharp";
import { expect, signIn, test, uniqueName } from "./fixtures";

// Issue 17, items 13 and 15: what a news reader expects on an article page (reading time, the
// published time, share links without third-party scripts, related articles, the image's
// caption and alt text), and the editor's fields for them.

const ARTICLE = "/article/mrnk-vaktsyny-proty-raku";

for (const javaScriptEnabled of [true, false]) {
  test.describe(`article page extras (JavaScript ${javaScriptEnabled ? "on" : "off"})`, () => {
    test.use({ javaScriptEnabled });

    test("reading time, published time, share links and related articles", async ({ page, context, baseURL }) => {
      if (javaScriptEnabled) await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL });
      await page.goto(ARTICLE);
      const header = page.locator(".article-header");
      await expect(header.locator(".reading-time")).toHaveText(/^\d+ хв читання$/);
      const time = header.locator("time");
      await expect(time).toHaveText(/^\d{2}\.\d{2}\.\d{4} о \d{2}:\d{2}$/);
      await expect(time).toHaveAttribute("datetime", /^\d{4}-\d{2}-\d{2}T/);

      const share = page.getByRole("region", { name: "Поділитися" });
      const encoded = encodeURIComponent(ARTICLE);
      await expect(share.getByRole("link", { name: "Поділитися в Telegram" })).toHaveAttribute(
        "href",
        new RegExp(`^https://t\\.me/share/url\\?url=[^&]*${encoded}&text=`),
      );
      await expect(share.getByRole("link", { name: "Поділитися в Facebook" })).toHaveAttribute(
        "href",
        new RegExp(`^https://www\\.facebook\\.com/sharer/sharer\\.php\\?u=[^&]*${encoded}$`),
      );
      await expect(share.getByRole("link", { name: "Поділитися в X" })).toHaveAttribute(
        "href",
        new RegExp(`^https://x\\.com/intent/post\\?url=[^&]*${encoded}&text=`),
      );
      for (const link of await share.getByRole("link").all()) await expect(link).toHaveAttribute("rel", /noopener/);
      // No script from another site on the page.
      const scripts = await page.locator("script[src]").evaluateAll((s) => s.map((x) => (x as HTMLScriptElement).src));
      expect(scripts.filter((src) => !src.startsWith(baseURL!))).toEqual([]);

      if (javaScriptEnabled) {
        await share.getByRole("button", { name: "Копіювати посилання" }).click();
        await expect(share.getByRole("status")).toHaveText("Посилання скопійовано");
        expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(new RegExp(`^https?://[^/]+${ARTICLE}$`));
      } else {
        await expect(share.getByRole("button")).toHaveCount(0);
      }

      const related = page.getByRole("region", { name: "Читайте також" });
      const links = related.getByRole("heading", { level: 3 }).getByRole("link");
      const count = await links.count();
      expect(count).toBeGreaterThanOrEqual(3);
      expect(count).toBeLessThanOrEqual(4);
      const hrefs = await links.evaluateAll((as) => as.map((a) => a.getAttribute("href")!));
      expect(hrefs).not.toContain(ARTICLE);
      expect(new Set(hrefs).size).toBe(hrefs.length);
      for (const href of hrefs) expect((await page.request.get(href)).status()).toBe(200);
    });
  });
}

test("featured image: alt text and caption from the editor reach the public page; a narrow image warns", async ({ page }) => {
  test.slow();
  await signIn(page, "editor");
  await page.goto("/admin/articles/new");
  const title = uniqueName("Підпис фото");
  await page.getByRole("textbox", { name: "Заголовок", exact: true }).fill(title);
  await page.getByRole("textbox", { name: "Вміст (Markdown)", exact: true }).fill("Текст про телескоп і зорі.");
  await page.getByRole("combobox", { name: "Категорія", exact: true }).selectOption({ label: "Біологія" });
  const png = await sharp({ create: { width: 400, height: 225, channels: 3, background: "#1d4ed8" } })
    .png()
    .toBuffer();
  await page.getByLabel("Завантажити зображення").setInputFiles({ name: "narrow.png", mimeType: "image/png", buffer: png });
  await expect(page.getByRole("status").filter({ hasText: "ширину 400 px" })).toBeVisible();
  await page.getByLabel("Опис зображення (alt)").fill("Телескоп на тлі нічного неба");
  await page.getByLabel("Підпис (автор фото)").fill("Фото: Марія Шевчук");
  await page.getByRole("button", { name: "Опублікувати", exact: true }).click();
  await expect(page).toHaveURL(/\/admin\/articles\/edit\/[0-9a-f-]{36}$/, { timeout: 20_000 });
  await expect(page.getByLabel("Опис зображення (alt)")).toHaveValue("Телескоп на тлі нічного неба");
  const slug = await page.getByRole("textbox", { name: "Slug (адреса статті)", exact: true }).inputValue();

  await page.goto(`/article/${slug}`);
  const figure = page.locator(".article-image");
  await expect(figure.locator("img")).toHaveAttribute("alt", "Телескоп на тлі нічного неба");
  await expect(figure.locator("figcaption")).toHaveText("Фото: Марія Шевчук");
});
