import { AxeBuilder } from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { expect, signIn, test, uniqueName } from "./fixtures";

// Issue 15: autosave survives a closed browser and reaches another device; the History panel
// compares and restores with JavaScript, the History page without it; a preview link shows a
// draft to someone outside the newsroom until it is revoked.

const field = (page: Page, name: string) => page.getByRole("textbox", { name, exact: true }).or(page.getByRole("combobox", { name, exact: true }));

async function apiCreate(page: Page, title: string, content = "Перший варіант тексту статті.") {
  const categories = await (await page.request.get("/api/categories/admin")).json();
  const category = categories.data.find((c: { slug: string }) => c.slug === "technology");
  const res = await page.request.post("/api/articles/", {
    headers: { Origin: new URL(page.url()).origin },
    data: { title, content, category_id: category.id, status: "draft" },
  });
  expect(res.status()).toBe(201);
  return (await res.json()) as { id: string; slug: string; category_id: string };
}

async function expectNoSeriousAxeViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  const bad = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(bad.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`)).toEqual([]);
}

test("text typed and not saved survives a closed browser: autosave after 30 s, offered on another device", async ({ page, browser }) => {
  await signIn(page, "editor");
  const { id } = await apiCreate(page, uniqueName("Автозбереження"));
  await page.clock.install();
  await page.goto(`/admin/articles/edit/${id}`);
  await field(page, "Вміст (Markdown)").fill("Текст, набраний і не збережений перед тим, як закрилася вкладка.");
  const autosaved = page.waitForResponse((r) => r.url().endsWith(`/api/articles/${id}/autosave`) && r.request().method() === "PUT");
  await page.clock.fastForward("00:31");
  expect((await autosaved).status()).toBe(200);
  await expect(page.getByTestId("autosave-status")).toContainText("Автозбережено на сервері");
  await page.context().close();

  // Another browser (no local copy): the server's copy is offered.
  const other = await browser.newContext();
  const second = await other.newPage();
  await signIn(second, "editor");
  await second.goto(`/admin/articles/edit/${id}`);
  const offer = second.getByTestId("autosave-offer");
  await expect(offer).toContainText("Є автозбережена версія від");
  await offer.getByRole("button", { name: "Відновити" }).click();
  await expect(field(second, "Вміст (Markdown)")).toHaveValue("Текст, набраний і не збережений перед тим, як закрилася вкладка.");
  // Saving clears it: the next visit offers nothing.
  await second.getByRole("button", { name: "Зберегти як чернетку" }).click();
  await expect(second.getByRole("status").filter({ hasText: "успішно оновлено" })).toBeVisible();
  await second.reload();
  await expect(field(second, "Вміст (Markdown)")).toHaveValue("Текст, набраний і не збережений перед тим, як закрилася вкладка.");
  await expect(second.getByTestId("autosave-offer")).toHaveCount(0);
  await other.close();
});

test("History panel: word diff against the saved text and restore after a dialog", async ({ page }) => {
  const problems: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(message.text());
  });
  page.on("pageerror", (error) => problems.push(error.message));
  await signIn(page, "editor");
  const { id } = await apiCreate(page, uniqueName("Історія"), "Марс має два супутники.");
  await page.goto(`/admin/articles/edit/${id}`);
  await field(page, "Вміст (Markdown)").fill("Марс має три супутники.");
  await page.getByRole("button", { name: "Зберегти як чернетку" }).click();
  await expect(page.getByRole("status").filter({ hasText: "успішно оновлено" })).toBeVisible();

  await page.getByRole("button", { name: "Історія змін" }).click();
  const panel = page.getByRole("region", { name: "Історія змін" });
  await expect(panel.getByText("Змінено: вміст")).toBeVisible();
  await panel.getByRole("button", { name: "Порівняти" }).last().click();
  await expect(panel.locator(".revision-diff-text del")).toContainText(["два"]);
  await expect(panel.locator(".revision-diff-text ins")).toContainText(["три"]);
  await expectNoSeriousAxeViolations(page);
  page.once("dialog", (dialog) => void dialog.accept());
  await panel.getByRole("button", { name: "Відновити цю версію" }).click();
  await expect(field(page, "Вміст (Markdown)")).toHaveValue("Марс має два супутники.");
  const list = await (await page.request.get(`/api/articles/${id}/revisions`)).json();
  expect(list.total).toBe(3);
  // No hydration or CSP errors on the editor with its new tools.
  expect(problems).toEqual([]);
});

test("versions too different to compare within the time budget say so, in the panel and on the History page, and can still be restored (issue 25)", async ({
  page,
}) => {
  test.slow(); // the diff gives up at 80% of the 10 s budget (docs/decisions/018)
  // Two unrelated texts of 20,000 words: Myers' diff needs minutes for them (5,000 words take
  // 2–8 s on the 2-core box, within the default budget), so the refusal does not depend on the box.
  const words = (seed: number) => {
    let s = seed;
    return Array.from({ length: 20_000 }, () => `слово${(s = (s * 1103515245 + 12345) % 2147483648) % 997}`).join(" ");
  };
  await signIn(page, "editor");
  const { id, category_id } = await apiCreate(page, uniqueName("Переписана"), words(1));
  const origin = new URL(page.url()).origin;
  const rewritten = await page.request.put(`/api/articles/${id}`, {
    headers: { Origin: origin },
    data: { title: "Переписана", content: words(2), category_id, status: "draft" },
  });
  expect(rewritten.status()).toBe(200);
  const message = "Версії надто різні, щоб порівняти їх по словах у межах ліміту часу. Версію все одно можна відновити.";

  await page.goto(`/admin/articles/edit/${id}`);
  await page.getByRole("button", { name: "Історія змін" }).click();
  const panel = page.getByRole("region", { name: "Історія змін" });
  await panel.getByRole("button", { name: "Порівняти" }).last().click();
  await expect(panel.getByRole("alert")).toHaveText(message, { timeout: 20_000 });

  // The History page, reached by a link (a client-side navigation: its data answers 422).
  await panel.getByRole("link", { name: "Окрема сторінка історії" }).click();
  await page
    .getByRole("link", { name: /Порівняти версію/ })
    .last()
    .click();
  await expect(page.getByRole("alert").filter({ hasText: "Версії надто різні" })).toHaveText(message, { timeout: 20_000 });
  page.once("dialog", (dialog) => void dialog.accept());
  await page.getByRole("button", { name: "Відновити цю версію" }).click();
  await expect(page).toHaveURL(`/admin/articles/edit/${id}`);
  await expect(page.getByText(/^Відновлено версію від \d\d\.\d\d\.\d{4} о \d\d:\d\d/)).toBeVisible();
});

test("preview link: the draft opens for someone outside the newsroom until it is revoked", async ({ page, browser }) => {
  await signIn(page, "editor");
  const title = uniqueName("Прев'ю");
  const { id } = await apiCreate(page, title, "Чернетка для зовнішнього рецензента.");
  await page.goto(`/admin/articles/edit/${id}`);
  await page.getByRole("button", { name: "Посилання для перегляду" }).click();
  const url = await page.getByTestId("preview-url").textContent();
  expect(url).toMatch(/\/preview\/[A-Za-z0-9_-]{43}$/);
  const path = new URL(url!).pathname;

  const outsider = await browser.newContext();
  const reader = await outsider.newPage();
  await reader.goto(path);
  await expect(reader.getByRole("heading", { level: 1 })).toHaveText(title);
  await expect(reader.getByText("Чернетка для зовнішнього рецензента.")).toBeVisible();
  await expect(reader.getByRole("note").filter({ hasText: "Попередній перегляд" })).toBeVisible();

  await page.getByRole("button", { name: "Відкликати посилання" }).click();
  await expect(page.getByText("Посилання відкликано")).toBeVisible();
  const gone = await reader.goto(path);
  expect(gone?.status()).toBe(404);
  await expect(reader.getByRole("heading", { name: "Посилання недійсне" })).toBeVisible();
  await outsider.close();
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("History page: compare, confirm, restore; preview link from the editor", async ({ page }) => {
    await signIn(page, "editor");
    const { id } = await apiCreate(page, uniqueName("Без скриптів"), "Юпітер найбільша планета.");
    await page.goto(`/admin/articles/edit/${id}`);
    await field(page, "Вміст (Markdown)").fill("Юпітер найважча планета.");
    await page.getByRole("button", { name: "Зберегти як чернетку" }).click();
    await expect(page.getByText("Статтю успішно оновлено")).toBeVisible();

    await page.getByRole("link", { name: "Історія змін" }).click();
    await expect(page).toHaveURL(`/admin/articles/edit/${id}/history`);
    await page
      .getByRole("link", { name: /Порівняти версію/ })
      .last()
      .click();
    await expect(page.locator(".revision-diff-text del")).toHaveText(["найбільша"]);
    await expect(page.locator(".revision-diff-text ins")).toHaveText(["найважча"]);
    await page.getByRole("button", { name: "Відновити цю версію" }).click();
    const dialog = page.getByRole("alertdialog");
    await expect(dialog).toContainText("Відновити версію");
    await dialog.getByRole("button", { name: "Відновити" }).click();
    await expect(page).toHaveURL(`/admin/articles/edit/${id}`);
    await expect(page.getByText(/^Відновлено версію від \d\d\.\d\d\.\d{4} о \d\d:\d\d/)).toBeVisible();
    await expect(field(page, "Вміст (Markdown)")).toHaveValue("Юпітер найбільша планета.");

    await page.getByRole("button", { name: "Посилання для перегляду" }).click();
    await expect(page.getByTestId("preview-url")).toHaveText(/\/preview\/[A-Za-z0-9_-]{43}$/);
    await page.getByRole("button", { name: "Відкликати посилання" }).click();
    await expect(page.getByText("Посилання відкликано")).toBeVisible();
  });
});
