import { AxeBuilder } from "@axe-core/playwright";
import { expect, signIn, test } from "./fixtures";

// Issue 17, reader items: dark scheme, feed discovery and what robots.txt lets crawlers read.

const ARTICLE = "/article/mrnk-vaktsyny-proty-raku";

/** Relative luminance of a computed rgb()/rgba() colour. */
function luminance(colour: string) {
  const [r, g, b] = (colour.match(/[\d.]+/g) ?? []).slice(0, 3).map((v) => {
    const x = Number(v) / 255;
    return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

test.describe("dark scheme on public pages", () => {
  test.use({ colorScheme: "dark" });

  for (const path of ["/", ARTICLE]) {
    test(`${path}: dark background, light text, no serious colour-contrast violations`, async ({ page }) => {
      test.setTimeout(60_000);
      await page.goto(path);
      await expect(page.locator('meta[name="color-scheme"]')).toHaveAttribute("content", "light dark");
      const colours = await page.locator(".public").evaluate((el) => ({ background: getComputedStyle(el).backgroundColor, color: getComputedStyle(el).color }));
      expect(luminance(colours.background)).toBeLessThan(0.05);
      expect(luminance(colours.color)).toBeGreaterThan(0.6);
      const results = await new AxeBuilder({ page }).withRules(["color-contrast"]).analyze();
      const bad = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
      expect(bad.map((v) => `${v.id} ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
    });
  }

  test("the admin stays light", async ({ page }) => {
    await signIn(page, "editor");
    await expect(page.locator('meta[name="color-scheme"]')).toHaveCount(0);
    const background = await page.locator(".admin-main").evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(luminance(background)).toBeGreaterThan(0.8);
  });
});

test("light scheme keeps light pages", async ({ page }) => {
  await page.emulateMedia({ colorScheme: "light" });
  await page.goto("/");
  const background = await page.locator(".public").evaluate((el) => getComputedStyle(el).backgroundColor);
  expect(luminance(background)).toBeGreaterThan(0.8);
});

test("every public page names its RSS feed in the head", async ({ page, request }) => {
  for (const path of ["/", ARTICLE, "/category/medicine", "/search", "/search?q=вакцин", "/no-such-page"]) {
    await page.goto(path);
    const feed = page.locator('head link[rel="alternate"][type="application/rss+xml"]');
    await expect(feed, path).toHaveCount(1);
    await expect(feed).toHaveAttribute("title", /.+/);
    const href = await feed.getAttribute("href");
    const res = await request.get(new URL(href!, page.url()).href);
    expect(res.status()).toBe(200);
    expect(res.headers()["content-type"]).toContain("xml");
  }
});

/** Whether robots.txt (one `User-agent: *` group, prefix rules) lets a crawler fetch `path`. */
function allowed(robots: string, path: string) {
  // The longest matching rule wins; on a tie Allow wins (RFC 9309 §2.2.2).
  let best: { length: number; allow: boolean } = { length: -1, allow: true };
  for (const line of robots.split("\n")) {
    const m = /^(Allow|Disallow):\s*(\S*)\s*$/i.exec(line.trim());
    if (!m || !m[2]) continue;
    const rule = m[2];
    const re = new RegExp(
      `^${rule
        .replace(/[.+?^${}()|[\]\\]/g, "\\$&")
        .replace(/\*/g, ".*")
        .replace(/\\\$$/, "$")}`,
    );
    if (!re.test(path)) continue;
    const allow = m[1].toLowerCase() === "allow";
    if (rule.length > best.length || (rule.length === best.length && allow)) best = { length: rule.length, allow };
  }
  return best.allow;
}

test("robots.txt lets crawlers read the 'all news' archive and keeps them out of the admin", async ({ page, request }) => {
  await page.goto("/");
  const archive = await page.getByRole("link", { name: "ALL SCIENCE NEWS" }).getAttribute("href");
  const latest = await page.getByRole("link", { name: "Latest news" }).first().getAttribute("href");
  const robots = await (await request.get("/robots.txt")).text();
  for (const path of [archive!, `${archive}?page=2`, latest!, ARTICLE]) expect(allowed(robots, path), path).toBe(true);
  for (const path of ["/admin", "/admin/articles", "/api/articles"]) expect(allowed(robots, path), path).toBe(false);
  // The archive itself is meant for indexing (its result pages say noindex in their own meta).
  await page.goto(archive!);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Усі новини");
  const robotsMeta = await page.evaluate(() => document.querySelector('meta[name="robots"]')?.getAttribute("content") ?? "");
  expect(robotsMeta).not.toContain("noindex");
});
