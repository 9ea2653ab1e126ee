import { isoToKyivLocal } from "../../app/utils/dates";
import { expect, signIn, test, uniqueName } from "./fixtures";

// Issue 14 with JavaScript: the desk's forms are enhanced (no full page load) and land back on the
// editor with the new state; the list's review filter and badge show the article.

test("with JavaScript: submit for review, find it under the review filter, schedule it and unschedule it", async ({ browser }) => {
  const reporterContext = await browser.newContext();
  const reporter = await reporterContext.newPage();
  await signIn(reporter, "reporter");
  const title = uniqueName("Запланована новина");
  await reporter.goto("/admin/articles/new");
  await reporter.getByRole("textbox", { name: "Заголовок", exact: true }).fill(title);
  await reporter.getByRole("textbox", { name: "Вміст (Markdown)", exact: true }).fill("Текст новини для ранкового випуску.");
  await reporter.getByRole("combobox", { name: "Категорія", exact: true }).selectOption({ label: "Медицина" });
  await reporter.getByRole("button", { name: "Зберегти як чернетку" }).click();
  await expect(reporter).toHaveURL(/\/admin\/articles\/edit\/[0-9a-f-]{36}$/);
  const editUrl = new URL(reporter.url()).pathname;
  await reporter.getByRole("button", { name: "Надіслати на перевірку" }).click();
  await expect(reporter.getByRole("note")).toContainText("На перевірці");
  await expect(reporter.getByRole("button", { name: "Надіслати на перевірку" })).toHaveCount(0);

  const editorContext = await browser.newContext();
  const editor = await editorContext.newPage();
  await signIn(editor, "editor");
  await editor.goto("/admin/articles?status=review");
  const row = editor.getByRole("row", { name: new RegExp(title) });
  await expect(row.locator(".status")).toHaveText("На перевірці");

  await editor.goto(editUrl);
  const local = isoToKyivLocal(new Date(Date.now() + 3 * 86_400_000).toISOString());
  await editor.getByLabel("У вказаний час").check();
  await editor.getByLabel("Дата й час публікації (Київ)").fill(local);
  await editor.getByRole("button", { name: "Запланувати…" }).click();
  await expect(editor.getByRole("note")).toContainText("Заплановано на");
  await expect(editor.getByRole("combobox", { name: "Статус", exact: true })).toHaveValue("scheduled");
  await editor.getByRole("button", { name: "Скасувати планування" }).click();
  await expect(editor.getByRole("button", { name: "Скасувати планування" })).toHaveCount(0);
  await expect(editor.getByRole("combobox", { name: "Статус", exact: true })).toHaveValue("draft");
  await reporterContext.close();
  await editorContext.close();
});
