import { request as playwrightRequest, type APIRequestContext, type Page } from "@playwright/test";
import { baseURL } from "../../playwright.config";
import { DEMO, expect, signIn, test } from "./fixtures";

// Issue 31 item 3: the homepage editor by keyboard. Space or Enter picks a card up, the arrows move
// it within its block and between blocks (a full block is skipped, and that is announced; nothing
// else says "заповнено"), Space or Enter drops it, Escape puts it back; each step is announced in
// Ukrainian. Changes the site-wide layout: a *.global spec, which puts the original back.

let api: APIRequestContext;
let original: { id: string; articles: string[] }[];
let articles: { id: string; title: string }[];

async function putLayout(layout: Record<string, string[]>) {
  const res = await api.put("/api/homepage/config", { data: { blocks: Object.entries(layout).map(([id, list]) => ({ id, articles: list })) } });
  expect(res.status(), await res.text()).toBe(200);
}
const block = (page: Page, name: string) => page.getByRole("region", { name, exact: true });
const items = (page: Page, name: string) => block(page, name).locator(".hp-item-title");
const live = (page: Page) => page.locator(".hp-live");

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  api = await playwrightRequest.newContext({ baseURL });
  const login = await api.post("/api/auth/login", { data: { username: DEMO.editor.username, password: DEMO.editor.password } });
  const { access_token } = await login.json();
  await api.dispose();
  api = await playwrightRequest.newContext({ baseURL, extraHTTPHeaders: { Authorization: `Bearer ${access_token}` } });
  original = (await (await api.get("/api/homepage/config")).json()).blocks;
  articles = (await (await api.get("/api/articles/?limit=8")).json()).data;
  expect(articles.length).toBeGreaterThanOrEqual(6);
});

test.afterAll(async () => {
  await putLayout(Object.fromEntries(original.map((b) => [b.id, b.articles])));
  await api.dispose();
});

test("arrow keys move a picked card within and between blocks, skipping a full one; Escape puts it back", async ({ page }) => {
  const [a, b, c, d, e, x] = articles;
  await putLayout({ hero: [a.id], main: [b.id, c.id, d.id], sidebar: [e.id], trending: [], featured: [] });
  await signIn(page, "editor", "/admin/homepage");
  const main = "Останні наукові відкриття";
  const sidebar = "Стрічка новин";
  await expect(block(page, main)).toContainText("3/3");

  // Within a block: b from the top to the bottom of "main".
  await items(page, main).nth(0).focus();
  await page.keyboard.press("Space");
  await expect(live(page)).toContainText(`Узято «${b.title}», позиція 1 з 3 у блоці «${main}»`);
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("ArrowDown");
  await expect(live(page)).toHaveText(`«${b.title}»: позиція 3 з 3 у блоці «${main}».`);
  await page.keyboard.press("Space");
  await expect(live(page)).toContainText(`«${b.title}» відпущено: позиція 3 з 3 у блоці «${main}»`);
  await expect(items(page, main)).toHaveText([`1. ${c.title}`, `2. ${d.title}`, `3. ${b.title}`]);

  // Between blocks: ↓ at the bottom of "main" goes to the top of the next block.
  await expect(items(page, main).nth(2)).toBeFocused();
  await page.keyboard.press("Enter");
  await page.keyboard.press("ArrowDown");
  await expect(live(page)).toHaveText(`«${b.title}»: позиція 1 з 2 у блоці «${sidebar}».`);
  await page.keyboard.press("Enter");
  await expect(block(page, main)).toContainText("2/3");
  await expect(items(page, sidebar)).toHaveText([`1. ${b.title}`, `2. ${e.title}`]);

  // From the article list: → enters the first block with room; the full hero is skipped and said so.
  await page.locator(".hp-article .hp-drag").filter({ hasText: x.title }).focus();
  await page.keyboard.press("Space");
  await page.keyboard.press("ArrowRight");
  await expect(live(page)).toHaveText(`Блок «Головна історія» заповнено (1/1): пропущено. «${x.title}»: позиція 3 з 3 у блоці «${main}».`);
  await page.keyboard.press("Space");
  await expect(block(page, main)).toContainText("3/3");
  await expect(page.getByRole("alert")).toHaveCount(0);

  // Escape puts everything back where it was picked up, focus included.
  await items(page, sidebar).nth(1).focus();
  await page.keyboard.press("Space");
  await page.keyboard.press("ArrowLeft");
  await page.keyboard.press("ArrowLeft");
  await page.keyboard.press("Escape");
  await expect(live(page)).toHaveText(`Переміщення «${e.title}» скасовано.`);
  await expect(items(page, sidebar)).toHaveText([`1. ${b.title}`, `2. ${e.title}`]);
  await expect(items(page, sidebar).nth(1)).toBeFocused();

  // Many presses never lose the card: 40 × ↓ takes it to the bottom of the last block.
  await page.keyboard.press("Space");
  for (let i = 0; i < 40; i++) await page.keyboard.press("ArrowDown");
  await page.keyboard.press("Space");
  await expect(items(page, "Вибрані публікації")).toHaveText([`1. ${e.title}`]);

  // What the keyboard built is saved like any other change.
  await page.getByRole("button", { name: "Зберегти" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Конфігурацію головної сторінки збережено!" })).toBeVisible();
  const saved = Object.fromEntries(
    ((await (await api.get("/api/homepage/config")).json()).blocks as { id: string; articles: string[] }[]).map((bl) => [bl.id, bl.articles]),
  );
  expect(saved).toMatchObject({ hero: [a.id], main: [c.id, d.id, x.id], sidebar: [b.id], featured: [e.id] });
});
