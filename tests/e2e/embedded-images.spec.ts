import type { Page } from "@playwright/test";
import sharp from "sharp";
import { expect, signIn, test, uniqueName } from "./fixtures";

// Issue 13: one save stores at most 20 images pasted into the content as data: URLs. More is
// refused on the content field, with the text kept in the form, with JavaScript and without.

const TOO_MANY = "Забагато вбудованих зображень: не більше 20 за одне збереження. Завантажте решту в медіатеку й вставте посиланнями.";

async function markdownWithImages(n: number): Promise<string> {
  const parts = ["Текст статті."];
  for (let i = 0; i < n; i++) {
    const png = await sharp({ create: { width: 2, height: 2, channels: 3, background: { r: i, g: 40, b: 90 } } })
      .png()
      .toBuffer();
    parts.push(`![зображення ${i + 1}](data:image/png;base64,${png.toString("base64")})`);
  }
  return parts.join("\n\n");
}

const field = (page: Page, name: string) => page.getByRole("textbox", { name, exact: true }).or(page.getByRole("combobox", { name, exact: true }));

for (const javaScriptEnabled of [true, false]) {
  test.describe(`embedded images in the editor (JavaScript ${javaScriptEnabled ? "on" : "off"})`, () => {
    test.use({ javaScriptEnabled });

    test("21 pasted images are refused on the content field; the text stays in the form", async ({ page }) => {
      await signIn(page, "reporter");
      await page.goto("/admin/articles/new");
      const title = uniqueName("Зображення");
      const content = await markdownWithImages(21);
      await field(page, "Заголовок").fill(title);
      await field(page, "Вміст (Markdown)").fill(content);
      await field(page, "Категорія").selectOption({ label: "Медицина" });
      await page.getByRole("button", { name: "Зберегти як чернетку" }).click();
      await expect(page.locator("#content-error")).toHaveText(TOO_MANY);
      await expect(field(page, "Вміст (Markdown)")).toHaveAttribute("aria-describedby", /content-error/);
      await expect(field(page, "Заголовок")).toHaveValue(title);
      await expect(field(page, "Вміст (Markdown)")).toHaveValue(content);
      expect(new URL(page.url()).pathname).toBe("/admin/articles/new");
    });
  });
}
