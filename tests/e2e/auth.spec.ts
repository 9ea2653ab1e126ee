import type { Page } from "@playwright/test";
import { DEMO, expect, signIn, test, uniqueName } from "./fixtures";

test.describe("sign-in (JavaScript on)", () => {
  test("the login screen shows its fields, button and the demo credentials", async ({ page }) => {
    await page.goto("/admin/login");
    await expect(page).toHaveTitle("Sign in — Admin Panel");
    await expect(page.getByLabel("Ім'я користувача")).toHaveAttribute("required", "");
    await expect(page.getByLabel("Пароль")).toHaveAttribute("required", "");
    await expect(page.getByRole("button", { name: "Sign in" })).toBeEnabled();
    const demo = page.getByRole("region", { name: "Demo credentials" });
    for (const role of ["admin", "editor", "reporter"] as const) {
      await expect(demo).toContainText(`${role}: ${DEMO[role].username} / ${DEMO[role].password}`);
    }
  });

  test("a wrong password shows the failure message above the button", async ({ page }) => {
    await page.goto("/admin/login");
    await page.getByLabel("Ім'я користувача").fill("admin");
    await page.getByLabel("Пароль").fill("wrong-password");
    await page.getByRole("button", { name: "Sign in" }).click();
    const alert = page.getByRole("alert");
    await expect(alert).toHaveText("Невірне ім'я користувача або пароль");
    // Above the button, and the username stays filled in.
    const alertBox = (await alert.boundingBox())!;
    const buttonBox = (await page.getByRole("button", { name: "Sign in" }).boundingBox())!;
    expect(alertBox.y).toBeLessThan(buttonBox.y);
    await expect(page.getByLabel("Ім'я користувача")).toHaveValue("admin");
    await expect(page).toHaveURL(/\/admin\/login$/);
  });

  test("the button reads 'Signing in...' while the request runs", async ({ page }) => {
    await page.goto("/admin/login");
    await page.route("**/admin/login**", async (route) => {
      if (route.request().method() === "POST") await new Promise((r) => setTimeout(r, 800));
      await route.continue();
    });
    await page.getByLabel("Ім'я користувача").fill("admin");
    await page.getByLabel("Пароль").fill("admin123");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("button", { name: "Signing in..." })).toBeDisabled();
    await expect(page).toHaveURL("/admin/dashboard");
  });

  test("a successful sign-in goes to the dashboard; visiting the login page again goes there too", async ({ page }) => {
    await signIn(page, "admin");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Панель керування");
    await page.goto("/admin/login");
    await expect(page).toHaveURL("/admin/dashboard");
  });

  test("signed out, an admin page redirects to login and comes back after it", async ({ page }) => {
    await page.goto("/admin/categories");
    await expect(page).toHaveURL("/admin/login?redirectTo=%2Fadmin%2Fcategories");
    await page.getByLabel("Ім'я користувача").fill("editor");
    await page.getByLabel("Пароль").fill("editor123");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL("/admin/categories");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Категорії");
  });

  test("redirectTo never leaves the site", async ({ page }) => {
    await signIn(page, "admin", undefined);
    await page.context().clearCookies();
    await page.goto("/admin/login?redirectTo=//evil.example/x");
    await page.getByLabel("Ім'я користувача").fill("admin");
    await page.getByLabel("Пароль").fill("admin123");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL("/admin/dashboard");
  });

  test("the session cookie is HttpOnly and SameSite=Lax", async ({ page, context }) => {
    await signIn(page, "reporter");
    const cookie = (await context.cookies()).find((c) => c.name === "__session")!;
    expect(cookie.httpOnly).toBe(true);
    expect(cookie.sameSite).toBe("Lax");
    expect(cookie.secure).toBe(false); // served over http in tests; Secure when PUBLIC_URL is https
    expect(cookie.expires).toBe(-1); // a browser-session cookie; the server decides expiry
  });

  test("logout ends the session and goes to the login page", async ({ page, context }) => {
    await signIn(page, "editor");
    const before = (await context.cookies()).find((c) => c.name === "__session")!;
    await page.getByLabel(/Меню користувача/).click();
    await page.getByRole("button", { name: "Вийти" }).click();
    await expect(page).toHaveURL("/admin/login");
    // The old cookie, put back by hand, opens nothing: the session is gone on the server.
    await context.addCookies([before]);
    await page.goto("/admin/dashboard");
    await expect(page).toHaveURL(/\/admin\/login\?redirectTo=/);
  });

  // Issue 25 (SECURITY.md 'Staying up'): the editor keeps unsaved text in this browser for its
  // author's next sign-in; signing out removes it, and it is never offered to someone else.
  const keptDrafts = (page: Page) => page.evaluate(() => Object.keys(localStorage).filter((key) => key.startsWith("newsroom-draft:")));
  const typeWithoutSaving = async (page: Page, title: string) => {
    await page.goto("/admin/articles/new");
    await page.getByRole("textbox", { name: "Заголовок", exact: true }).fill(title);
    // Kept 500 ms after the last change (article-editor.tsx).
    await expect.poll(() => keptDrafts(page)).not.toEqual([]);
    // Leaving the dirty editor asks first; this test means to leave.
    page.on("dialog", (dialog) => void dialog.accept());
  };
  const noOfferFor = async (page: Page, role: "reporter" | "admin") => {
    await signIn(page, role);
    await page.goto("/admin/articles/new");
    await expect(page.getByRole("textbox", { name: "Заголовок", exact: true })).toBeEditable();
    // The offer appears right after hydration when there is one; give it the same moment.
    await page.waitForLoadState("networkidle");
    await expect(page.getByRole("button", { name: "Відновити" })).toHaveCount(0);
    await expect(page.getByRole("textbox", { name: "Заголовок", exact: true })).toHaveValue("");
  };

  test("signing out removes the unsaved text kept in this browser; the next user is not offered it", async ({ page }) => {
    await signIn(page, "editor");
    await typeWithoutSaving(page, "Чужий незбережений заголовок");
    await page.getByLabel(/Меню користувача/).click();
    await page.getByRole("button", { name: "Вийти" }).click();
    await expect(page).toHaveURL("/admin/login");
    expect(await keptDrafts(page)).toEqual([]);
    await noOfferFor(page, "reporter");
  });

  test("the sign-out door clears the kept text by itself (a plain form post, as without JavaScript)", async ({ page }) => {
    await signIn(page, "editor");
    await typeWithoutSaving(page, "Ще один незбережений заголовок");
    await page.getByLabel(/Меню користувача/).click();
    // The browser's own submit: no script of the page runs, exactly what a browser without
    // JavaScript sends; only the server's answer can clear the storage.
    await page.evaluate(() => HTMLFormElement.prototype.submit.call(document.querySelector('form[action="/admin/logout"]')));
    await expect(page).toHaveURL("/admin/login");
    expect(await keptDrafts(page)).toEqual([]);
    await noOfferFor(page, "admin");
  });

  test("a session that ended without signing out keeps the text for its author only", async ({ page, context }) => {
    await signIn(page, "editor");
    await typeWithoutSaving(page, "Текст після завершеної сесії");
    // The session ends without a sign-out (it expired): the cookie is simply gone.
    await context.clearCookies();
    await noOfferFor(page, "reporter");
    await context.clearCookies();
    await signIn(page, "editor");
    await page.goto("/admin/articles/new");
    await page.getByRole("button", { name: "Відновити" }).click();
    await expect(page.getByRole("textbox", { name: "Заголовок", exact: true })).toHaveValue("Текст після завершеної сесії");
  });

  test("five failures lock the username for 15 minutes with a Ukrainian message", async ({ page }) => {
    const username = uniqueName("locktest");
    await page.goto("/admin/login");
    for (let i = 0; i < 5; i++) {
      await page.getByLabel("Ім'я користувача").fill(username);
      await page.getByLabel("Пароль").fill(`wrong-${i}`);
      await page.getByRole("button", { name: "Sign in" }).click();
      await expect(page.getByRole("alert")).toHaveText("Невірне ім'я користувача або пароль");
    }
    await page.getByLabel("Ім'я користувача").fill(username);
    await page.getByLabel("Пароль").fill("anything");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("alert")).toHaveText("Забагато невдалих спроб входу. Спробуйте знову через 15 хв.");
    // Another user from the same browser is unaffected.
    await page.getByLabel("Ім'я користувача").fill("reporter");
    await page.getByLabel("Пароль").fill("reporter123");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL("/admin/dashboard");
  });
});
