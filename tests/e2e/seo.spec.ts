import { expect, signIn, test } from "./fixtures";

test.describe("SEO analytics", () => {
  test("sample search figures labelled as such, real overview and category pie", async ({ page }) => {
    await signIn(page, "editor", "/admin/seo");
    await expect(page.getByText("Sample data — Search Console is not connected")).toBeVisible();
    for (const [label, value] of [
      ["Impressions", "15,420"],
      ["Clicks", "3,890"],
      ["CTR", "25.2%"],
      ["Average position", "12.5"],
    ]) {
      await expect(page.locator(".stat-card").filter({ hasText: label }).locator(".stat-value")).toHaveText(value);
    }
    const queries = page.getByRole("region", { name: "Search performance" }).locator("tbody tr");
    await expect(queries).toHaveCount(5);
    const overview = page.getByRole("region", { name: "Articles overview" });
    await expect(overview.locator(".stat-card").filter({ hasText: "Published" }).locator(".stat-value")).toHaveText(/^\d+$/);
    await expect(overview.locator("tbody tr")).toHaveCount(5);
    const categories = page.getByRole("region", { name: "Articles by category" });
    // The eight seeded categories, and any another spec on this server has filled since (the import's).
    await expect(categories.getByRole("listitem").nth(7)).toBeVisible();
    const shown = await categories.getByRole("listitem").count();
    await expect(categories.locator(".recharts-pie-sector")).toHaveCount(shown);
    await expect(page.getByText(/^Last updated: /)).toBeVisible();
  });

  test("submit sitemap and URL, with the SPEC texts; an empty URL is ignored", async ({ page, baseURL }) => {
    await signIn(page, "admin", "/admin/seo/analytics");
    await page.getByRole("button", { name: "Submit sitemap" }).click();
    await expect(page.getByRole("status")).toHaveText(/^Search Console не підключено: карту сайту не надіслано/);

    await page.getByRole("button", { name: "Submit URL" }).click();
    await expect(page.getByRole("status")).toHaveCount(0);

    await page.getByLabel("URL to submit").fill("https://evil.example/page");
    await page.getByRole("button", { name: "Submit URL" }).click();
    await expect(page.getByRole("alert")).toHaveText(/^Failed to submit URL: Адреса має належати цьому сайту/);

    await page.getByLabel("URL to submit").fill(`${baseURL}/article/anything`);
    await page.getByRole("button", { name: "Submit URL" }).click();
    await expect(page.getByRole("status")).toHaveText(/^Search Console не підключено: адресу не надіслано/);
    await expect(page.locator(".submission-list")).toContainText(`${baseURL}/article/anything`);
  });
});

// Issue 31 item 2: the buttons on /admin/seo (SPEC's own address) post to an action that exists,
// with JavaScript on and off, and never claim a submission reached an unconnected Search Console.
for (const javaScriptEnabled of [true, false]) {
  test.describe(`/admin/seo submits (JavaScript ${javaScriptEnabled ? "on" : "off"})`, () => {
    test.use({ javaScriptEnabled });
    test("sitemap and URL buttons work on /admin/seo and say Search Console is not connected", async ({ page, baseURL }) => {
      await signIn(page, "admin", "/admin/seo");
      await page.getByRole("button", { name: "Submit sitemap" }).click();
      await expect(page.getByRole("status")).toHaveText(/^Search Console не підключено: карту сайту не надіслано/);
      await expect(page.getByText("Sitemap submitted successfully!")).toHaveCount(0);
      await expect(page.getByRole("heading", { name: "Помилка сервера" })).toHaveCount(0);
      await page.getByLabel("URL to submit").fill(`${baseURL}/article/from-seo-index`);
      await page.getByRole("button", { name: "Submit URL" }).click();
      await expect(page.getByRole("status")).toHaveText(/^Search Console не підключено: адресу не надіслано/);
      await expect(page.locator(".submission-list")).toContainText(`${baseURL}/article/from-seo-index`);
    });
  });
}

// Issue 25: the sitemap's files at the root parse as XML in the browser; on the demo site the
// sitemap is one file, and the index's names already answer with its two parts.
test("the sitemap and its files parse as XML", async ({ page, request }) => {
  await page.goto("/");
  for (const [path, root] of [
    ["/sitemap.xml", "urlset"],
    ["/sitemap-pages.xml", "urlset"],
    ["/sitemap-articles-1.xml", "urlset"],
  ] as const) {
    const res = await request.get(path);
    expect(res.status(), path).toBe(200);
    expect(res.headers()["content-type"]).toMatch(/xml/);
    const parsed = await page.evaluate(
      (xml) => {
        const doc = new DOMParser().parseFromString(xml, "application/xml");
        return { error: doc.querySelector("parsererror")?.textContent ?? null, root: doc.documentElement.nodeName, urls: doc.querySelectorAll("url").length };
      },
      await res.text(),
    );
    expect(parsed.error, path).toBeNull();
    expect(parsed.root, path).toBe(root);
    expect(parsed.urls, path).toBeGreaterThan(path === "/sitemap-pages.xml" ? 1 : 20);
  }
  expect((await request.get("/sitemap-articles-2.xml")).status()).toBe(404);
});
