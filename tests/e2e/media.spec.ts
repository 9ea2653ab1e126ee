import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "@playwright/test";
import sharp from "sharp";
import { expect, signIn, test, uniqueName } from "./fixtures";

// Test images are made with sharp here: no binary fixtures.
async function png(width = 120, height = 80) {
  return sharp({ create: { width, height, channels: 3, background: { r: 40, g: 140, b: 90 } } })
    .png()
    .toBuffer();
}
async function jpeg(width = 1000, height = 600) {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 80, b: 40 } } })
    .jpeg()
    .toBuffer();
}
const file = (name: string, mimeType: string, buffer: Buffer) => ({ name, mimeType, buffer });
const uploadsDir = () => join(process.env.E2E_DATA_DIR!, "uploads");
const storedFiles = (stem: string) => (existsSync(uploadsDir()) ? readdirSync(uploadsDir()).filter((f) => f.startsWith(stem)) : []);
const card = (page: Page, name: string) => page.getByRole("listitem").filter({ has: page.getByText(name, { exact: true }) });

test.describe("media library (JavaScript on)", () => {
  test("uploads one and several images, refuses a 6 MB file, a text file named .png and an SVG", async ({ page }) => {
    await signIn(page, "reporter");
    await page.goto("/admin/media");
    await expect(page.getByRole("heading", { name: "Media Library" })).toBeVisible();
    await page.getByRole("link", { name: "Upload" }).click();
    await expect(page.getByText("Supports: JPG, PNG, GIF, WebP up to 5MB")).toBeVisible();

    const one = `${uniqueName("one")}.png`;
    await page.getByLabel("Choose images").setInputFiles(file(one, "image/png", await png()));
    const results = page.getByRole("list", { name: "Uploaded images" });
    await expect(results.getByText(one)).toBeVisible();

    const a = `${uniqueName("many-a")}.jpg`;
    const b = `${uniqueName("many-b")}.png`;
    const big = `${uniqueName("big")}.jpg`;
    const fake = `${uniqueName("fake")}.png`;
    const svg = `${uniqueName("vector")}.svg`;
    await page
      .getByLabel("Choose images")
      .setInputFiles([
        file(a, "image/jpeg", await jpeg()),
        file(b, "image/png", await png(64, 64)),
        file(big, "image/jpeg", Buffer.concat([await jpeg(), Buffer.alloc(6 * 1024 * 1024)])),
        file(fake, "image/png", Buffer.from("just some text, not an image")),
        file(svg, "image/svg+xml", Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>')),
      ]);
    await expect(results.getByText(a)).toBeVisible();
    await expect(results.getByText(b)).toBeVisible();
    await expect(results.getByRole("alert").filter({ hasText: big })).toContainText("5 МБ");
    await expect(results.getByRole("alert").filter({ hasText: fake })).toContainText("не зображення");
    await expect(results.getByRole("alert").filter({ hasText: svg })).toContainText("SVG");

    // Drag and drop onto the area uploads too.
    const dropped = `${uniqueName("dropped")}.gif`;
    const gif = (
      await sharp({ create: { width: 30, height: 20, channels: 3, background: { r: 1, g: 2, b: 3 } } })
        .gif()
        .toBuffer()
    ).toString("base64");
    const transfer = await page.evaluateHandle(
      ({ name, data }) => {
        const dt = new DataTransfer();
        const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
        dt.items.add(new File([bytes], name, { type: "image/gif" }));
        return dt;
      },
      { name: dropped, data: gif },
    );
    const zone = page.locator(".dropzone");
    await zone.dispatchEvent("dragover", { dataTransfer: transfer });
    await expect(zone).toContainText("Drop the images here!");
    await zone.dispatchEvent("drop", { dataTransfer: transfer });
    await expect(results.getByText(dropped)).toBeVisible();

    // The library lists the stored ones only, with size, dimensions and date.
    await page.getByRole("link", { name: "Media Library" }).click();
    await expect(card(page, a)).toContainText("1000x600");
    await expect(card(page, a)).toContainText(" KB");
    for (const refused of [big, fake, svg]) await expect(page.getByText(refused, { exact: true })).toHaveCount(0);
  });

  test("search, type filter, copy URL, select and delete for real", async ({ page, context, baseURL }) => {
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL });
    await signIn(page, "editor");
    const name = `${uniqueName("Зоря")}.png`;
    const other = `${uniqueName("other")}.png`;
    const res = await page.request.post("/api/media", {
      multipart: { files: file(name, "image/png", await png(300, 200)) },
      headers: { Origin: baseURL! },
    });
    expect(res.status()).toBe(201);
    const item = (await res.json()).data[0];
    expect(
      (await page.request.post("/api/media", { multipart: { files: file(other, "image/png", await png()) }, headers: { Origin: baseURL! } })).status(),
    ).toBe(201);
    const stem = item.url.slice("/media/".length).replace(/\.png$/, "");
    expect(storedFiles(stem)).toHaveLength(4);

    await page.goto("/admin/media");
    await page.getByRole("searchbox", { name: "Search media" }).fill(name.toUpperCase().slice(0, 12));
    await expect(page).toHaveURL(/q=/);
    await expect(card(page, name)).toBeVisible();
    await expect(page.getByText(other, { exact: true })).toHaveCount(0);

    await page.getByLabel("Type").selectOption("video");
    await expect(page.getByRole("heading", { name: "No media found" })).toBeVisible();
    await expect(page.getByText("Try adjusting your search terms")).toBeVisible();
    await page.getByLabel("Type").selectOption("image");
    await expect(card(page, name)).toBeVisible();
    await page.getByRole("button", { name: "List" }).click();
    await expect(page.getByRole("list", { name: "Media" })).toHaveClass(/media-list/);
    // One view in the query, the filters kept (issue 17).
    expect(new URL(page.url()).searchParams.getAll("view")).toEqual(["list"]);
    expect(new URL(page.url()).searchParams.get("type")).toBe("image");
    await page.getByRole("button", { name: "Grid" }).click();
    await expect(page.getByRole("list", { name: "Media" })).toHaveClass(/media-grid/);
    expect(new URL(page.url()).searchParams.getAll("view")).toEqual(["grid"]);
    // A few small images are counted in KB, not "0.0 MB".
    await expect(page.locator(".stat-card").filter({ hasText: "Total Size" }).locator(".stat-value")).toHaveText(/^(\d+ KB|\d+\.\d MB)$/);
    await expect(page.locator(".stat-card").filter({ hasText: "Total Size" })).not.toContainText("0.0 MB");
    await page.getByRole("button", { name: "List" }).click();
    await expect(page.getByRole("list", { name: "Media" })).toHaveClass(/media-list/);

    await card(page, name).hover();
    await page.getByRole("button", { name: `Copy URL of ${name}` }).click();
    await expect(page.getByText("Image URL copied to clipboard!")).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${baseURL}${item.url}`);
    await expect(page.getByRole("link", { name: `Open ${name} full size` })).toHaveAttribute("href", item.url);

    await page.getByRole("checkbox", { name: `Select ${name}` }).check();
    await expect(page.locator(".stat-card").filter({ hasText: "Selected" })).toContainText("1");
    page.once("dialog", (dialog) => {
      expect(dialog.message()).toBe("Delete 1 selected image(s)?");
      void dialog.accept();
    });
    await page.getByRole("button", { name: "Delete Selected (1)" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Видалено" })).toBeVisible();
    await page.reload();
    await expect(page.getByText(name, { exact: true })).toHaveCount(0);
    expect(storedFiles(stem)).toEqual([]);
    expect((await page.request.get(item.url)).status()).toBe(404);
  });
});

test.describe("media library (JavaScript off)", () => {
  test.use({ javaScriptEnabled: false });

  test("a plain multiple-file form uploads, search and delete work through forms", async ({ page }) => {
    await signIn(page, "admin");
    await page.goto("/admin/media?tab=upload");
    const a = `${uniqueName("nojs-a")}.png`;
    const b = `${uniqueName("nojs-b")}.jpg`;
    const svg = `${uniqueName("nojs")}.svg`;
    await page
      .getByLabel("Choose images")
      .setInputFiles([
        file(a, "image/png", await png()),
        file(b, "image/jpeg", await jpeg(400, 300)),
        file(svg, "image/svg+xml", Buffer.from("<svg xmlns='http://www.w3.org/2000/svg'/>")),
      ]);
    await page.getByRole("button", { name: "Upload" }).click();
    const results = page.getByRole("list", { name: "Uploaded images" });
    await expect(results.getByText(a)).toBeVisible();
    await expect(results.getByText(b)).toBeVisible();
    await expect(results.getByRole("alert").filter({ hasText: svg })).toContainText("SVG");

    await page.goto("/admin/media");
    await page.getByRole("searchbox", { name: "Search media" }).fill(a.slice(0, 14));
    await page.getByRole("button", { name: "Search" }).click();
    await expect(card(page, a)).toBeVisible();
    await expect(page.getByText(b, { exact: true })).toHaveCount(0);
    await page.getByRole("checkbox", { name: `Select ${a}` }).check();
    await page.getByRole("button", { name: /Delete Selected/ }).click();
    await expect(page.getByRole("status").filter({ hasText: "Видалено зображень: 1" })).toBeVisible();
    await expect(page.getByText(a, { exact: true })).toHaveCount(0);
    await expect(page.getByRole("heading", { name: "No media found" })).toBeVisible();
  });
});
