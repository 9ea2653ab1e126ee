import { expect, test } from "./fixtures";

// Issue 30 item 2 and issue 31 item 6 on the search page, as a reader uses it (JavaScript on and
// off): another form of a word, another apostrophe, a phrase in quotes; the demo articles hold
// "квантових компʼютерів" (U+02BC) and "злиття чорних дір".

for (const javaScriptEnabled of [true, false]) {
  test.describe(`search that knows Ukrainian (JavaScript ${javaScriptEnabled ? "on" : "off"})`, () => {
    test.use({ javaScriptEnabled });

    test("an inflected word with another apostrophe finds the article and marks the forms it matched", async ({ page }) => {
      await page.goto("/search");
      await page.getByRole("searchbox", { name: "Пошук по статтях" }).fill("комп’ютерами");
      await page.getByRole("button", { name: "Шукати" }).click();
      await expect(page.getByRole("heading", { level: 1, name: "Пошук: «комп’ютерами»" })).toBeVisible({ timeout: 15_000 });
      await expect(page.getByRole("status")).toHaveText(/^Знайдено статей: \d+$/);
      const hit = page.locator(".search-hit").filter({ has: page.locator('a[href="/article/postkvantova-kryptohrafiia"]') });
      await expect(hit).toHaveCount(1);
      await expect(hit.locator(".search-snippet mark").first()).toHaveText(/^комп[ʼ'’`]ютер/i);
    });

    test("a phrase in quotes finds that phrase and marks its words; the words alone find more", async ({ page }) => {
      await page.goto(`/search?q=${encodeURIComponent("«чорних дір»")}`);
      const first = page.locator(".search-hit").first();
      await expect(first.locator(".search-hit-title a")).toHaveAttribute("href", "/article/hravitatsiini-khvyli-zlyttia-chornykh-dir");
      await expect(first.locator(".search-hit-title mark")).toHaveText(["чорних", "дір"]);
      // Other forms of the same words, without quotes: found by stem.
      await page.goto(`/search?q=${encodeURIComponent("чорна діра")}`);
      await expect(page.locator(".search-hit a[href='/article/hravitatsiini-khvyli-zlyttia-chornykh-dir']")).toHaveCount(1);
      await page.goto(`/search?q=${encodeURIComponent('"чорна діра"')}`);
      await expect(page.locator(".search-hit a[href='/article/hravitatsiini-khvyli-zlyttia-chornykh-dir']")).toHaveCount(0);
    });
  });
}
