import type { APIRequestContext, Page } from "@playwright/test";
import { DEMO, expect, signIn, test, uniqueName } from "./fixtures";

// Issue 17, the staff side: each role sees only the sections it may open; My profile; dialogs
// close with Escape and give focus back; the chart tooltip reads naturally.

const SECTIONS = [
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
  "SEO",
];
const VISIBLE: Record<keyof typeof DEMO, string[]> = {
  admin: SECTIONS,
  editor: ["Панель керування", "Статті", "Редактор головної", "Медіа", "Категорії", "Аналітика", "SEO"],
  reporter: ["Панель керування", "Статті", "Медіа", "Категорії", "Аналітика"],
};

for (const role of ["admin", "editor", "reporter"] as const) {
  test(`the sidebar shows a ${role} only what the ${role} may open, and each opens`, async ({ page }) => {
    await signIn(page, role);
    const nav = page.getByRole("navigation", { name: "Адмін-меню" });
    for (const section of SECTIONS) {
      const entry = section === "SEO" ? nav.getByText("SEO", { exact: true }) : nav.getByRole("link", { name: section, exact: true });
      await expect(entry, `${role}: ${section}`).toHaveCount(VISIBLE[role].includes(section) ? 1 : 0);
    }
    for (const href of await nav.getByRole("link").evaluateAll((links) => links.map((a) => a.getAttribute("href")!))) {
      const response = await page.request.get(href);
      expect(response.status(), `${role} opens ${href}`).toBe(200);
    }
  });
}

/** A staff account of its own (profile tests change passwords; the demo accounts are shared). */
async function newStaff(request: APIRequestContext) {
  const login = await request.post("/api/auth/login", { data: { username: DEMO.admin.username, password: DEMO.admin.password } });
  const token = (await login.json()).access_token as string;
  const username = uniqueName("profile").toLowerCase();
  const password = "Ясен-пень 42 шипшина";
  const created = await request.post("/api/users/", {
    headers: { Authorization: `Bearer ${token}` },
    data: { username, email: `${username}@nauka-ua.example`, full_name: "Тарас Профільний", role: "reporter", password },
  });
  expect(created.status()).toBe(201);
  return { username, password };
}

async function signInAs(page: Page, username: string, password: string) {
  await page.goto("/admin/login");
  await page.getByLabel("Ім'я користувача").fill(username);
  await page.getByLabel("Пароль").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL("/admin/dashboard");
}

for (const javaScriptEnabled of [true, false]) {
  test.describe(`My profile (JavaScript ${javaScriptEnabled ? "on" : "off"})`, () => {
    test.use({ javaScriptEnabled });

    test("name, email and password from the avatar menu; a new password ends the other sessions", async ({ page, browser, request }) => {
      const staff = await newStaff(request);
      const other = await browser.newContext();
      const otherPage = await other.newPage();
      await signInAs(otherPage, staff.username, staff.password);
      await signInAs(page, staff.username, staff.password);

      await page.getByLabel(/^Меню користувача/).click();
      await page.getByRole("link", { name: "Мій профіль" }).click();
      await expect(page).toHaveURL("/admin/profile");
      await expect(page.getByRole("heading", { name: "Мій профіль", level: 2 })).toBeVisible();

      // A name alone needs no password.
      await page.getByLabel("Ім'я", { exact: true }).fill("Тарас Оновлений");
      await page.getByRole("button", { name: "Зберегти профіль" }).click();
      await expect(page.getByRole("status")).toHaveText("Профіль збережено");
      await expect(page.locator(".welcome")).toHaveText("Вітаємо, Тарас Оновлений!");

      // A new email or password needs the current one; a wrong one is refused, nothing changes.
      await page.getByLabel("Email").fill(`${staff.username}@new.example`);
      await page.getByRole("button", { name: "Зберегти профіль" }).click();
      await expect(page.locator("#current_password-error")).toHaveText("Введіть поточний пароль, щоб змінити email або пароль");
      await page.getByLabel("Поточний пароль").fill("not the password");
      await page.getByLabel("Новий пароль", { exact: true }).fill("password");
      await page.getByRole("button", { name: "Зберегти профіль" }).click();
      await expect(page.locator("#new_password-error")).toContainText("надто поширений");
      await page.getByLabel("Новий пароль", { exact: true }).fill("Новий-пароль і ще слова");
      await page.getByLabel("Повторіть новий пароль").fill("Новий-пароль і ще слова");
      await page.getByLabel("Поточний пароль").fill("not the password");
      await page.getByRole("button", { name: "Зберегти профіль" }).click();
      await expect(page.locator("#current_password-error")).toHaveText("Поточний пароль невірний");
      await expect(page.getByLabel("Email")).toHaveValue(`${staff.username}@new.example`);

      await page.getByLabel("Новий пароль", { exact: true }).fill("Новий-пароль і ще слова");
      await page.getByLabel("Повторіть новий пароль").fill("Новий-пароль і ще слова");
      await page.getByLabel("Поточний пароль").fill(staff.password);
      await page.getByRole("button", { name: "Зберегти профіль" }).click();
      await expect(page.getByRole("status")).toHaveText("Профіль збережено. Пароль змінено: інші сеанси завершено.");

      // This session goes on; the other device is signed out; the new password signs in.
      await page.goto("/admin/dashboard");
      await expect(page).toHaveURL("/admin/dashboard");
      await otherPage.goto("/admin/dashboard");
      await expect(otherPage).toHaveURL(/\/admin\/login/);
      await otherPage.getByLabel("Ім'я користувача").fill(staff.username);
      await otherPage.getByLabel("Пароль").fill("Новий-пароль і ще слова");
      await otherPage.getByRole("button", { name: "Sign in" }).click();
      await expect(otherPage).toHaveURL("/admin/dashboard");
      await other.close();
    });
  });
}

test("Escape closes the category and user dialogs and gives focus back to the opener", async ({ page }) => {
  await signIn(page, "admin");
  for (const screen of ["/admin/categories", "/admin/users"]) {
    await page.goto(screen);
    const add = page.getByRole("link", { name: screen.endsWith("users") ? "Add User" : "Add Category" });
    await add.click();
    const dialog = page.getByRole("dialog");
    await expect(dialog).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(dialog).toHaveCount(0);
    await expect(page).toHaveURL(screen);
    await expect(add).toBeFocused();

    const edit = page.getByRole("link", { name: /^Edit / }).first();
    await edit.click();
    await expect(dialog).toBeVisible();
    // Tab stays inside the dialog.
    for (let i = 0; i < 12; i++) await page.keyboard.press("Tab");
    expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
    await page.keyboard.press("Escape");
    await expect(dialog).toHaveCount(0);
    await expect(edit).toBeFocused();
  }
});
