import { createServer, type Server } from "node:http";
import type { Page } from "@playwright/test";
import { isoToKyivLocal } from "../../app/utils/dates";
import { expect, signIn, test, uniqueName } from "./fixtures";

// Issue 29 items 3–5 in the browser: the editor's embargo, sources (add a row, fill from Crossref)
// and correction fields with JavaScript; the same form without it (fixed rows, the server's
// messages); an embargoed article refused on "Опублікувати"; a correction shown to readers.

const field = (page: Page, name: string) => page.getByRole("textbox", { name, exact: true }).or(page.getByRole("combobox", { name, exact: true }));
const inHours = (h: number) => new Date(Date.now() + h * 3_600_000).toISOString();

async function newArticle(page: Page, title: string) {
  await page.goto("/admin/articles/new");
  await field(page, "Заголовок").fill(title);
  await field(page, "Вміст (Markdown)").fill("Текст про дослідження клітин.");
  await field(page, "Категорія").selectOption({ label: "Медицина" });
}

test.describe("with JavaScript", () => {
  let crossref: Server | undefined;
  test.beforeAll(async () => {
    // The stand-in for api.crossref.org the e2e server is pointed at (playwright.config.ts).
    crossref = createServer((req, res) => {
      if (!req.url?.startsWith("/works/10.1101%2F2024.05.01.592000")) {
        res.writeHead(404);
        return void res.end("Resource not found.");
      }
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end(
        JSON.stringify({
          status: "ok",
          message: {
            type: "posted-content",
            title: ["Препринт про клітини"],
            institution: [{ name: "bioRxiv" }],
            issued: { "date-parts": [[2024, 5, 3]] },
            URL: "https://doi.org/10.1101/2024.05.01.592000",
          },
        }),
      );
    });
    const port = Number(new URL(test.info().project.use.baseURL!).port) + 2000;
    await new Promise<void>((resolve) => crossref!.listen(port, "127.0.0.1", resolve));
  });
  test.afterAll(async () => {
    await new Promise((r) => crossref?.close(r));
  });

  test("an embargoed article cannot be published; its sources are added, filled from Crossref and saved", async ({ page }) => {
    await signIn(page, "editor");
    const title = uniqueName("Ембарго");
    await newArticle(page, title);
    await page.getByLabel("Не публікувати до (київський час)").fill(isoToKyivLocal(inHours(2)));
    await page.getByLabel("Примітка до ембарго").fill("Nature, 16:00 Лондон");
    const sources = page.getByTestId("sources-panel");
    await expect(sources.getByTestId("source-row")).toHaveCount(2);
    await sources.getByLabel("DOI").first().fill("https://doi.org/10.1101/2024.05.01.592000");
    await sources.getByRole("button", { name: "Заповнити з Crossref" }).first().click();
    await expect(sources.getByRole("status").first()).toHaveText("Заповнено з Crossref: перевірте й збережіть");
    await expect(sources.getByLabel("Назва").first()).toHaveValue("Препринт про клітини");
    await expect(sources.getByLabel("Рецензування").first()).toHaveValue("preprint");
    await sources.getByRole("button", { name: "Додати джерело" }).click();
    await expect(sources.getByTestId("source-row")).toHaveCount(3);
    await sources.getByLabel("Тип").nth(2).selectOption("dataset");
    await sources.getByLabel("Назва").nth(2).fill("Набір даних спостережень");

    await page.getByRole("button", { name: "Опублікувати", exact: true }).click();
    await expect(page.getByText(/Статтю під ембарго до .* не можна опублікувати раніше/)).toBeVisible();
    await page.getByRole("button", { name: "Зберегти як чернетку" }).click();
    await expect(page).toHaveURL(/\/admin\/articles\/edit\/[0-9a-f-]{36}$/);
    // Saved: the normalised DOI, the filled row and the added one, then two empty rows.
    await expect(sources.getByTestId("source-row")).toHaveCount(4);
    await expect(sources.getByLabel("DOI").first()).toHaveValue("10.1101/2024.05.01.592000");
    await expect(sources.getByLabel("Назва").nth(1)).toHaveValue("Набір даних спостережень");
    await expect(page.getByLabel("Примітка до ембарго")).toHaveValue("Nature, 16:00 Лондон");
    await page.getByRole("button", { name: "Опублікувати", exact: true }).click();
    await expect(page.getByText(/Статтю під ембарго до .* не можна опублікувати раніше/)).toBeVisible();

    await page.goto("/admin/dashboard");
    await expect(page.getByTestId("embargo-list").getByRole("link", { name: title })).toBeVisible();
  });
});

test.describe("corrections, with JavaScript", () => {
  test("a correction needs its note and is shown to readers, newest first", async ({ page }) => {
    await signIn(page, "editor");
    const title = uniqueName("Виправлення");
    await newArticle(page, title);
    await page.getByRole("button", { name: "Опублікувати", exact: true }).click();
    await expect(page.getByRole("status")).toContainText("опубліковано");
    await page.waitForURL(/\/admin\/articles\/edit\//);
    const panel = page.getByTestId("correction-panel");
    await expect(panel.getByLabel("Що виправлено (покажемо читачам)")).toHaveCount(0);
    await panel.getByLabel("Це виправлення").check();
    await page.getByRole("button", { name: "Оновити публікацію" }).click();
    await expect(panel.getByText("Опишіть виправлення: примітка обов'язкова")).toBeVisible();
    await panel.getByLabel("Що виправлено (покажемо читачам)").fill("Виправлено назву журналу");
    await page.getByRole("button", { name: "Оновити публікацію" }).click();
    await expect(page.getByRole("status")).toHaveText("Статтю успішно опубліковано");
    const href = await page.getByRole("link", { name: /\/article\// }).getAttribute("href");
    await page.goto(href!);
    await expect(page.getByTestId("article-updates")).toContainText(/Виправлено \d\d\.\d\d\.\d{4}: Виправлено назву журналу/);
    await expect(page.getByTestId("article-updates")).toContainText("Оновлено");
    await page.goto("/corrections");
    await expect(page.getByRole("link", { name: title })).toBeVisible();
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("fixed source rows, a bad DOI named on its row, and an embargo refused on publish", async ({ page }) => {
    await signIn(page, "editor");
    const title = uniqueName("Без JS");
    await newArticle(page, title);
    const sources = page.getByTestId("sources-panel");
    await expect(sources.getByTestId("source-row")).toHaveCount(2);
    await expect(sources.getByRole("button", { name: "Додати джерело" })).toHaveCount(0);
    await sources.getByLabel("DOI").first().fill("nature.com/abc");
    await sources.getByLabel("Назва").first().fill("Стаття в Nature");
    await page.getByLabel("Не публікувати до (київський час)").fill(isoToKyivLocal(inHours(3)));
    await page.getByRole("button", { name: "Зберегти як чернетку" }).click();
    await expect(sources.getByText(/DOI має вигляд 10\.NNNN/)).toBeVisible();
    await expect(sources.getByLabel("Назва").first()).toHaveValue("Стаття в Nature");
    await sources.getByLabel("DOI").first().fill("doi:10.1038/ABC.1");
    await page.getByRole("button", { name: "Опублікувати", exact: true }).click();
    await expect(page.getByText(/Статтю під ембарго до .* не можна опублікувати раніше/)).toBeVisible();
    await page.getByRole("button", { name: "Зберегти як чернетку" }).click();
    await expect(page).toHaveURL(/\/admin\/articles\/edit\/[0-9a-f-]{36}$/);
    await expect(sources.getByLabel("DOI").first()).toHaveValue("10.1038/abc.1");
    await page.goto("/admin/articles");
    await expect(page.getByText(/Ембарго до/).first()).toBeVisible();
  });
});
