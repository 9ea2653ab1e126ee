import { expect, test } from "./fixtures";

// DESIGN §12: a page from the store carries a CSP listing the hashes of its inline scripts instead
// of a nonce. In Chromium, the stored copy (X-Cache: HIT) must run every script: it hydrates and
// navigates client-side with no CSP violation.
test("a stored article page hydrates with no CSP violation", async ({ page, request }) => {
  const home = await (await request.get("/")).text();
  const href = /href="(\/article\/[^"?#]+)"/.exec(home)![1];
  // Make sure the page is in the store before the browser asks for it.
  await request.get(`${href}?e2e-store`);
  const violations: string[] = [];
  const errors: string[] = [];
  await page.exposeFunction("reportViolation", (text: string) => violations.push(text));
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) =>
      (window as unknown as { reportViolation: (t: string) => void }).reportViolation(`${e.violatedDirective} ${e.blockedURI}`),
    );
  });
  page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  page.on("pageerror", (e) => errors.push(e.message));

  const response = await page.goto(`${href}?e2e-store`);
  expect(response!.headers()["x-cache"]).toBe("HIT");
  const csp = response!.headers()["content-security-policy"];
  expect(csp).toMatch(/script-src 'self' 'sha256-/);
  expect(csp).not.toContain("'nonce-");
  await page.waitForFunction(() => (window as unknown as { __remixContext?: unknown }).__remixContext !== undefined);
  // Hydrated: a click on the logo or menu navigates without a reload.
  await page.evaluate(() => ((window as unknown as { marker: number }).marker = 7));
  await page.locator('a[href="/"]').first().click();
  await expect(page).toHaveURL(/\/$/);
  expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(7);
  expect(violations).toEqual([]);
  expect(errors).toEqual([]);
});

// Issue 25: the store keeps one copy of a page's single-fetch data whatever the spelling, under a key
// that names the loaders the browser asks for (`?_routes=`, route ids listed in
// app/page-store/page-key.server.ts). A client-side navigation's data must be a store hit the second time.
test("a client-side navigation's data (.data) is kept once and served from the store", async ({ page }) => {
  const data: { path: string; xCache: string | undefined }[] = [];
  page.on("response", (response) => {
    const url = new URL(response.url());
    if (url.pathname.endsWith(".data")) data.push({ path: url.pathname, xCache: response.headers()["x-cache"] });
  });
  await page.goto("/");
  await page.waitForFunction(() => (window as unknown as { __remixContext?: unknown }).__remixContext !== undefined);
  const href = (await page.locator('main a[href^="/article/"]').first().getAttribute("href"))!;
  for (let visit = 0; visit < 2; visit++) {
    await page.locator(`main a[href="${href}"]`).first().click();
    await expect(page).toHaveURL(href);
    await expect(page.locator("#article-body")).toBeVisible();
    if (visit === 0) {
      await page.locator('a[href="/"]').first().click();
      await expect(page).toHaveURL(/\/$/);
    }
  }
  const article = data.filter((d) => d.path === `${href}.data`);
  expect(article.length).toBeGreaterThanOrEqual(2);
  expect(article.at(-1)!.xCache).toBe("HIT");
});
