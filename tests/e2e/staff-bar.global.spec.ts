import { expect, signIn, test } from "./fixtures";

// Issue 31 item 15: while maintenance mode sends readers a 503, signed-in staff browsing the public
// site see a bar saying so (with JavaScript on and off); readers never get the bar. Site-wide:
// runs after the other specs and switches maintenance off again.
test.describe.configure({ mode: "serial" });

for (const js of [true, false]) {
  test.describe(`JavaScript ${js ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled: js });

    test("staff see the maintenance bar on the public site while readers get 503; it goes when maintenance ends", async ({ page, browser }) => {
      await signIn(page, "admin");
      const setMaintenance = async (on: boolean) => {
        await page.goto("/admin/settings?tab=general");
        const box = page.getByLabel("Maintenance mode");
        if (on) await box.check();
        else await box.uncheck();
        await page.getByRole("button", { name: "Save Changes" }).click();
        await expect(page.getByRole("status")).toContainText("Налаштування збережено.");
      };
      const reader = await browser.newContext({ javaScriptEnabled: js });
      try {
        await page.goto("/");
        await expect(page.getByRole("region", { name: "Панель редакції" })).toBeVisible();
        await expect(page.getByTestId("maintenance-bar")).toHaveCount(0);

        await setMaintenance(true);
        const readerPage = await reader.newPage();
        await expect.poll(async () => (await readerPage.goto("/"))?.status(), { timeout: 10_000 }).toBe(503);

        await page.goto("/");
        const bar = page.getByTestId("maintenance-bar");
        await expect(bar).toContainText("Увімкнено режим обслуговування.");
        await expect(bar).toContainText("Читачі зараз бачать сторінку «Сайт на технічному обслуговуванні» (503)");
        await bar.getByRole("link", { name: "Вимкнути в налаштуваннях" }).click();
        await expect(page).toHaveURL(/\/admin\/settings/);
      } finally {
        await setMaintenance(false);
      }
      const readerPage = await reader.newPage();
      await expect.poll(async () => (await readerPage.goto("/"))?.status(), { timeout: 10_000 }).toBe(200);
      await expect(readerPage.getByRole("region", { name: "Панель редакції" })).toHaveCount(0);
      await expect(readerPage.getByTestId("maintenance-bar")).toHaveCount(0);
      await page.goto("/");
      await expect(page.getByTestId("maintenance-bar")).toHaveCount(0);
      await reader.close();
    });
  });
}
