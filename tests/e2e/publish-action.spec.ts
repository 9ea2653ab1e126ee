import type { Page } from "@playwright/test";
import { isoToKyivLocal } from "../../app/utils/dates";
import { expect, signIn, test, uniqueName } from "./fixtures";

// Issue 31 item 1: the editor's main action. An article in review opens with "Зараз" chosen and a
// button that says "Опублікувати зараз"; "Запланувати…" appears only when a time is chosen; a stale
// past time left in the field never blocks publishing now (in the editor and on the separate
// "Редакція" page); a scheduled article opens again with its time filled in. With and without JS
// (without JS the page is exactly what the server rendered).

async function articleInReview(page: Page) {
  const origin = new URL(page.url()).origin;
  const categories = await (await page.request.get("/api/categories/admin")).json();
  const category = categories.data.find((c: { slug: string }) => c.slug === "medicine");
  const title = uniqueName("Головна дія");
  const res = await page.request.post("/api/articles/", {
    headers: { Origin: origin },
    data: { title, content: "Текст для публікації.", category_id: category.id, status: "draft" },
  });
  expect(res.status()).toBe(201);
  const article = (await res.json()) as { id: string; slug: string };
  expect((await page.request.post(`/api/articles/${article.id}/submit`, { headers: { Origin: origin }, data: {} })).status()).toBe(200);
  return article;
}

const publicStatus = async (page: Page, slug: string) => (await page.request.get(`/article/${slug}`, { headers: { Cookie: "" } })).status();

for (const javaScriptEnabled of [true, false]) {
  test.describe(`the publish action (JavaScript ${javaScriptEnabled ? "on" : "off"})`, () => {
    test.use({ javaScriptEnabled });

    test("'Опублікувати зараз' is the default; 'Запланувати…' only with a time; a stale time never blocks now", async ({ page }) => {
      await signIn(page, "editor");
      const article = await articleInReview(page);
      const editUrl = `/admin/articles/edit/${article.id}`;
      await page.goto(editUrl);
      await expect(page.getByLabel("Зараз")).toBeChecked();
      await expect(page.getByRole("button", { name: "Опублікувати зараз" })).toBeVisible();
      await expect(page.getByRole("button", { name: "Запланувати…" })).toBeHidden();
      await expect(page.getByRole("button", { name: "Запланувати публікацію" })).toHaveCount(0);
      await expect(page.getByLabel("Дата й час публікації (Київ)")).toBeHidden();

      await page.getByLabel("У вказаний час").check();
      await expect(page.getByRole("button", { name: "Запланувати…" })).toBeVisible();
      await expect(page.getByRole("button", { name: "Опублікувати зараз" })).toBeHidden();
      // A past time: the server refuses it on the "Редакція" page, with the form kept.
      const stale = isoToKyivLocal(new Date(Date.now() - 3 * 86_400_000).toISOString());
      await page.getByLabel("Дата й час публікації (Київ)").fill(stale);
      await page.getByRole("button", { name: "Запланувати…" }).click();
      await expect(page).toHaveURL(`/admin/articles/desk/${article.id}`);
      await expect(page.locator(".field-error")).toBeVisible();
      await expect(page.getByLabel("Дата й час публікації (Київ)")).toHaveValue(stale);
      // "Зараз" with the stale time still in the field publishes at once.
      await page.getByLabel("Зараз").check();
      await page.getByRole("button", { name: "Опублікувати зараз" }).click();
      await expect(page).toHaveURL(editUrl);
      await expect(page.getByRole("status")).toHaveText("Статтю успішно опубліковано");
      expect(await publicStatus(page, article.slug)).toBe(200);
    });

    test("a stale time in the editor's field does not block 'Опублікувати зараз'", async ({ page }) => {
      await signIn(page, "editor");
      const article = await articleInReview(page);
      await page.goto(`/admin/articles/edit/${article.id}`);
      await page.getByLabel("У вказаний час").check();
      await page.getByLabel("Дата й час публікації (Київ)").fill(isoToKyivLocal(new Date(Date.now() - 86_400_000).toISOString()));
      await page.getByLabel("Зараз").check();
      await page.getByRole("button", { name: "Опублікувати зараз" }).click();
      await expect(page.getByRole("status")).toHaveText("Статтю успішно опубліковано");
      expect(await publicStatus(page, article.slug)).toBe(200);
    });

    test("a scheduled article opens again with its time filled in and 'Запланувати…' offered", async ({ page }) => {
      await signIn(page, "editor");
      const article = await articleInReview(page);
      const editUrl = `/admin/articles/edit/${article.id}`;
      await page.goto(editUrl);
      const local = isoToKyivLocal(new Date(Date.now() + 2 * 86_400_000).toISOString());
      await page.getByLabel("У вказаний час").check();
      await page.getByLabel("Дата й час публікації (Київ)").fill(local);
      await page.getByRole("button", { name: "Запланувати…" }).click();
      await expect(page.getByRole("status")).toContainText("Статтю заплановано на");
      await page.goto(editUrl);
      await expect(page.getByLabel("У вказаний час")).toBeChecked();
      await expect(page.getByLabel("Дата й час публікації (Київ)")).toHaveValue(local);
      await expect(page.getByRole("button", { name: "Запланувати…" })).toBeVisible();
      expect(await publicStatus(page, article.slug)).toBe(404);
    });
  });
}
