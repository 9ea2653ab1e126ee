import { readFileSync } from "node:fs";
import { AxeBuilder } from "@axe-core/playwright";
import type { APIRequestContext } from "@playwright/test";
import { DEMO, expect, signIn, test, uniqueName } from "./fixtures";

// Issue 25 (item 11): the audit log's screen, with JavaScript on and off: a person's changes found
// by the filter (GET form), paged 50 at a time, the empty state, and the CSV export of what the
// filter shows. The person is a fresh account, so other specs running meanwhile change no count.

/** A new editor who creates and deletes `count` categories: 2 × count entries of theirs, plus their sign-in. */
async function busyEditor(request: APIRequestContext, count: number) {
  const admin = await request.post("/api/auth/login", { data: { username: DEMO.admin.username, password: DEMO.admin.password } });
  const adminToken = (await admin.json()).access_token as string;
  const username = uniqueName("audit").toLowerCase();
  const password = "Журнал дій 2026 ясен";
  const created = await request.post("/api/users/", {
    headers: { Authorization: `Bearer ${adminToken}` },
    data: { username, email: `${username}@nauka-ua.example`, role: "editor", password },
  });
  expect(created.status()).toBe(201);
  const login = await request.post("/api/auth/login", { data: { username, password } });
  const headers = { Authorization: `Bearer ${(await login.json()).access_token}` };
  const names: string[] = [];
  for (let i = 0; i < count; i++) {
    const name = `Журнал ${username} ${String(i).padStart(2, "0")}`;
    const res = await request.post("/api/categories/", { headers, data: { name, description: null } });
    expect(res.status()).toBe(201);
    const { id } = await res.json();
    expect((await request.delete(`/api/categories/${id}`, { headers })).status()).toBe(204);
    names.push(name);
  }
  return { username, names };
}

for (const javaScriptEnabled of [true, false]) {
  test.describe(`the audit log (JavaScript ${javaScriptEnabled ? "on" : "off"})`, () => {
    test.use({ javaScriptEnabled });

    test("filter by person and action, page, export the filtered rows, the empty state", async ({ page, request }) => {
      // 30 created + 30 deleted + 1 sign-in = 61 entries: two pages of 50.
      const { username, names } = await busyEditor(request, 30);
      await signIn(page, "admin");
      await page.getByRole("navigation", { name: "Адмін-меню" }).getByRole("link", { name: "Журнал дій", exact: true }).click();
      await expect(page).toHaveURL("/admin/audit");
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Журнал дій");

      // The person's entries: newest first, two pages.
      const filters = page.getByRole("search", { name: "Фільтри журналу" });
      await filters.getByLabel("Користувач").fill(username);
      await filters.getByRole("button", { name: "Показати" }).click();
      await expect(page).toHaveURL(`/admin/audit?user=${username}&action=&from=&to=`);
      await expect(page.getByText("Знайдено записів: 61")).toBeVisible();
      const table = page.getByRole("table", { name: /Журнал дій: найновіші записи першими, сторінка 1 з 2/ });
      await expect(table.getByRole("columnheader")).toHaveText(["Час (Київ)", "Хто", "Дія", "Об’єкт", "Адреса", "Подробиці"]);
      const rows = table.locator("tbody tr");
      await expect(rows).toHaveCount(50);
      await expect(rows.first()).toContainText("Видалено категорію");
      await expect(rows.first()).toContainText(names[29]);
      await expect(rows.first().getByRole("rowheader")).toHaveText(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);

      const pager = page.getByRole("navigation", { name: "Сторінки журналу" });
      await pager.getByRole("link", { name: "Наступна →" }).click();
      await expect(page).toHaveURL(new RegExp(`/admin/audit\\?user=${username}&page=2$`));
      await expect(pager.locator("[aria-current=page]")).toHaveText("2");
      await expect(page.getByRole("table", { name: /сторінка 2 з 2/ }).locator("tbody tr")).toHaveCount(11);
      // The oldest of them: the sign-in.
      await expect(page.locator("tbody tr").last()).toContainText("Вхід");

      // Person and action: the 30 creations, one page; the export carries exactly those.
      await filters.getByLabel("Дія").selectOption({ label: "Створено категорію" });
      await filters.getByRole("button", { name: "Показати" }).click();
      await expect(page.getByText("Знайдено записів: 30")).toBeVisible();
      await expect(page.locator("tbody tr")).toHaveCount(30);
      await expect(pager).toHaveCount(0);
      const exportLink = page.getByRole("link", { name: "Експорт CSV" });
      await expect(exportLink).toHaveAttribute("href", `/admin/audit.csv?user=${username}&action=category.create`);
      const [download] = await Promise.all([page.waitForEvent("download"), exportLink.click()]);
      expect(download.suggestedFilename()).toMatch(/^audit-log-\d{4}-\d{2}-\d{2}\.csv$/);
      const csv = readFileSync((await download.path())!, "utf8");
      const lines = csv
        .replace(/^\uFEFF/, "")
        .split("\r\n")
        .filter(Boolean);
      expect(lines[0]).toBe("id,created_at,username,user_id,action,action_label,object_type,object_id,object_label,ip,details");
      expect(lines).toHaveLength(31);
      for (const name of names) expect(csv).toContain(`,${name},`);

      // A range with nothing in it: the empty state.
      await filters.getByLabel("Від (дата)").fill("2099-01-01");
      await filters.getByLabel("До (дата)").fill("2099-01-02");
      await filters.getByRole("button", { name: "Показати" }).click();
      await expect(page.getByText("За цими фільтрами записів немає.")).toBeVisible();
      await expect(page.getByRole("table")).toHaveCount(0);

      // A range the wrong way round: the form says so, on the field.
      await filters.getByLabel("Від (дата)").fill("2026-05-02");
      await filters.getByLabel("До (дата)").fill("2026-05-01");
      await filters.getByRole("button", { name: "Показати" }).click();
      await expect(filters.getByLabel("До (дата)")).toHaveAttribute("aria-invalid", "true");
      await expect(page.getByText("Дата «від» пізніша за дату «до»")).toBeVisible();

      await page.getByRole("link", { name: "Скинути фільтри" }).click();
      await expect(page).toHaveURL("/admin/audit");
      await expect(filters.getByLabel("Користувач")).toHaveValue("");
    });
  });
}

test("editors and reporters neither see the audit log nor open it", async ({ page }) => {
  for (const role of ["editor", "reporter"] as const) {
    await signIn(page, role);
    await expect(page.getByRole("navigation", { name: "Адмін-меню" }).getByRole("link", { name: "Журнал дій" })).toHaveCount(0);
    expect((await page.goto("/admin/audit"))?.status()).toBe(403);
    await expect(page.getByRole("heading", { name: "Access Denied" })).toBeVisible();
    expect((await page.request.get("/admin/audit.csv")).status()).toBe(403);
    await page.context().clearCookies();
  }
});

test("the screen has no serious or critical axe violations, with entries and with a refused filter", async ({ page }) => {
  await signIn(page, "admin");
  for (const path of ["/admin/audit", "/admin/audit?from=2026-05-02&to=2026-05-01"]) {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Журнал дій");
    const results = await new AxeBuilder({ page }).analyze();
    const bad = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
    expect(bad.map((v) => `${path} ${v.id}: ${v.help}`)).toEqual([]);
  }
});
