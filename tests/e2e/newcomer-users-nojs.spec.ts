import { DEMO, expect, signIn, test, uniqueName } from "./fixtures";

// Issue 31 item 14, without JavaScript: an email that differs only in case from another user's
// is refused, and a new password in the profile is typed twice.
test.use({ javaScriptEnabled: false });

test("Add User refuses an email another user has in another case", async ({ page }) => {
  await signIn(page, "admin");
  await page.goto("/admin/users?new=1");
  const dialog = page.getByRole("dialog", { name: "Add User" });
  const username = uniqueName("twin");
  await dialog.getByLabel("Username").fill(username);
  await dialog.getByLabel("Email").fill(DEMO.editor.email.toUpperCase());
  await dialog.getByLabel("Full name").fill("Двійник");
  await dialog.getByLabel("Password").fill("long-enough");
  await dialog.getByRole("button", { name: "Create user" }).click();
  await expect(page.locator("#email-error")).toHaveText("Цей email уже використовує інший користувач");
  await page.goto("/admin/users");
  await expect(page.getByRole("row").filter({ hasText: `@${username}` })).toHaveCount(0);
});

test("profile: the new password must be repeated the same", async ({ page }) => {
  await signIn(page, "reporter");
  await page.goto("/admin/profile");
  await page.getByLabel("Новий пароль", { exact: true }).fill("Новий-пароль і ще слова");
  await page.getByLabel("Повторіть новий пароль").fill("Новий-пароль і ще слова!");
  await page.getByLabel("Поточний пароль").fill(DEMO.reporter.password);
  await page.getByRole("button", { name: "Зберегти профіль" }).click();
  await expect(page.locator("#new_password_repeat-error")).toHaveText("Паролі не збігаються: введіть новий пароль ще раз так само");
  await expect(page.getByRole("status")).toHaveCount(0);
});
