import { expect, signIn, test } from "./fixtures";

const card = (page: import("@playwright/test").Page, label: string) => page.locator(".stat-card").filter({ has: page.getByText(label, { exact: true }) });

test.describe("dashboard", () => {
  test("six stat cards with separators, the chart, top and recent articles", async ({ page }) => {
    await signIn(page, "reporter");
    await expect(page.getByText("Ласкаво просимо до адмін-панелі видання «Наука UA»", { exact: false })).toBeVisible();
    for (const label of ["Total Articles", "Published Articles", "Draft Articles", "Total Views", "Views This Week", "Views This Month"]) {
      await expect(card(page, label).locator(".stat-value")).toHaveText(/^\d{1,3}(,\d{3})*$/);
    }
    // The demo has tens of thousands of views: the separator shows.
    await expect(card(page, "Total Views").locator(".stat-value")).toHaveText(/^\d{1,3}(,\d{3})+$/);

    await expect(page.getByRole("heading", { name: "Views Analytics (Last 30 Days)" })).toBeVisible();
    await expect(page.locator(".recharts-line-curve")).toBeVisible(); // recharts once hydrated
    await expect(page.locator(".recharts-line-curve")).toHaveAttribute("stroke", "#dc2626");
    await page.locator(".recharts-surface").hover({ position: { x: 300, y: 120 } });
    await expect(page.locator(".recharts-tooltip-wrapper")).toContainText(/Date: \d{4}-\d{2}-\d{2}/);
    await expect(page.locator(".recharts-tooltip-wrapper")).toContainText(/\d+ views/);
    await expect(page.locator(".recharts-tooltip-wrapper")).not.toContainText("Views :");

    const top = page.getByRole("region", { name: "Top Articles" });
    await expect(top.getByRole("listitem")).toHaveCount(5);
    const recent = page.getByRole("region", { name: "Recent Articles" });
    // A reporter gets Edit only on their own drafts (issue 31 item 7, tests/e2e/newcomer-dashboard.spec.ts).
    await expect(recent.getByRole("listitem")).toHaveCount(5);
    await expect(recent).toContainText(/[A-Z][a-z]{2} \d{1,2}, \d{4}/); // 'MMM d, yyyy'
    // The reporter's top articles lead to the public page (they may not edit a colleague's story).
    const first = top.getByRole("listitem").first().getByRole("link").first();
    const href = await first.getAttribute("href");
    expect(href).toMatch(/^\/article\/[^/]+$/);
  });

  test("figures match the API", async ({ page, request }) => {
    const token = (await (await request.post("/api/auth/login", { data: { username: "editor", password: "editor123" } })).json()).access_token;
    const api = async () => (await request.get("/api/analytics/dashboard", { headers: { Authorization: `Bearer ${token}` } })).json();
    await signIn(page, "editor");
    // Other specs publish and unpublish meanwhile: the screen and the API agree when read together.
    await expect(async () => {
      const now = await api();
      await page.reload();
      await expect(card(page, "Published Articles").locator(".stat-value")).toHaveText(new Intl.NumberFormat("en-US").format(now.published_articles), {
        timeout: 1_000,
      });
    }).toPass({ timeout: 20_000 });
    const stats = await api();
    await page.reload();
    // Views are counted live (other specs read public pages meanwhile): the figure shown lies
    // between the API's before and after the page was rendered.
    const shown = Number((await card(page, "Views This Month").locator(".stat-value").textContent())!.replace(/\D/g, ""));
    const after = await (await request.get("/api/analytics/dashboard", { headers: { Authorization: `Bearer ${token}` } })).json();
    expect(shown).toBeGreaterThanOrEqual(stats.month_views);
    expect(shown).toBeLessThanOrEqual(after.month_views);
  });

  test("analytics: four cards, chart, ranked top articles and the summary", async ({ page }) => {
    await signIn(page, "admin");
    await page.getByRole("link", { name: "Аналітика", exact: true }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Аналітика");
    await expect(page.locator(".stat-card")).toHaveCount(4);
    await expect(page.locator(".recharts-line-curve")).toBeVisible();
    const ranks = page.getByRole("region", { name: "Top Articles" }).locator(".rank");
    await expect(ranks).toHaveCount(10);
    await expect(ranks.first()).toHaveText("1");
    const summary = page.getByRole("region", { name: "Articles Summary" });
    await expect(summary).toContainText("Published");
    await expect(summary).toContainText("Drafts");
    await expect(summary).toContainText("Total");
  });
});

test.describe("dashboard without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the chart is drawn on the server", async ({ page }) => {
    await signIn(page, "admin");
    const chart = page.locator("svg.static-chart");
    await expect(chart).toBeVisible();
    await expect(chart.locator("circle")).toHaveCount(30);
    await expect(chart.locator("polyline")).toHaveAttribute("stroke", "#dc2626");
    // The same figures for screen readers.
    await expect(page.locator("figure table tbody tr")).toHaveCount(30);
  });
});
