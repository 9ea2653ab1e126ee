import type { Page } from "@playwright/test";
import { expect, signIn, test, uniqueName } from "./fixtures";

// Issue 17, item 12: the article list sorts by date, views and title, acts on several articles
// at once after asking, and applies its filters as they change (the button stays without JS).

async function apiCreate(page: Page, title: string, status = "draft") {
  const categories = await (await page.request.get("/api/categories/admin")).json();
  const category = categories.data.find((c: { slug: string }) => c.slug === "technology");
  const res = await page.request.post("/api/articles/", {
    headers: { Origin: new URL(page.url()).origin },
    data: { title, content: "Текст статті для масових дій.", category_id: category.id, status },
  });
  expect(res.status()).toBe(201);
  return (await res.json()) as { id: string; slug: string };
}

const publicStatus = async (page: Page, slug: string) => (await page.request.get(`/article/${slug}`, { headers: { Cookie: "" } })).status();

async function columnValues(page: Page, index: number) {
  return page.locator("table.article-table tbody tr").evaluateAll((rows, i) => rows.map((r) => (r.children[i] as HTMLElement).innerText.trim()), index);
}

test.describe("article list (JavaScript on)", () => {
  test("sorts by views, title and date; filters apply on change", async ({ page }) => {
    await signIn(page, "editor");
    await page.goto("/admin/articles");
    const views = page.getByRole("columnheader", { name: /Views/ });
    await views.getByRole("link").click();
    await expect(page).toHaveURL(/sort=views&dir=desc/);
    await expect(views).toHaveAttribute("aria-sort", "descending");
    const desc = (await columnValues(page, 6)).map((v) => Number(v.replace(/,/g, "")));
    expect(desc.length).toBeGreaterThan(3);
    expect(desc).toEqual([...desc].sort((a, b) => b - a));
    await views.getByRole("link").click();
    await expect(page).toHaveURL(/sort=views&dir=asc/);
    await expect(views).toHaveAttribute("aria-sort", "ascending");
    const asc = (await columnValues(page, 6)).map((v) => Number(v.replace(/,/g, "")));
    expect(asc).toEqual([...asc].sort((a, b) => a - b));

    const title = page.getByRole("columnheader", { name: /Title/ });
    await title.getByRole("link").click();
    await expect(page).toHaveURL(/sort=title&dir=asc/);
    // The header's aria-sort comes from the same loader data as the rows: once it says so, the
    // rows are the re-sorted ones (reading them on the URL alone raced the render).
    await expect(title).toHaveAttribute("aria-sort", "ascending");
    // Ukrainian alphabet order (ґ after г, є after е, і and ї after и), case and quotes aside.
    // The pairs out of order: none once the rows are the re-sorted ones.
    const outOfOrder = async () => {
      const titles = (await columnValues(page, 1)).map((t) =>
        t
          .split("\n")[0]
          .toLocaleLowerCase("uk")
          .replace(/[^\p{L}\p{N}\s]/gu, ""),
      );
      expect(titles.length).toBeGreaterThan(3);
      return titles.flatMap((t, i) => (i > 0 && titles[i - 1].localeCompare(t, "uk") > 0 ? [`${titles[i - 1]} > ${t}`] : []));
    };
    await expect.poll(outOfOrder).toEqual([]);

    // A filter applies when chosen, and keeps the sort.
    await page.getByRole("combobox", { name: "Статус" }).selectOption("published");
    await expect(page).toHaveURL(/status=published/);
    await expect(page).toHaveURL(/sort=title/);
    for (const status of await page.locator("table.article-table tbody .status").allInnerTexts()) expect(status).toBe("Опубліковано");
    await page.getByRole("searchbox", { name: "Пошук" }).fill("вакцин");
    await expect(page).toHaveURL(/q=%D0%B2%D0%B0%D0%BA%D1%86%D0%B8%D0%BD|q=вакцин/);
  });

  test("bulk publish and delete ask first and change the public site", async ({ page }) => {
    await signIn(page, "editor");
    const prefix = uniqueName("Масова");
    const a = await apiCreate(page, `${prefix} перша`);
    const b = await apiCreate(page, `${prefix} друга`);
    await page.goto(`/admin/articles?q=${encodeURIComponent(prefix)}`);
    await expect(page.locator("table.article-table tbody tr")).toHaveCount(2);

    await page.getByRole("checkbox", { name: "Вибрати всі статті на сторінці" }).check();
    await expect(page.getByText("Вибрані (2):")).toBeVisible();
    await page.getByRole("combobox", { name: /Вибрані/ }).selectOption("publish");
    let question = "";
    page.once("dialog", (dialog) => {
      question = dialog.message();
      void dialog.accept();
    });
    await page.getByRole("button", { name: "Застосувати" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Опубліковано статей: 2" })).toBeVisible();
    expect(question).toBe("Опублікувати вибрані статті (2)?");
    expect(await publicStatus(page, a.slug)).toBe(200);
    expect(await publicStatus(page, b.slug)).toBe(200);

    // Dismissed: nothing happens.
    await page.getByRole("checkbox", { name: `Вибрати ${prefix} перша` }).check();
    await page.getByRole("combobox", { name: /Вибрані/ }).selectOption("delete");
    page.once("dialog", (dialog) => void dialog.dismiss());
    await page.getByRole("button", { name: "Застосувати" }).click();
    await expect(page.locator("table.article-table tbody tr")).toHaveCount(2);

    page.once("dialog", (dialog) => void dialog.accept());
    await page.getByRole("button", { name: "Застосувати" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Видалено статей: 1" })).toBeVisible();
    await expect(page.locator("table.article-table tbody tr")).toHaveCount(1);
    expect(await publicStatus(page, a.slug)).toBe(404);
  });
});

test.describe("article list (JavaScript off)", () => {
  test.use({ javaScriptEnabled: false });

  test("sort links, the filter button, and a bulk action through its confirmation step", async ({ page }) => {
    await signIn(page, "editor");
    const prefix = uniqueName("Безскрипт");
    const a = await apiCreate(page, `${prefix} одна`, "published");
    const b = await apiCreate(page, `${prefix} дві`, "published");
    await page.goto("/admin/articles");
    await page
      .getByRole("columnheader", { name: /Created/ })
      .getByRole("link")
      .click();
    await expect(page).toHaveURL(/sort=created&dir=asc/);
    await expect(page.getByRole("columnheader", { name: /Created/ })).toHaveAttribute("aria-sort", "ascending");

    await page.getByRole("searchbox", { name: "Пошук" }).fill(prefix);
    await page.getByRole("button", { name: "Шукати", exact: true }).click();
    await expect(page).toHaveURL(/sort=created&dir=asc/);
    await expect(page.locator("table.article-table tbody tr")).toHaveCount(2);

    await page.getByRole("checkbox", { name: `Вибрати ${prefix} одна` }).check();
    await page.getByRole("checkbox", { name: `Вибрати ${prefix} дві` }).check();
    await page.getByRole("combobox", { name: /Вибрані/ }).selectOption("unpublish");
    await page.getByRole("button", { name: "Застосувати" }).click();
    const confirm = page.getByRole("alertdialog", { name: "Зняти з публікації вибрані статті (2)?" });
    await expect(confirm).toBeVisible();
    expect(await publicStatus(page, a.slug)).toBe(200);
    await confirm.getByRole("button", { name: "Зняти з публікації" }).click();
    await expect(page.getByRole("status")).toHaveText("Знято з публікації статей: 2");
    expect(await publicStatus(page, a.slug)).toBe(404);
    expect(await publicStatus(page, b.slug)).toBe(404);
  });
});
