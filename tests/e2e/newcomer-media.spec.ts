import sharp from "sharp";
import { expect, signIn, test, uniqueName } from "./fixtures";

// Issue 31 item 16: the alt text given with an article reaches the media item (the library no
// longer says "Без опису"), and the same file uploaded three times is one item.

test("three uploads of one file are one item; the article's alt text shows in the library", async ({ page }) => {
  await signIn(page, "editor");
  const origin = new URL(page.url()).origin;
  const shade = Math.floor(Math.random() * 256);
  const bytes = await sharp({ create: { width: 36, height: 20, channels: 3, background: { r: shade, g: 17, b: 211 } } })
    .png()
    .toBuffer();
  const name = `${uniqueName("same")}.png`;
  const ids: string[] = [];
  let url = "";
  for (let i = 0; i < 3; i++) {
    const res = await page.request.post("/api/media", { headers: { Origin: origin }, multipart: { file: { name, mimeType: "image/png", buffer: bytes } } });
    expect(res.status()).toBe(201);
    const [item] = (await res.json()).data;
    ids.push(item.id);
    url = item.url;
  }
  expect(new Set(ids).size).toBe(1);
  await page.goto(`/admin/media?q=${encodeURIComponent(name)}`);
  const card = page.getByRole("listitem").filter({ has: page.getByText(name, { exact: true }) });
  await expect(card).toHaveCount(1);
  await expect(card.getByText("Без опису")).toBeVisible();

  const categories = await (await page.request.get("/api/categories/admin")).json();
  const created = await page.request.post("/api/articles/", {
    headers: { Origin: origin },
    data: {
      title: uniqueName("Стаття з описом"),
      content: "Текст статті.",
      category_id: categories.data[0].id,
      status: "draft",
      featured_image: url,
      featured_image_alt: "Пробірки з зеленою рідиною",
    },
  });
  expect(created.status()).toBe(201);
  await page.reload();
  await expect(card.getByText("Опис: Пробірки з зеленою рідиною")).toBeVisible();
});
