import { expect, signIn, test, uniqueName } from "./fixtures";

// Issue 31 item 8, without JavaScript: a name another category has (in any case) is refused with
// a Ukrainian message, a long name wraps in its card (the page stays as wide as the window), and
// the editor's dropdown lists categories in Ukrainian alphabetical order.
test.use({ javaScriptEnabled: false });

const DEMO_ORDER = ["Біологія", "Довкілля", "Дослідження", "Інновації", "Космос і фізика", "Медицина", "Технології", "ШІ та обчислення"];

test("categories: duplicate names refused, long names wrap, Ukrainian order in the editor", async ({ page }) => {
  await signIn(page, "admin");
  await page.goto("/admin/categories?new=1");
  await page.getByLabel("Назва").fill("медицина");
  await page.getByRole("button", { name: "Створити" }).click();
  await expect(page.getByText("Категорія з такою назвою вже існує")).toBeVisible();
  await page.goto("/admin/categories");
  await expect(page.getByRole("heading", { name: /^медицина$/ })).toHaveCount(0);

  const long = uniqueName("Надзвичайнодовганазварубрикипронауковідослідженнязвсьогосвітутанавітьбільше").slice(0, 100);
  await page.goto("/admin/categories?new=1");
  await page.getByLabel("Назва").fill(long);
  await page.getByRole("button", { name: "Створити" }).click();
  await expect(page.getByRole("status")).toHaveText(`Категорію «${long}» успішно створено`);
  await page.setViewportSize({ width: 1280, height: 900 });
  await expect(page.getByRole("heading", { name: long })).toBeVisible();
  const widths = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, window: window.innerWidth }));
  expect(widths.page).toBeLessThanOrEqual(widths.window);

  await page.goto("/admin/articles/new");
  const options = await page.getByRole("combobox", { name: "Категорія", exact: true }).locator("option").allTextContents();
  expect(options.filter((o) => DEMO_ORDER.includes(o))).toEqual(DEMO_ORDER);

  await page.goto("/admin/categories");
  await page.getByRole("button", { name: `Delete ${long}` }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Видалити" }).click();
  await expect(page.getByRole("status")).toHaveText(`Категорію «${long}» успішно видалено`);
});
