import { expect, signIn, test, uniqueName } from "./fixtures";
import { createCategory, createPublishedArticle } from "./public-data";

// Settings take effect on the public site (issue 5). Site-wide: runs after the other specs and
// puts every setting back.
test.describe.configure({ mode: "serial" });

test("SEO settings: title, description, language, robots, Twitter, Open Graph image, canonical URL, robots.txt", async ({ page, request }) => {
  const login = await request.post("/api/auth/login", { data: { username: "admin", password: "admin123" } });
  const headers = { Authorization: `Bearer ${(await login.json()).access_token}` };
  const original = (await (await request.get("/api/seo/settings", { headers })).json()).data;
  const changed = {
    site_title: "Наука Тест",
    site_description: "Опис для перевірки налаштувань.",
    language: "en-US",
    robots: "noindex, nofollow",
    twitter_handle: "@nauka_test",
    og_image: "https://cdn.example.org/og.jpg",
    canonical_url: "https://nauka.example.org",
  };
  try {
    expect((await request.put("/api/seo/settings", { headers, data: changed })).status()).toBe(200);
    await page.goto("/");
    await expect(page).toHaveTitle("Наука Тест");
    await expect(page.locator("html")).toHaveAttribute("lang", "en-US");
    await expect(page.locator('meta[name="description"]')).toHaveAttribute("content", "Опис для перевірки налаштувань.");
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", "noindex, nofollow");
    await expect(page.locator('meta[name="twitter:site"]')).toHaveAttribute("content", "@nauka_test");
    await expect(page.locator('meta[property="og:image"]')).toHaveAttribute("content", "https://cdn.example.org/og.jpg");
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", "https://nauka.example.org/");
    await expect(page.locator(".logo-text")).toHaveText("Наука Тест");

    await page.goto("/category/medicine");
    await expect(page).toHaveTitle("Медицина — Наука Тест");
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", "https://nauka.example.org/category/medicine");

    const robots = await (await request.get("/robots.txt")).text();
    expect(robots).toContain("Disallow: /\n");
    expect(robots).toContain("Sitemap: https://nauka.example.org/sitemap.xml");
    expect(await (await request.get("/sitemap.xml")).text()).toContain("<loc>https://nauka.example.org/</loc>");
  } finally {
    expect((await request.put("/api/seo/settings", { headers, data: original })).status()).toBe(200);
  }
  await page.goto("/");
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", original.robots);
});

// A category of its own with 12 articles. Created here, among the site-wide specs, because other
// specs count the categories that have published articles.
let category = "";
test.beforeAll(async () => {
  category = await createCategory(uniqueName("e2e-ppp"), uniqueName("Рубрика"));
  const now = Date.now();
  for (let i = 0; i < 12; i++) {
    await createPublishedArticle({
      slug: uniqueName(`e2e-ppp${i}`),
      title: `Сторінки ${i}`,
      categorySlug: category,
      publishedAt: new Date(now - i * 60_000).toISOString(),
    });
  }
});

for (const javaScriptEnabled of [true, false]) {
  test.describe(`paging (JavaScript ${javaScriptEnabled ? "on" : "off"})`, () => {
    test.use({ javaScriptEnabled });
    test("a category is paged by 10 with real page links", async ({ page }) => {
      await page.goto(`/category/${category}`);
      await expect(page.locator(".list-card")).toHaveCount(10);
      await expect(page.locator(".list-card").first()).toContainText("Сторінки 0");
      const pages = page.getByRole("navigation", { name: "Сторінки" });
      await pages.getByRole("link", { name: "Сторінка 2" }).click();
      await expect(page).toHaveURL(new RegExp(`/category/${category}\\?page=2$`), { timeout: 15_000 });
      await expect(page.locator(".list-card")).toHaveCount(2);
      await expect(page.locator(".list-card").last()).toContainText("Сторінки 11");
      await expect(pages.locator('[aria-current="page"]')).toHaveText("2");
      expect((await page.goto(`/category/${category}?page=9`))?.status()).toBe(404);
    });
  });
}

test("verification codes on the home page and posts per page on category listings", async ({ page }) => {
  await signIn(page, "admin");
  await page.goto("/admin/settings?tab=integrations");
  const code = page.getByLabel("Search Console verification code");
  const meta = page.getByLabel("Meta verification");
  const originalCode = await code.inputValue();
  const originalMeta = await meta.inputValue();
  await code.fill("gsc-e2e-code");
  await meta.fill('<meta name="google-site-verification" content="meta-e2e-code" />');
  await page.getByRole("tab", { name: "Content" }).click();
  await page.getByLabel("Posts per page").selectOption("15");
  await page.getByRole("button", { name: "Save Changes" }).click();
  await expect(page.getByRole("status")).toBeVisible();
  try {
    await page.goto("/");
    const verification = page.locator('meta[name="google-site-verification"]');
    await expect(verification).toHaveCount(2);
    await expect(verification.nth(0)).toHaveAttribute("content", "gsc-e2e-code");
    await expect(verification.nth(1)).toHaveAttribute("content", "meta-e2e-code");
    await page.goto(`/category/${category}`);
    await expect(page.locator(".list-card")).toHaveCount(12);
    await expect(page.getByRole("navigation", { name: "Сторінки" })).toHaveCount(0);
  } finally {
    await page.goto("/admin/settings?tab=integrations");
    await page.getByLabel("Search Console verification code").fill(originalCode);
    await page.getByLabel("Meta verification").fill(originalMeta);
    await page.getByRole("tab", { name: "Content" }).click();
    await page.getByLabel("Posts per page").selectOption("10");
    await page.getByRole("button", { name: "Save Changes" }).click();
    await expect(page.getByRole("status")).toBeVisible();
  }
  await page.goto(`/category/${category}`);
  await expect(page.locator(".list-card")).toHaveCount(10);
});
