import { expect, signIn, test } from "./fixtures";
import { withServerDatabase } from "./public-data";

/** Minutes between creation and expiry of the newest bearer session, read from the server's database. */
async function newestBearerLifetime(): Promise<number> {
  const row = await withServerDatabase((db) =>
    db
      .selectFrom("sessions")
      .select(["created_at", "expires_at"])
      .where("kind", "=", "bearer")
      .orderBy("created_at", "desc")
      .limit(1)
      .executeTakeFirstOrThrow(),
  );
  return Math.round((Date.parse(row.expires_at) - Date.parse(row.created_at)) / 60_000);
}

// Settings are site-wide: these tests run one after another so they do not see each other's saves.
test.describe.configure({ mode: "serial" });

test.describe("settings (JavaScript on)", () => {
  test("five tabs, every SPEC field, inline required errors and the save states", async ({ page }) => {
    await signIn(page, "admin");
    await page.goto("/admin/settings");
    for (const tab of ["General", "Content", "SEO", "Security", "Integrations"]) {
      await expect(page.getByRole("tab", { name: tab })).toBeVisible();
    }
    await expect(page.getByLabel("Site URL")).toHaveAttribute("type", "url");
    await expect(page.getByLabel("Admin email")).toHaveAttribute("type", "email");
    await expect(page.getByLabel("Maintenance mode")).not.toBeChecked();

    // Only the chosen tab's panel shows.
    await expect(page.getByLabel("Posts per page")).toBeHidden();
    await page.getByRole("tab", { name: "Content" }).click();
    await expect(page.getByLabel("Site URL")).toBeHidden();
    await expect(page.getByLabel("Posts per page")).toBeVisible();
    await expect(page.getByLabel("Posts per page")).toHaveValue("10");
    await expect(page.getByLabel("Require comment moderation")).toBeChecked();
    await expect(page.getByText("Статті щонайменше на 300 слів.")).toBeVisible();

    await page.getByRole("tab", { name: "SEO" }).click();
    await expect(page.getByLabel("Robots meta")).toHaveValue("index, follow");
    await expect(page.getByLabel("Site language")).toHaveValue("uk-UA");
    const name = page.getByLabel("Site name *");
    const original = await name.inputValue();
    const originalDescription = await page.getByLabel("Description *").inputValue();
    await name.fill("");
    await page.getByLabel("Description *").fill("");
    // Switch away: a failed save brings the SEO tab back with its messages.
    await page.getByRole("tab", { name: "Security" }).click();
    await page.getByRole("button", { name: "Save Changes" }).click();
    await expect(page.getByRole("tab", { name: "SEO" })).toHaveAttribute("aria-selected", "true");
    await expect(page.locator("#site_title-error")).toHaveText("Site name is required");
    await expect(page.locator("#site_description-error")).toHaveText("Description is required");
    await expect(page.getByRole("alert")).toHaveText("Помилка під час збереження налаштувань. Спробуйте ще раз.");

    await name.fill(original);
    await page.getByLabel("Description *").fill(originalDescription);
    await page.getByRole("tab", { name: "Integrations" }).click();
    await page.getByLabel("Search Console verification code").fill("gsc-test-code");
    await page.getByRole("button", { name: "Save Changes" }).click();
    await expect(page.getByRole("status")).toHaveText("Налаштування збережено. Соціальні мережі покажуть зміни за 5–10 хвилин.");
    await expect(page.getByRole("button", { name: "Saved" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Save Changes" })).toBeVisible({ timeout: 7_000 });

    await page.reload();
    await page.getByRole("tab", { name: "Integrations" }).click();
    await expect(page.getByLabel("Search Console verification code")).toHaveValue("gsc-test-code");
  });

  test("url and email inputs are validated on the server too", async ({ page }) => {
    await signIn(page, "admin");
    await page.goto("/admin/settings");
    // Bypass the browser's own checks, as a script or an old browser would.
    await page.evaluate(() => document.querySelectorAll("input").forEach((i) => i.setAttribute("type", "text")));
    await page.getByLabel("Site URL").fill("javascript:alert(1)");
    await page.getByLabel("Admin email").fill("nobody");
    await page.getByRole("button", { name: "Save Changes" }).click();
    await expect(page.locator("#site_url-error")).toHaveText("Вкажіть адресу, що починається з http:// або https://");
    await expect(page.locator("#admin_email-error")).toHaveText("Невірний формат email");
  });

  test("the session timeout setting applies to new sessions", async ({ page, request }) => {
    await signIn(page, "admin");
    await page.goto("/admin/settings?tab=security");
    await page.getByLabel("Session timeout (minutes)").selectOption("30");
    await page.getByRole("button", { name: "Save Changes" }).click();
    await expect(page.getByRole("status")).toBeVisible();
    const login = await request.post("/api/auth/login", { data: { username: "editor", password: "editor123" } });
    expect(login.status()).toBe(200);
    expect(await newestBearerLifetime()).toBe(30);
    // Reset for other tests.
    await page.getByLabel("Session timeout (minutes)").selectOption("60");
    await page.getByRole("button", { name: "Save Changes" }).click();
    await expect(page.getByRole("status")).toBeVisible();
    await request.post("/api/auth/login", { data: { username: "editor", password: "editor123" } });
    expect(await newestBearerLifetime()).toBe(60);
  });
});

test.describe("settings (JavaScript off)", () => {
  test.use({ javaScriptEnabled: false });

  test("tabs are links and the form saves as a plain post", async ({ page }) => {
    await signIn(page, "admin");
    await page.goto("/admin/settings");
    await page.getByRole("tab", { name: "Content" }).click();
    await expect(page).toHaveURL(/\?tab=content$/);
    // A setting readers do not see, so parallel public-site tests are unaffected.
    await page.getByLabel("Allow comments").check();
    await page.getByRole("button", { name: "Save Changes" }).click();
    await expect(page.getByRole("status")).toHaveText("Налаштування збережено. Соціальні мережі покажуть зміни за 5–10 хвилин.");
    await expect(page.getByRole("button", { name: "Saved" })).toBeVisible();
    await page.goto("/admin/settings?tab=content");
    await expect(page.getByLabel("Allow comments")).toBeChecked();
    await page.getByLabel("Allow comments").uncheck();
    await page.getByRole("button", { name: "Save Changes" }).click();
    await expect(page.getByRole("status")).toBeVisible();
  });
});
