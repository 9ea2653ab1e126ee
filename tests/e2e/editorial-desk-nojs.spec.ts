import type { Browser, Page } from "@playwright/test";
import { isoToKyivLocal } from "../../app/utils/dates";
import { expect, signIn, test, uniqueName } from "./fixtures";

// Issue 14 without JavaScript: a reporter submits a draft for review with a note, an editor finds
// it in the dashboard's "Awaiting review" queue and returns it with a note the author then reads
// at the top of the editor; after a second submit the editor schedules it, unschedules it and
// publishes it now. Every step is a plain form post.
test.use({ javaScriptEnabled: false });
test.slow();

const field = (page: Page, name: string) => page.getByRole("textbox", { name, exact: true }).or(page.getByRole("combobox", { name, exact: true }));

async function as(browser: Browser, role: "reporter" | "editor") {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await signIn(page, role);
  return page;
}

test("review and scheduling as plain form posts: submit, return with a note, schedule, unschedule, publish now", async ({ browser }) => {
  const reporter = await as(browser, "reporter");
  const title = uniqueName("Редакційна перевірка");
  await reporter.goto("/admin/articles/new");
  await field(reporter, "Заголовок").fill(title);
  await field(reporter, "Вміст (Markdown)").fill("Текст для редакції.");
  await field(reporter, "Категорія").selectOption({ label: "Медицина" });
  await reporter.getByRole("button", { name: "Зберегти як чернетку" }).click();
  await expect(reporter).toHaveURL(/\/admin\/articles\/edit\/[0-9a-f-]{36}$/);
  const editUrl = new URL(reporter.url()).pathname;

  await reporter.getByLabel("Примітка для редактора (необов'язково)").fill("Перевірте, будь ласка, цифри");
  await reporter.getByRole("button", { name: "Надіслати на перевірку" }).click();
  await expect(reporter.getByRole("status")).toHaveText("Статтю надіслано на перевірку");
  await expect(reporter.getByRole("note")).toContainText("На перевірці");
  // The author keeps editing while it is in review.
  await field(reporter, "Заголовок").fill(`${title} (уточнено)`);
  await reporter.getByRole("button", { name: "Зберегти", exact: true }).click();
  await expect(reporter.getByRole("status")).toHaveText("Статтю успішно оновлено");
  await expect(reporter.getByRole("note")).toContainText("На перевірці");

  const editor = await as(browser, "editor");
  const queue = editor.getByTestId("review-queue");
  await expect(editor.getByRole("heading", { name: /Awaiting review/ })).toBeVisible();
  await queue.getByRole("link", { name: `${title} (уточнено)`, exact: true }).click();
  await expect(editor).toHaveURL(editUrl);
  await expect(editor.getByRole("note")).toContainText("Перевірте, будь ласка, цифри");
  // A return needs a note (the field is required; the server's 422 is in editorial-desk.test.ts).
  await expect(editor.getByLabel("Примітка для автора")).toHaveAttribute("required", "");
  await editor.getByLabel("Примітка для автора").fill("Додайте посилання на дослідження");
  await editor.getByRole("button", { name: "Повернути автору" }).click();
  await expect(editor).toHaveURL(editUrl);
  await expect(editor.getByRole("status")).toHaveText("Статтю повернуто автору");

  await reporter.goto(editUrl);
  await expect(reporter.getByRole("note")).toContainText("Редактор повернув статтю");
  await expect(reporter.getByRole("note")).toContainText("Додайте посилання на дослідження");
  await reporter.getByRole("button", { name: "Надіслати на перевірку" }).click();
  await expect(reporter.getByRole("status")).toHaveText("Статтю надіслано на перевірку");
  await expect(reporter.getByText("Додайте посилання на дослідження")).toHaveCount(0);

  // Scheduling: a future time (Kyiv wall clock) schedules it.
  await editor.goto(editUrl);
  // A past time is refused by the server (422, editorial-desk.test.ts; publish-action.spec.ts).
  await editor.getByLabel("У вказаний час").check();
  const local = isoToKyivLocal(new Date(Date.now() + 2 * 86_400_000).toISOString());
  await editor.getByLabel("Дата й час публікації (Київ)").fill(local);
  await editor.getByRole("button", { name: "Запланувати…" }).click();
  await expect(editor).toHaveURL(editUrl);
  await expect(editor.getByRole("status")).toContainText("Статтю заплановано на");
  await expect(editor.getByRole("note")).toContainText("Заплановано на");
  const slug = await field(editor, "Slug (адреса статті)").inputValue();
  expect((await editor.request.get(`/article/${slug}`)).status()).toBe(404);
  await editor.goto("/admin/articles?status=scheduled");
  await expect(editor.getByRole("row", { name: new RegExp(title) })).toContainText("Заплановано");

  await editor.goto(editUrl);
  await editor.getByRole("button", { name: "Скасувати планування" }).click();
  await expect(editor.getByRole("status")).toHaveText("Планування скасовано: стаття знову чернетка");
  await expect(editor.getByLabel("Зараз")).toBeChecked();
  await editor.getByRole("button", { name: "Опублікувати зараз" }).click();
  await expect(editor.getByRole("status")).toHaveText("Статтю успішно опубліковано");
  expect((await editor.request.get(`/article/${slug}`)).status()).toBe(200);
});
