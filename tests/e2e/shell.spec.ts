import { AxeBuilder } from "@axe-core/playwright";
import { DEMO, expect, signIn, test } from "./fixtures";

const SCREENS: [string, string][] = [
  ["/admin", "Панель керування"],
  ["/admin/dashboard", "Панель керування"],
  ["/admin/articles", "Статті"],
  ["/admin/articles/new", "Нова стаття"],
  ["/admin/homepage", "Редактор головної"],
  ["/admin/media", "Медіа"],
  ["/admin/users", "Користувачі"],
  ["/admin/categories", "Категорії"],
  ["/admin/analytics", "Аналітика"],
  ["/admin/settings", "Налаштування"],
  ["/admin/audit", "Журнал дій"],
  ["/admin/authors", "Автори"],
  ["/admin/import", "Імпорт і експорт"],
  ["/admin/seo", "SEO аналітика"],
  ["/admin/seo/analytics", "SEO аналітика"],
];

test.describe("admin shell", () => {
  test("sidebar, section title, welcome line and avatar menu", async ({ page }) => {
    await signIn(page, "admin");
    const nav = page.getByRole("navigation", { name: "Адмін-меню" });
    for (const label of [
      "Панель керування",
      "Статті",
      "Редактор головної",
      "Медіа",
      "Користувачі",
      "Категорії",
      "Аналітика",
      "Налаштування",
      "Журнал дій",
      "Імпорт і експорт",
    ]) {
      await expect(nav.getByRole("link", { name: label, exact: true })).toBeVisible();
    }
    // The SEO group expands to the SEO analytics link.
    await nav.getByText("SEO", { exact: true }).click();
    await nav.getByRole("link", { name: "SEO аналітика" }).click();
    await expect(page).toHaveURL("/admin/seo/analytics");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("SEO аналітика");

    await expect(page.getByText(`Вітаємо, ${DEMO.admin.name}!`)).toBeVisible();
    const avatar = page.getByLabel(/Меню користувача/);
    await expect(avatar).toHaveText("О");
    await avatar.click();
    await expect(page.getByText(DEMO.admin.email)).toBeVisible();
  });

  test("every admin screen opens with its title", async ({ page }) => {
    await signIn(page, "admin");
    for (const [path, title] of SCREENS) {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 }), path).toHaveText(title);
      await expect(page, path).toHaveTitle(`${title} — Admin Panel`);
    }
  });

  test("client-side navigation between screens keeps the shell", async ({ page }) => {
    await signIn(page, "editor");
    await page.getByRole("link", { name: "Статті", exact: true }).click();
    await expect(page).toHaveURL("/admin/articles");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Статті");
    await expect(page.getByRole("link", { name: "Статті", exact: true })).toHaveClass(/active/);
  });

  test("the users, settings and audit log screens are for admins only", async ({ page }) => {
    await signIn(page, "editor");
    for (const path of ["/admin/users", "/admin/settings", "/admin/audit"]) {
      const res = await page.goto(path);
      expect(res?.status()).toBe(403);
      await expect(page.getByRole("heading", { name: "Access Denied" })).toBeVisible();
      await expect(page.getByText("You don't have permission to access this page.")).toBeVisible();
      // The shell stays around the message.
      await expect(page.getByRole("navigation", { name: "Адмін-меню" })).toBeVisible();
    }
  });

  test("reporters do not reach the homepage editor or SEO screens", async ({ page }) => {
    await signIn(page, "reporter");
    for (const path of ["/admin/homepage", "/admin/seo/analytics"]) {
      expect((await page.goto(path))?.status()).toBe(403);
      await expect(page.getByRole("heading", { name: "Access Denied" })).toBeVisible();
    }
  });

  test("the skip link leads to the main content", async ({ page }) => {
    await signIn(page, "admin");
    await page.goto("/admin/articles"); // a fresh page load: the first Tab reaches the skip link
    await page.keyboard.press("Tab");
    const skip = page.getByRole("link", { name: "Перейти до основного вмісту" });
    await expect(skip).toBeFocused();
    await skip.press("Enter");
    await expect(page).toHaveURL(/#admin-main$/);
  });

  test("no CSP violations or console errors on the login page and dashboard", async ({ page }) => {
    const problems: string[] = [];
    page.on("console", (m) => {
      if (m.type() === "error") problems.push(m.text());
    });
    page.on("pageerror", (e) => problems.push(e.message));
    await signIn(page, "admin");
    await page.getByRole("link", { name: "Категорії", exact: true }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Категорії");
    expect(problems).toEqual([]);
  });
});

test.describe("accessibility", () => {
  test("the login page has no serious or critical axe violations", async ({ page }) => {
    await page.goto("/admin/login");
    const results = await new AxeBuilder({ page }).analyze();
    const bad = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
    expect(bad.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
  });

  test("the admin shell has no serious or critical axe violations", async ({ page }) => {
    await signIn(page, "admin");
    const results = await new AxeBuilder({ page }).analyze();
    const bad = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
    expect(bad.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
  });
});
