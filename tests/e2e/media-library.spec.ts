import { randomBytes } from "node:crypto";
import type { APIRequestContext, Page } from "@playwright/test";
import sharp from "sharp";
import { MAX_FILES_PER_REQUEST } from "../../app/utils/upload-limits";
import { expect, signIn, test, uniqueName } from "./fixtures";

// Issue 17, item 14: the media library pages past its first 100 items, keeps an alt text per
// item, and says which articles use an image before it is deleted.

// Each image is a new file (random first pixels): the library reuses an identical upload (issue 31 item 16).
const png = (shade: number) => {
  const pixels = Buffer.alloc(32 * 24 * 3);
  for (let i = 0; i < pixels.length; i += 3) pixels.set([shade % 256, 90, 160], i);
  randomBytes(6).copy(pixels, 0);
  return sharp(pixels, { raw: { width: 32, height: 24, channels: 3 } })
    .png()
    .toBuffer();
};

/** Uploads images through POST /api/media (one multipart request) as the page's signed-in user. */
async function upload(request: APIRequestContext, page: Page, names: string[]) {
  const multipart: Record<string, { name: string; mimeType: string; buffer: Buffer }> = {};
  for (const [i, name] of names.entries()) multipart[`file${i}`] = { name, mimeType: "image/png", buffer: await png(i) };
  const res = await request.post("/api/media", { headers: { Origin: new URL(page.url()).origin }, multipart });
  expect(res.status()).toBe(201);
  return (await res.json()).data as { id: string; url: string; name: string }[];
}

const card = (page: Page, name: string) => page.getByRole("listitem").filter({ has: page.getByText(name, { exact: true }) });

test("alt text per item: added in a dialog, shown on the card and used for the thumbnail", async ({ page }) => {
  await signIn(page, "editor");
  const name = `${uniqueName("alt")}.png`;
  await upload(page.request, page, [name]);
  await page.goto(`/admin/media?q=${encodeURIComponent(name)}`);
  await expect(card(page, name).getByText("Без опису")).toBeVisible();
  const open = page.getByRole("link", { name: `Змінити опис ${name}` });
  await open.click();
  const dialog = page.getByRole("dialog", { name: `Опис зображення «${name}»` });
  await expect(dialog).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(dialog).toHaveCount(0);
  await expect(open).toBeFocused();

  await open.click();
  await dialog.getByLabel("Опис (alt)").fill("Бактерії під мікроскопом");
  await dialog.getByRole("button", { name: "Зберегти опис" }).click();
  await expect(page.getByText(`Опис «${name}» збережено`)).toBeVisible();
  await expect(card(page, name).getByText("Опис: Бактерії під мікроскопом")).toBeVisible();
  await expect(card(page, name).locator(".media-thumb img")).toHaveAttribute("alt", "Бактерії під мікроскопом");
  await expect(page).not.toHaveURL(/alt=/);
});

for (const javaScriptEnabled of [true, false]) {
  test.describe(`deleting an image an article uses (JavaScript ${javaScriptEnabled ? "on" : "off"})`, () => {
    test.use({ javaScriptEnabled });

    test("asks first, naming the article; cancel keeps it, confirm deletes it", async ({ page }) => {
      await signIn(page, "editor");
      const name = `${uniqueName("used")}.png`;
      const [item] = await upload(page.request, page, [name]);
      const categories = await (await page.request.get("/api/categories/admin")).json();
      const title = uniqueName("Стаття з фото");
      const created = await page.request.post("/api/articles/", {
        headers: { Origin: new URL(page.url()).origin },
        data: { title, content: `Текст.\n\n![фото](${item.url})`, category_id: categories.data[0].id },
      });
      expect(created.status()).toBe(201);

      await page.goto(`/admin/media?q=${encodeURIComponent(name)}`);
      await page.getByRole("checkbox", { name: `Select ${name}` }).check();
      if (javaScriptEnabled) page.once("dialog", (dialog) => void dialog.accept());
      await page.getByRole("button", { name: /^Delete Selected/ }).click();
      const ask = page.getByRole("alertdialog");
      await expect(ask).toContainText(`«${title}»`);
      await ask.getByRole("link", { name: "Скасувати" }).click();
      await expect(card(page, name)).toBeVisible();
      expect((await page.request.get(item.url)).status()).toBe(200);

      await page.getByRole("checkbox", { name: `Select ${name}` }).check();
      if (javaScriptEnabled) page.once("dialog", (dialog) => void dialog.accept());
      await page.getByRole("button", { name: /^Delete Selected/ }).click();
      await page.getByRole("alertdialog").getByRole("button", { name: "Видалити" }).click();
      await expect(page.getByText("Видалено зображень: 1")).toBeVisible();
      await expect(card(page, name)).toHaveCount(0);
    });
  });
}

test.describe("paging (JavaScript off)", () => {
  test.use({ javaScriptEnabled: false });

  test("more than one page of items: the pager moves through them, keeping the search", async ({ page }) => {
    test.slow();
    await signIn(page, "editor");
    const stem = uniqueName("page").toLowerCase();
    const names = Array.from({ length: 101 }, (_, i) => `${stem}-${String(i).padStart(3, "0")}.png`);
    for (let i = 0; i < names.length; i += MAX_FILES_PER_REQUEST) await upload(page.request, page, names.slice(i, i + MAX_FILES_PER_REQUEST));
    await page.goto(`/admin/media?q=${stem}`);
    await expect(page.locator(".media-card")).toHaveCount(100);
    const pager = page.getByRole("navigation", { name: "Сторінки медіатеки" });
    await expect(pager).toContainText("Сторінка 1 з 2");
    await pager.getByRole("link", { name: "Наступна →" }).click();
    await expect(page).toHaveURL(new RegExp(`q=${stem}.*page=2|page=2.*q=${stem}`));
    await expect(page.locator(".media-card")).toHaveCount(1);
    await expect(pager).toContainText("Сторінка 2 з 2");
    await pager.getByRole("link", { name: "← Попередня" }).click();
    await expect(page.locator(".media-card")).toHaveCount(100);
  });
});
