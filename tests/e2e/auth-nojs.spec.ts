import { expect, test } from "./fixtures";

// DESIGN §8: staff without JavaScript can sign in; every step here is a plain form post.
test.use({ javaScriptEnabled: false });

test.describe("sign-in (JavaScript off)", () => {
  test("failure, success, the shell and logout work as plain pages", async ({ page }) => {
    await page.goto("/admin/settings");
    await expect(page).toHaveURL("/admin/login?redirectTo=%2Fadmin%2Fsettings");

    await page.getByLabel("Ім'я користувача").fill("admin");
    await page.getByLabel("Пароль").fill("not-the-password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("alert")).toHaveText("Невірне ім'я користувача або пароль");
    await expect(page.getByLabel("Ім'я користувача")).toHaveValue("admin");

    await page.getByLabel("Пароль").fill("admin123");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL("/admin/settings");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Налаштування");

    // The avatar menu is a <details> element: it opens without JavaScript.
    await page.getByLabel(/Меню користувача/).click();
    await expect(page.getByText("admin@nauka-ua.example")).toBeVisible();
    await page.getByRole("button", { name: "Вийти" }).click();
    await expect(page).toHaveURL("/admin/login");
    await page.goto("/admin/dashboard");
    await expect(page).toHaveURL(/\/admin\/login\?redirectTo=/);
  });

  test("an empty form is refused with the required-field message", async ({ page }) => {
    await page.goto("/admin/login");
    // Browsers block empty required fields; a client that skips that gets the server's answer.
    await page.evaluate(() => document.querySelectorAll("input").forEach((i) => i.removeAttribute("required")));
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.locator("#username-error")).toHaveText("Обов'язкове поле");
    await expect(page.locator("#password-error")).toHaveText("Обов'язкове поле");
  });
});
