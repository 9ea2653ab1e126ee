import { sql } from "kysely";
import { expect, test } from "./fixtures";
import { withServerDatabase } from "./public-data";
import { enrolOnPage, enterPassword, newStaff } from "./two-factor-helpers";

// Issue 25 (docs/decisions/023): Settings → Security "Require two-factor sign-in for" is effective.
// Site-wide (it covers the demo accounts too), so it runs after the other specs, one test at a
// time, and puts the rule back to "nobody" when done, whatever happened.
test.describe.configure({ mode: "serial" });

test.afterAll(async () => {
  await withServerDatabase(async (db) => {
    const row = await db.selectFrom("settings").select("value").where("key", "=", "security").executeTakeFirst();
    const value = JSON.stringify({ ...(row ? JSON.parse(row.value) : {}), two_factor_required: "nobody" });
    await db
      .insertInto("settings")
      .values({ key: "security", value, updated_at: new Date().toISOString() })
      .onConflict((oc) => oc.column("key").doUpdateSet({ value }))
      .execute();
    // The server caches settings: PostgreSQL tells it by notification (db/engines/postgres.ts), SQLite by its data version.
    if (process.env.E2E_DATABASE_URL) await sql`select pg_notify('news_changes', '')`.execute(db);
  });
});

for (const javaScriptEnabled of [true, false]) {
  test.describe(`required two-factor (JavaScript ${javaScriptEnabled ? "on" : "off"})`, () => {
    test.use({ javaScriptEnabled });

    test("a person the rule covers goes to enrolment right after the password and can do nothing else until enrolled; others are not asked", async ({
      page,
      browser,
      request,
    }) => {
      const admin = await newStaff(request, "admin");
      const editor = await newStaff(request, "editor");
      const reporter = await newStaff(request, "reporter");

      // The admin enrols first, so the rule does not shut them out.
      await enterPassword(page, admin);
      await expect(page).toHaveURL("/admin/dashboard");
      await page.goto("/admin/profile/two-factor");
      await enrolOnPage(page);
      await page.goto("/admin/settings?tab=security");
      await page.getByLabel("Require two-factor sign-in for").selectOption({ label: "Адміністраторів і редакторів" });
      await page.getByRole("button", { name: "Save Changes" }).click();
      await expect(page.getByText("Налаштування збережено.")).toBeVisible();

      const context = await browser.newContext({ javaScriptEnabled });
      const editorPage = await context.newPage();
      await enterPassword(editorPage, editor);
      await expect(editorPage).toHaveURL("/admin/profile/two-factor");
      await expect(editorPage.getByText("Адміністратор сайту вимагає двофакторну перевірку для вашої ролі.")).toBeVisible();
      await expect(editorPage.getByRole("navigation", { name: "Адмін-меню" }).getByRole("link")).toHaveCount(0);
      for (const path of ["/admin/dashboard", "/admin/articles", "/admin/profile"]) {
        await editorPage.goto(path);
        await expect(editorPage, path).toHaveURL("/admin/profile/two-factor");
      }
      await enrolOnPage(editorPage);
      await editorPage.getByRole("link", { name: /до панелі керування/ }).click();
      await expect(editorPage).toHaveURL("/admin/dashboard");
      await expect(editorPage.getByRole("navigation", { name: "Адмін-меню" }).getByRole("link", { name: "Статті" })).toBeVisible();
      await context.close();

      // A reporter is not covered: the password is enough.
      const reporterContext = await browser.newContext({ javaScriptEnabled });
      const reporterPage = await reporterContext.newPage();
      await enterPassword(reporterPage, reporter);
      await expect(reporterPage).toHaveURL("/admin/dashboard");
      await reporterContext.close();

      await page.goto("/admin/settings?tab=security");
      await page.getByLabel("Require two-factor sign-in for").selectOption({ label: "Нікого (за бажанням)" });
      await page.getByRole("button", { name: "Save Changes" }).click();
      await expect(page.getByText("Налаштування збережено.")).toBeVisible();
    });
  });
}
