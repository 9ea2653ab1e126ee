import type { APIRequestContext, Page } from "@playwright/test";
import { DEMO, expect, signIn, test, uniqueName } from "./fixtures";
import { pathIn, waitForMail } from "./mail";

// Issue 28 (newsletter) and issue 31 item 20 (forgot password) in the browser, with JavaScript on
// and off; the site's mail reaches a real SMTP server started beside it (tests/e2e/mail-sink.mjs).

async function subscribeFromFooter(page: Page, email: string) {
  await page.goto("/");
  const footer = page.locator("footer");
  await footer.getByLabel("Ваш email").fill(email);
  await footer.getByRole("button", { name: "Підписатися" }).click();
  await expect(page).toHaveURL(/\/newsletter$/);
  await expect(page.getByRole("status").filter({ hasText: "Майже готово" })).toBeVisible();
  const mail = await waitForMail(email, "Підтвердіть підписку");
  await page.goto(pathIn(mail, "/newsletter/confirm?token="));
  await expect(page.getByRole("status").filter({ hasText: "Підписку підтверджено" })).toBeVisible();
}

async function newPerson(request: APIRequestContext, role: "editor" | "reporter") {
  const admin = await request.post("/api/auth/login", { data: { username: DEMO.admin.username, password: DEMO.admin.password } });
  const token = (await admin.json()).access_token as string;
  const username = uniqueName("reset").toLowerCase();
  const email = `${username}@nauka-ua.example`;
  const created = await request.post("/api/users/", {
    headers: { Authorization: `Bearer ${token}` },
    data: { username, email, role, password: "Старий пароль 2026 дуб" },
  });
  expect(created.status()).toBe(201);
  return { username, email };
}

for (const javaScriptEnabled of [true, false]) {
  test.describe(`newsletter (JavaScript ${javaScriptEnabled ? "on" : "off"})`, () => {
    test.use({ javaScriptEnabled });

    test("a reader subscribes from the footer, confirms, gets a breaking story and leaves by its link", async ({ page, browser }) => {
      const email = `${uniqueName("reader")}@example.com`;
      await subscribeFromFooter(page, email);

      // An editor finds the subscriber and sends a published article from the editor.
      const staff = await browser.newPage({ javaScriptEnabled });
      await signIn(staff, "editor");
      await staff.getByRole("navigation", { name: "Адмін-меню" }).getByRole("link", { name: "Розсилка" }).click();
      await expect(staff).toHaveURL("/admin/newsletter", { timeout: 15_000 });
      await staff.getByLabel("Пошук за email").fill(email);
      await staff.getByRole("button", { name: "Знайти" }).click();
      await expect(staff).toHaveURL(/[?&]q=/);
      await expect(staff.getByRole("table", { name: "Підписники" }).getByRole("row")).toHaveCount(2);
      await expect(staff.getByRole("row", { name: new RegExp(email.replace(/[.]/g, "\\.")) })).toContainText("підтверджено");

      const article = ((await (await staff.request.get("/api/articles/?limit=1")).json()).data as { id: string; title: string }[])[0];
      await staff.goto(`/admin/articles/edit/${article.id}`);
      staff.once("dialog", (dialog) => void dialog.accept());
      await staff.getByRole("button", { name: "Надіслати розсилку зараз" }).click();
      await expect(staff).toHaveURL(`/admin/articles/edit/${article.id}`);
      await expect(staff.getByText(/Розсилку поставлено в чергу: \d+ підписник/)).toBeVisible();
      const story = await waitForMail(email, article.title);
      expect(story.html).toContain("Відписатися");
      expect(story.headerLines.map((h) => h.key)).toEqual(expect.arrayContaining(["list-unsubscribe", "list-unsubscribe-post"]));

      await staff.goto("/admin/newsletter");
      await expect(staff.getByRole("table").last()).toContainText(article.title);

      await page.goto(pathIn(story, "/newsletter/unsubscribe?token="));
      await expect(page.getByText(email)).toBeVisible();
      await page.getByRole("button", { name: "Відписатися" }).click();
      await expect(page.getByRole("status").filter({ hasText: "видалено зі списку" })).toBeVisible();

      await staff.goto(`/admin/newsletter?q=${encodeURIComponent(email)}`);
      await expect(staff.getByText("Нікого не знайдено.")).toBeVisible();
      await staff.close();
    });

    test("an editor removes a subscriber; a reporter may not open the screen", async ({ page, browser }) => {
      const email = `${uniqueName("remove")}@example.com`;
      await subscribeFromFooter(page, email);
      const staff = await browser.newPage({ javaScriptEnabled });
      await signIn(staff, "editor");
      await staff.goto(`/admin/newsletter?q=${encodeURIComponent(email)}`);
      await staff.getByRole("button", { name: `Видалити ${email}` }).click();
      await expect(staff.getByRole("status").filter({ hasText: "Підписника видалено." })).toBeVisible();
      await staff.goto(`/admin/newsletter?q=${encodeURIComponent(email)}`);
      await expect(staff.getByText("Нікого не знайдено.")).toBeVisible();
      // The CSV export is a file for staff.
      const csv = await staff.request.get("/admin/newsletter.csv");
      expect(csv.status()).toBe(200);
      expect(csv.headers()["content-type"]).toContain("text/csv");
      expect(await csv.text()).not.toContain(email);
      await staff.close();

      const reporter = await browser.newPage({ javaScriptEnabled });
      await signIn(reporter, "reporter");
      await expect(reporter.getByRole("navigation", { name: "Адмін-меню" }).getByRole("link", { name: "Розсилка" })).toHaveCount(0);
      const denied = await reporter.goto("/admin/newsletter");
      expect(denied?.status()).toBe(403);
      expect((await reporter.request.get("/admin/newsletter.csv")).status()).toBe(403);
      await reporter.close();
    });

    test("forgot password: a link by email sets a new password and ends the old sessions", async ({ page, request, browser }) => {
      const person = await newPerson(request, "reporter");
      const other = await browser.newPage({ javaScriptEnabled });
      await other.goto("/admin/login");
      await other.getByLabel("Ім'я користувача").fill(person.username);
      await other.getByLabel("Пароль").fill("Старий пароль 2026 дуб");
      await other.getByRole("button", { name: "Sign in" }).click();
      await expect(other).toHaveURL("/admin/dashboard");

      await page.goto("/admin/login");
      await page.getByRole("link", { name: "Забули пароль?" }).click();
      await expect(page).toHaveURL("/admin/forgot-password");
      await page.getByLabel("Email").fill(person.email);
      await page.getByRole("button", { name: "Надіслати посилання" }).click();
      await expect(page.getByRole("status").filter({ hasText: "Якщо ця адреса належить користувачеві сайту" })).toBeVisible();
      const mail = await waitForMail(person.email, "Відновлення пароля");
      await page.goto(pathIn(mail, "/admin/reset-password?token="));
      await page.getByLabel("Новий пароль").fill("Новий пароль 2026 клен");
      await page.getByLabel("Повторіть пароль").fill("Новий пароль 2026 клен");
      await page.getByRole("button", { name: "Зберегти пароль" }).click();
      await expect(page.getByRole("status").filter({ hasText: "Пароль змінено" })).toBeVisible();

      // The session opened before the reset is over.
      await other.goto("/admin/dashboard");
      await expect(other).toHaveURL(/\/admin\/login/);
      await other.close();
      await page.goto("/admin/login");
      await page.getByLabel("Ім'я користувача").fill(person.username);
      await page.getByLabel("Пароль").fill("Новий пароль 2026 клен");
      await page.getByRole("button", { name: "Sign in" }).click();
      await expect(page).toHaveURL("/admin/dashboard");
    });
  });
}

test("the digest schedule is saved by an admin and shown to editors read-only", async ({ page, browser }) => {
  await signIn(page, "admin");
  await page.goto("/admin/newsletter");
  await page.getByLabel("День").selectOption("5");
  await page.getByLabel("Година (Київ)").selectOption("18");
  await page.getByRole("button", { name: "Зберегти розклад" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Розклад дайджесту збережено." })).toBeVisible();
  await expect(page.getByLabel("День")).toHaveValue("5");
  await expect(page.getByLabel("Година (Київ)")).toHaveValue("18");
  const editor = await browser.newPage();
  await signIn(editor, "editor");
  await editor.goto("/admin/newsletter");
  await expect(editor.getByLabel("День")).toBeDisabled();
  await expect(editor.getByText("Розклад змінює адміністратор.")).toBeVisible();
  await editor.close();
  // Back to the default (Monday 09:00).
  await page.getByLabel("День").selectOption("1");
  await page.getByLabel("Година (Київ)").selectOption("9");
  await page.getByRole("button", { name: "Зберегти розклад" }).click();
  await expect(page.getByLabel("День")).toHaveValue("1");
});
