import { expect, test } from "./fixtures";
import { codeFor, enrolOnPage, enterPassword, expectNoSeriousAxeViolations, newStaff } from "./two-factor-helpers";

// Issue 25, items 10 and 12 (docs/decisions/023): a person turns on two-factor sign-in from their
// profile by reading the key off the page, signs out, signs in with the password and a code; from
// another browser they sign in with a recovery code, and the first one ends that other session.
// Every step is a plain form: the same flow with JavaScript on and off.

for (const javaScriptEnabled of [true, false]) {
  test.describe(`two-factor sign-in and your sessions (JavaScript ${javaScriptEnabled ? "on" : "off"})`, () => {
    test.use({ javaScriptEnabled });

    test("enrol, sign out, sign in with a code; a recovery code in another browser; end that session", async ({ page, browser, request }) => {
      const staff = await newStaff(request);
      await enterPassword(page, staff);
      await expect(page).toHaveURL("/admin/dashboard");

      await page.goto("/admin/profile");
      await expect(page.getByRole("heading", { name: "Двофакторна перевірка", level: 2 })).toBeVisible();
      await page.getByRole("link", { name: "Увімкнути двофакторну перевірку" }).click();
      await expect(page).toHaveURL("/admin/profile/two-factor");
      // axe runs in the page, so only where the page runs scripts.
      const { key, codes } = await enrolOnPage(page, { axe: javaScriptEnabled });

      await page.getByRole("link", { name: /до панелі керування/ }).click();
      await expect(page).toHaveURL("/admin/dashboard");
      await page.getByLabel(/^Меню користувача/).click();
      await page.getByRole("button", { name: "Вийти" }).click();
      await expect(page).toHaveURL("/admin/login");

      // The password alone leads to the code screen, not in.
      await enterPassword(page, staff);
      await expect(page).toHaveURL("/admin/login/code");
      await expect(page.getByRole("heading", { name: "Двофакторна перевірка", level: 1 })).toBeVisible();
      const code = page.getByLabel("Код підтвердження");
      await expect(code).toHaveAttribute("autocomplete", "one-time-code");
      await expect(code).toHaveAttribute("inputmode", "numeric");
      await expect(code).toBeFocused();
      if (javaScriptEnabled) await expectNoSeriousAxeViolations(page);
      await code.fill("000000" === (await codeFor(key)) ? "111111" : "000000");
      await page.getByRole("button", { name: "Підтвердити", exact: true }).click();
      await expect(page.locator("#code-error")).toContainText("Код не підійшов");
      await expect(page.getByLabel("Код підтвердження")).toHaveAttribute("aria-invalid", "true");
      await expect(page.getByLabel("Код підтвердження")).toHaveAttribute("aria-describedby", /code-error/);
      await expect(page.getByLabel("Код підтвердження")).toHaveValue("");
      await page.getByLabel("Код підтвердження").fill(await codeFor(key, 1));
      await page.getByRole("button", { name: "Підтвердити", exact: true }).click();
      await expect(page).toHaveURL("/admin/dashboard");

      // Another browser, with a recovery code.
      const other = await browser.newContext({ javaScriptEnabled });
      const otherPage = await other.newPage();
      await enterPassword(otherPage, staff);
      await expect(otherPage).toHaveURL("/admin/login/code");
      await otherPage.getByText("Немає доступу до застосунку? Використайте код відновлення").click();
      await otherPage.getByLabel("Код відновлення").fill(codes[0]);
      await otherPage.getByRole("button", { name: "Увійти з кодом відновлення" }).click();
      await expect(otherPage).toHaveURL("/admin/dashboard");

      // The profile lists both; this one is marked and has no end button; the other one ends.
      await page.goto("/admin/profile");
      const sessions = page.getByRole("table", { name: "Ваші сеанси й токени API" });
      await expect(sessions.getByRole("row")).toHaveCount(3);
      await expect(sessions.getByText("Цей сеанс")).toHaveCount(1);
      // Playwright's "Desktop Chrome" says it is Chrome on Windows.
      await expect(sessions.getByText("Chrome на Windows").first()).toBeVisible();
      await expect(page.getByText("Невикористаних кодів відновлення: 9 з 10.")).toBeVisible();
      if (javaScriptEnabled) await expectNoSeriousAxeViolations(page);
      const end = sessions.getByRole("button", { name: /^Завершити сеанс: Chrome на Windows, 127\.0\.0\.1, вхід / });
      await expect(end).toHaveCount(1);
      await end.click();
      await expect(page.getByRole("status")).toHaveText("Сеанс завершено.");
      await expect(page.getByRole("table", { name: "Ваші сеанси й токени API" }).getByRole("row")).toHaveCount(2);
      await expect(page.getByText("Інших сеансів немає.")).toBeVisible();

      await otherPage.goto("/admin/dashboard");
      await expect(otherPage).toHaveURL(/\/admin\/login\?redirectTo=/);
      await page.goto("/admin/dashboard");
      await expect(page).toHaveURL("/admin/dashboard");
      await other.close();
    });
  });
}
