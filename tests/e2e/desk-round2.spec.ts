import { AxeBuilder } from "@axe-core/playwright";
import type { Browser, Page } from "@playwright/test";
import { expect, signIn, test, uniqueName } from "./fixtures";

// Issue 31 (newcomer round 2), items 10, 12, 17 and 19, each with JavaScript on and off: a
// preview link is offered for copying and replaced only on request; an edit conflict shows both
// versions and can keep the writer's; a restore is confirmed, said and labelled; staff reading an
// article see "Редагувати" where they may edit it. Item 15 (the maintenance bar) changes the
// whole site: staff-bar.global.spec.ts.

const field = (page: Page, name: string) => page.getByRole("textbox", { name, exact: true });
const WHEN = /\d\d\.\d\d\.\d{4} о \d\d:\d\d/;

async function apiCreate(page: Page, title: string, content: string, status: "draft" | "published" = "draft") {
  const categories = await (await page.request.get("/api/categories/admin")).json();
  const category = categories.data.find((c: { slug: string }) => c.slug === "technology");
  const res = await page.request.post("/api/articles/", {
    headers: { Origin: new URL(page.url()).origin },
    data: { title, content, category_id: category.id, status },
  });
  expect(res.status()).toBe(201);
  return (await res.json()) as { id: string; slug: string; category_id: string };
}

/** Someone else (the admin, in a browser of their own) saves the article meanwhile. */
async function adminSaves(browser: Browser, article: { id: string; category_id: string }, title: string, content: string) {
  const context = await browser.newContext();
  const admin = await context.newPage();
  await signIn(admin, "admin");
  const res = await admin.request.put(`/api/articles/${article.id}`, {
    headers: { Origin: new URL(admin.url()).origin },
    data: { title, content, category_id: article.category_id, status: "draft" },
  });
  expect(res.status()).toBe(200);
  await context.close();
}

for (const js of [true, false]) {
  test.describe(`JavaScript ${js ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled: js });

    test("item 10: a preview link is offered for copying once; reopened, the editor says it is live and until when; replacing needs its own button", async ({
      page,
      browser,
      context,
    }) => {
      if (js) await context.grantPermissions(["clipboard-read", "clipboard-write"]);
      await signIn(page, "editor");
      const { id } = await apiCreate(page, uniqueName("Посилання"), "Чернетка для рецензента.");
      await page.goto(`/admin/articles/edit/${id}`);
      await page.getByRole("button", { name: "Посилання для перегляду" }).click();
      const url = (await page.getByTestId("preview-url").textContent())!;
      expect(url).toMatch(/\/preview\/[A-Za-z0-9_-]{43}$/);
      // The visible fallback: the link in a field to copy from (no JavaScript, or no clipboard).
      await expect(page.getByRole("textbox", { name: "Посилання для копіювання" })).toHaveValue(url);
      if (js) {
        await page.getByRole("button", { name: "Копіювати посилання" }).click();
        await expect(page.getByRole("status").filter({ hasText: "Посилання скопійовано." })).toBeVisible();
        expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);
      } else {
        await expect(page.getByRole("button", { name: "Копіювати посилання" })).toHaveCount(0);
      }

      // Opened again: a link is live, until when; the link itself is not shown (only its hash is kept).
      await page.goto(`/admin/articles/edit/${id}`);
      await expect(page.getByTestId("preview-live")).toContainText(new RegExp(`Посилання для перегляду діє до ${WHEN.source}`));
      await expect(page.getByTestId("preview-url")).toHaveCount(0);
      await expect(page.getByRole("button", { name: "Посилання для перегляду" })).toHaveCount(0);
      await expect(page.getByText("старе, вже надіслане комусь, перестане відкриватися", { exact: false })).toHaveCount(js ? 0 : 1);

      if (js) {
        // A dismissed warning changes nothing.
        page.once("dialog", (dialog) => {
          expect(dialog.message()).toContain("старе, вже надіслане комусь, перестане відкриватися");
          void dialog.dismiss();
        });
        await page.getByRole("button", { name: "Замінити посилання" }).click();
        await expect(page.getByTestId("preview-live")).toBeVisible();
        page.once("dialog", (dialog) => void dialog.accept());
      }
      await page.getByRole("button", { name: "Замінити посилання" }).click();
      const second = (await page.getByTestId("preview-url").textContent())!;
      expect(second).toMatch(/\/preview\/[A-Za-z0-9_-]{43}$/);
      expect(second).not.toBe(url);
      const outsider = await browser.newContext();
      const reader = await outsider.newPage();
      expect((await reader.goto(new URL(url).pathname))?.status()).toBe(404);
      expect((await reader.goto(new URL(second).pathname))?.status()).toBe(200);
      await outsider.close();
    });

    test("item 12: an edit conflict shows the saved version and mine side by side; 'Залишити мою версію' saves mine as a revision", async ({
      page,
      browser,
    }) => {
      await signIn(page, "editor");
      const title = uniqueName("Конфлікт");
      const article = await apiCreate(page, title, "Сатурн має кільця.");
      await page.goto(`/admin/articles/edit/${article.id}`);
      await adminSaves(browser, article, title, "Сатурн має яскраві кільця.");

      await field(page, "Вміст (Markdown)").fill("Сатурн має кільця й супутники.");
      await page.getByRole("button", { name: "Зберегти як чернетку" }).click();
      const panel = page.getByTestId("edit-conflict");
      await expect(panel.getByRole("heading", { name: "Конфлікт редагування" })).toBeVisible();
      await expect(panel).toContainText("Олена Коваленко");
      await expect(panel.getByTestId("conflict-theirs").locator("del")).toContainText(["яскраві"]);
      await expect(panel.getByTestId("conflict-mine").locator("ins")).toContainText(["й супутники"]);
      // jsdiff gives a common run its trailing space ("кільця " before an added word), so the
      // columns are compared by their words.
      await expect(panel.getByTestId("conflict-theirs")).toContainText(/Сатурн має яскраві кільця\s?\./);
      await expect(panel.getByTestId("conflict-mine")).toContainText(/Сатурн має кільця й супутники\./);
      // Besides the old advice, the text stays in the form.
      await expect(page.getByRole("alert").filter({ hasText: "Статтю вже змінив(ла) Олена Коваленко" })).toBeVisible();
      await expect(field(page, "Вміст (Markdown)")).toHaveValue("Сатурн має кільця й супутники.");
      const before = (await (await page.request.get(`/api/articles/${article.id}/revisions`)).json()).total;

      await panel.getByRole("button", { name: "Залишити мою версію" }).click();
      await expect(page.getByText("Статтю успішно оновлено")).toBeVisible();
      await expect(page.getByTestId("edit-conflict")).toHaveCount(0);
      await expect(field(page, "Вміст (Markdown)")).toHaveValue("Сатурн має кільця й супутники.");
      const saved = await (await page.request.get(`/api/articles/${article.id}`)).json();
      expect(saved).toMatchObject({ content: "Сатурн має кільця й супутники.", status: "draft" });
      const revisions = await (await page.request.get(`/api/articles/${article.id}/revisions`)).json();
      expect(revisions.total).toBe(before + 1);
      expect(revisions.data[0]).toMatchObject({ summary: "Змінено: вміст", author: { username: "editor" } });
      // The admin's version stays in the history.
      expect(revisions.data[1].title).toBe(title);
    });

    test("item 17: Restore asks first, then the editor says 'Відновлено версію від …' and the new revision is labelled so", async ({ page }) => {
      await signIn(page, "editor");
      const { id } = await apiCreate(page, uniqueName("Відновлення"), "Нептун синій.");
      await page.goto(`/admin/articles/edit/${id}`);
      await field(page, "Вміст (Markdown)").fill("Нептун блакитний.");
      await page.getByRole("button", { name: "Зберегти як чернетку" }).click();
      await expect(page.getByText("Статтю успішно оновлено")).toBeVisible();
      const list = (await (await page.request.get(`/api/articles/${id}/revisions`)).json()).data as { created_at: string }[];
      expect(list).toHaveLength(2);

      if (js) {
        await page.getByRole("button", { name: "Історія змін" }).click();
        const panel = page.getByRole("region", { name: "Історія змін" });
        await panel.getByRole("button", { name: "Порівняти" }).last().click();
        // Dismissed: nothing restored.
        page.once("dialog", (dialog) => void dialog.dismiss());
        await panel.getByRole("button", { name: "Відновити цю версію" }).click();
        await expect(field(page, "Вміст (Markdown)")).toHaveValue("Нептун блакитний.");
        expect((await (await page.request.get(`/api/articles/${id}/revisions`)).json()).total).toBe(2);
        page.once("dialog", (dialog) => void dialog.accept());
        await panel.getByRole("button", { name: "Відновити цю версію" }).click();
      } else {
        await page.getByRole("link", { name: "Історія змін" }).click();
        await page
          .getByRole("link", { name: /Порівняти версію/ })
          .last()
          .click();
        await page.getByRole("button", { name: "Відновити цю версію" }).click();
        // The confirmation step: nothing restored yet.
        const dialog = page.getByRole("alertdialog");
        await expect(dialog).toContainText("Відновити версію");
        expect((await (await page.request.get(`/api/articles/${id}/revisions`)).json()).total).toBe(2);
        await dialog.getByRole("button", { name: "Відновити" }).click();
      }
      await expect(page).toHaveURL(`/admin/articles/edit/${id}`);
      await expect(page.getByText(new RegExp(`^Відновлено версію від ${WHEN.source}`))).toBeVisible();
      await expect(field(page, "Вміст (Markdown)")).toHaveValue("Нептун синій.");
      // The History panel is closed: the editor is at its top, not mid-panel.
      await expect(page.getByRole("region", { name: "Історія змін" })).toHaveCount(0);
      const after = (await (await page.request.get(`/api/articles/${id}/revisions`)).json()).data as { summary: string }[];
      expect(after).toHaveLength(3);
      expect(after[0].summary).toMatch(new RegExp(`^Відновлено з версії від ${WHEN.source}$`));
      await page.goto(`/admin/articles/edit/${id}/history`);
      await expect(page.getByRole("list", { name: "Версії статті, новіші вгорі" }).getByText(/Відновлено з версії від/)).toBeVisible();
    });

    test("item 19: staff reading an article see the staff bar with 'Редагувати' where they may edit it; readers see no bar", async ({ page, browser }) => {
      await signIn(page, "editor");
      const { id, slug } = await apiCreate(page, uniqueName("Панель"), "Опублікований текст.", "published");
      await page.goto(`/article/${slug}`);
      const bar = page.getByRole("region", { name: "Панель редакції" });
      await expect(bar).toContainText("Ви ввійшли як Андрій Мельник");
      if (js) {
        const results = await new AxeBuilder({ page }).include(".staff-bar").analyze();
        expect(results.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id)).toEqual([]);
      }
      // The skip link stays the first thing a keyboard reaches.
      await page.keyboard.press("Tab");
      await expect(page.getByRole("link", { name: "Перейти до основного вмісту" })).toBeFocused();
      await bar.getByRole("link", { name: "Редагувати" }).click();
      await expect(page).toHaveURL(`/admin/articles/edit/${id}`);

      // A reporter may not edit an editor's published article: the bar, without the link.
      const reporterContext = await browser.newContext({ javaScriptEnabled: js });
      const reporter = await reporterContext.newPage();
      await signIn(reporter, "reporter");
      await reporter.goto(`/article/${slug}`);
      await expect(reporter.getByRole("region", { name: "Панель редакції" })).toBeVisible();
      await expect(reporter.getByRole("link", { name: "Редагувати" })).toHaveCount(0);
      await reporterContext.close();

      // A reader, after staff have seen the page: no bar.
      const readerContext = await browser.newContext({ javaScriptEnabled: js });
      const reader = await readerContext.newPage();
      await reader.goto(`/article/${slug}`);
      await expect(reader.getByRole("heading", { level: 1 })).toBeVisible();
      await expect(reader.getByRole("region", { name: "Панель редакції" })).toHaveCount(0);
      await expect(reader.getByRole("link", { name: "Редагувати" })).toHaveCount(0);
      await readerContext.close();
    });
  });
}
