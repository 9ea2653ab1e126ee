import { expect, signIn, test } from "./fixtures";

// Maintenance mode (issue 5, DESIGN §8) closes the public site for readers with a Ukrainian 503
// page; signed-in staff still see it. Site-wide: runs after the other specs and switches it off.
test.describe.configure({ mode: "serial" });

test.describe("maintenance mode (JavaScript off: the settings form as a plain post)", () => {
  test.use({ javaScriptEnabled: false });

  test("readers get 503 and the Ukrainian page, staff still see the site, switching off reopens it", async ({ page, browser }) => {
    await signIn(page, "admin");
    const reader = await browser.newContext({ javaScriptEnabled: false });
    const setMaintenance = async (on: boolean) => {
      await page.goto("/admin/settings?tab=general");
      const box = page.getByLabel("Maintenance mode");
      if (on) await box.check();
      else await box.uncheck();
      await page.getByRole("button", { name: "Save Changes" }).click();
      await expect(page.getByRole("status")).toHaveText("Налаштування збережено. Соціальні мережі покажуть зміни за 5–10 хвилин.");
    };
    try {
      await setMaintenance(true);
      const readerPage = await reader.newPage();
      const response = await readerPage.goto("/");
      expect(response?.status()).toBe(503);
      await expect(readerPage.getByRole("heading", { level: 1 })).toHaveText("Сайт на технічному обслуговуванні");
      expect((await readerPage.goto("/category/space-physics"))?.status()).toBe(503);
      // The admin stays reachable for staff who need to sign in.
      expect((await readerPage.goto("/admin/login"))?.status()).toBe(200);

      // Staff with a session see the real site.
      const staffView = await page.goto("/");
      expect(staffView?.status()).toBe(200);
      await expect(page.getByRole("heading", { name: "Сайт на технічному обслуговуванні" })).toHaveCount(0);
    } finally {
      await setMaintenance(false);
    }
    const readerPage = await reader.newPage();
    expect((await readerPage.goto("/"))?.status()).toBe(200);
    await reader.close();
  });
});
