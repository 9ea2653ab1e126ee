import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import sharp from "sharp";
import { makeZip } from "../zip";
import { expect, signIn, test } from "./fixtures";

// Issue 27: /admin/import with JavaScript on and off: an admin uploads a WordPress export, the run
// goes on in the background and the page (revalidating, or without JavaScript refreshing itself)
// shows its summary; the export downloads as one JSON file; a refused file says why; an editor
// gets 403. Each run imports a copy of the fixture under an address of its own (a new source site),
// so the other run and other specs never make it "already imported". A zip of the old uploads sent
// beside it gives the images the old site no longer serves; a hostile zip is refused beside its field.

const wxr = () =>
  readFileSync("tests/fixtures/import/wordpress.xml", "utf8")
    .replaceAll("https://old.example.org", `https://old-${randomUUID().slice(0, 8)}.example.org`)
    // An address nothing answers on: the images are reported, the articles still import.
    .replaceAll("__IMAGES__", "http://127.0.0.1:9");

for (const javaScriptEnabled of [true, false]) {
  test.describe(`/admin/import (JavaScript ${javaScriptEnabled ? "on" : "off"})`, () => {
    test.use({ javaScriptEnabled });

    test("import a WordPress file, see the summary, download the export", async ({ page }) => {
      test.setTimeout(120_000);
      await signIn(page, "admin");
      await page.getByRole("navigation", { name: "Адмін-меню" }).getByRole("link", { name: "Імпорт і експорт", exact: true }).click();
      await expect(page).toHaveURL("/admin/import");
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Імпорт і експорт");

      await page.getByLabel("Формат").selectOption("wordpress");
      await page.getByLabel("Файл експорту").setInputFiles({ name: "wordpress.xml", mimeType: "text/xml", buffer: Buffer.from(wxr()) });
      await page.getByRole("button", { name: "Імпортувати" }).click();
      await expect(page).toHaveURL(/\/admin\/import\?job=\d+$/);
      const summary = page.getByRole("table", { name: "Підсумок імпорту" });
      await expect(summary).toBeVisible({ timeout: 90_000 });
      await expect(summary.getByRole("row", { name: /Статей імпортовано/ })).toContainText("6");
      await expect(summary.getByRole("row", { name: /Коментарі/ })).toContainText("2");
      await expect(summary.getByRole("row", { name: /Пропущено: сторінки/ })).toContainText("1");
      // galaxy, probe and missing on an address nothing answers, and `<img src="x">` of the old site.
      await expect(page.getByText(/Зображення, яких не вдалося отримати \(4\)/)).toBeVisible();

      const download = page.waitForEvent("download");
      await page.getByRole("button", { name: "Завантажити експорт" }).click();
      const file = await download;
      expect(file.suggestedFilename()).toMatch(/^science-news-export-\d{4}-\d{2}-\d{2}\.json$/);
      const doc = JSON.parse(readFileSync((await file.path())!, "utf8"));
      expect(doc).toMatchObject({ format: "science-news-export", version: 1 });
      expect(JSON.stringify(doc)).not.toContain("password_hash");
    });

    test("with a zip of the old uploads the images come from the zip", async ({ page }) => {
      test.setTimeout(120_000);
      const png = await sharp({ create: { width: 30, height: 20, channels: 3, background: "#335577" } })
        .png()
        .toBuffer();
      const zip = makeZip([
        { name: "wp-content/uploads/2019/05/galaxy.png", data: png },
        { name: "wp-content/uploads/2020/01/probe.png", data: png },
      ]);
      await signIn(page, "admin");
      await page.goto("/admin/import");
      await page.getByLabel("Файл експорту").setInputFiles({ name: "wordpress.xml", mimeType: "text/xml", buffer: Buffer.from(wxr()) });
      await page.getByLabel("Архів зображень (ZIP, необов'язково)").setInputFiles({ name: "uploads.zip", mimeType: "application/zip", buffer: zip });
      await page.getByRole("button", { name: "Імпортувати" }).click();
      await expect(page).toHaveURL(/\/admin\/import\?job=\d+$/);
      const summary = page.getByRole("table", { name: "Підсумок імпорту" });
      await expect(summary).toBeVisible({ timeout: 90_000 });
      // galaxy and probe from the zip; missing and `x` still cannot be had.
      await expect(summary.getByRole("row", { name: /Зображення: збережено/ })).toContainText("2 / 0 / 2");
      await expect(page.getByText(/Зображення, яких не вдалося отримати \(2\)/)).toBeVisible();
    });

    test("a hostile zip is refused beside its field, nothing starts, the choices stay", async ({ page }) => {
      await signIn(page, "admin");
      await page.goto("/admin/import");
      await page.getByLabel("Формат").selectOption("wordpress");
      await page.getByLabel("Лише перевірити (нічого не записувати)").check();
      await page.getByLabel("Файл експорту").setInputFiles({ name: "wordpress.xml", mimeType: "text/xml", buffer: Buffer.from(wxr()) });
      const zip = makeZip([{ name: "wp-content/uploads/../../../etc/cron.d/evil.png", data: "x" }]);
      const media = page.getByLabel("Архів зображень (ZIP, необов'язково)");
      await media.setInputFiles({ name: "evil.zip", mimeType: "application/zip", buffer: zip });
      await page.getByRole("button", { name: "Імпортувати" }).click();
      const error = page.locator("#media-error");
      await expect(error).toContainText("виходить за межі архіву");
      await expect(error).toContainText("Нічого не імпортовано");
      await expect(media).toHaveAttribute("aria-invalid", "true");
      await expect(page).toHaveURL(/\/admin\/import$/);
      await expect(page.getByLabel("Формат")).toHaveValue("wordpress");
      await expect(page.getByLabel("Лише перевірити (нічого не записувати)")).toBeChecked();
    });

    test("a hostile file is refused with its reason", async ({ page }) => {
      await signIn(page, "admin");
      await page.goto("/admin/import");
      const bomb = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">]><rss><channel><title>&lol;</title></channel></rss>`;
      await page.getByLabel("Файл експорту").setInputFiles({ name: "bomb.xml", mimeType: "text/xml", buffer: Buffer.from(bomb) });
      await page.getByRole("button", { name: "Імпортувати" }).click();
      await expect(page).toHaveURL(/\/admin\/import\?job=\d+$/);
      await expect(page.getByTestId("import-latest").getByRole("alert")).toContainText("XML містить оголошення DOCTYPE або ENTITY", { timeout: 30_000 });
      await expect(page.getByTestId("import-latest")).toContainText("bomb.xml");
    });
  });
}

test("an editor may not open the import screen or export", async ({ page }) => {
  await signIn(page, "editor");
  expect((await page.request.get("/admin/import")).status()).toBe(403);
  expect((await page.request.post("/admin/import/export", { headers: { Origin: new URL(page.url()).origin } })).status()).toBe(403);
});
