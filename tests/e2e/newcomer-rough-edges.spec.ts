import { expect, signIn, test } from "./fixtures";

// Issue 31 item 18: Escape closes the phone menu; a very long search word does not widen the
// page; the SEO pie gives every category its own colour.

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("Escape closes the phone menu and returns focus to its button", async ({ page }) => {
    await page.goto("/");
    const toggle = page.locator("summary.mobile-menu-toggle");
    await toggle.click();
    await expect(page.getByRole("navigation", { name: "Мобільне меню" })).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(page.getByRole("navigation", { name: "Мобільне меню" })).toBeHidden();
    await expect(page.locator("details.mobile-menu")).not.toHaveAttribute("open", "");
    await expect(toggle).toBeFocused();
  });

  test("a 300-letter search word wraps in the heading", async ({ page }) => {
    await page.goto(`/search?q=${"а".repeat(300)}`);
    await expect(page.getByRole("heading", { level: 1 })).toContainText("Пошук");
    const widths = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, window: window.innerWidth }));
    expect(widths.page).toBeLessThanOrEqual(widths.window);
  });
});

test("a 300-letter search word wraps on a desktop too", async ({ page }) => {
  await page.goto(`/search?q=${"б".repeat(300)}`);
  const widths = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, window: window.innerWidth }));
  expect(widths.page).toBeLessThanOrEqual(widths.window);
});

test("the SEO pie's legend: a colour of its own for each category", async ({ page }) => {
  await signIn(page, "admin");
  await page.goto("/admin/seo/analytics");
  const swatches = page.locator("#categories-title ~ .legend .swatch");
  const colours = await swatches.evaluateAll((spans) => spans.map((s) => getComputedStyle(s).backgroundColor));
  expect(colours.length).toBeGreaterThanOrEqual(8);
  expect(new Set(colours).size).toBe(colours.length);
});

test.describe("the editor on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("the title and text come before the workflow panel", async ({ page }) => {
    await signIn(page, "editor");
    const categories = await (await page.request.get("/api/categories/admin")).json();
    const created = await page.request.post("/api/articles/", {
      headers: { Origin: new URL(page.url()).origin },
      data: { title: "Телефонна чернетка", content: "Текст.", category_id: categories.data[0].id, status: "draft" },
    });
    await page.goto(`/admin/articles/edit/${(await created.json()).id}`);
    const title = await page.getByRole("textbox", { name: "Заголовок", exact: true }).boundingBox();
    const tools = await page.locator(".editor-tools").boundingBox();
    expect(title!.y).toBeLessThan(tools!.y);
  });
});
