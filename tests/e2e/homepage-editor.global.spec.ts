import { request as playwrightRequest, type APIRequestContext, type Page } from "@playwright/test";
import { baseURL } from "../../playwright.config";
import { DEMO, expect, signIn, test } from "./fixtures";

// These specs change the site-wide homepage layout: they run after the others (*.global.spec.ts)
// and put the original layout back at the end.

interface Block {
  id: string;
  name: string;
  articles: string[];
  maxArticles: number;
}

let api: APIRequestContext;
let original: Block[];

async function getConfig(): Promise<Block[]> {
  const res = await api.get("/api/homepage/config");
  expect(res.status()).toBe(200);
  return (await res.json()).blocks;
}
async function putLayout(layout: Record<string, string[]>) {
  const res = await api.put("/api/homepage/config", { data: { blocks: Object.entries(layout).map(([id, articles]) => ({ id, articles })) } });
  expect(res.status(), await res.text()).toBe(200);
}
const block = (page: Page, name: string) => page.getByRole("region", { name, exact: true });

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  api = await playwrightRequest.newContext({ baseURL });
  const login = await api.post("/api/auth/login", { data: { username: DEMO.editor.username, password: DEMO.editor.password } });
  const { access_token } = await login.json();
  await api.dispose();
  api = await playwrightRequest.newContext({ baseURL, extraHTTPHeaders: { Authorization: `Bearer ${access_token}` } });
  original = await getConfig();
});

test.afterAll(async () => {
  await putLayout(Object.fromEntries(original.map((b) => [b.id, b.articles])));
  expect((await getConfig()).map((b) => b.articles)).toEqual(original.map((b) => b.articles));
  await api.dispose();
});

test("homepage editor: keyboard and mouse dragging, limits and duplicates refused, save reaches the public home", async ({ page }) => {
  await putLayout({ hero: [], main: [], sidebar: [], trending: [], featured: [] });
  await signIn(page, "editor");
  await page.goto("/admin/homepage");
  await expect(page.getByRole("heading", { name: "Редактор головної сторінки" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Як це працює" })).toBeVisible();
  const hero = block(page, "Головна історія");
  const main = block(page, "Останні наукові відкриття");
  await expect(hero).toContainText("0/1");

  const handles = page.locator(".hp-article .hp-drag");
  const titles = await page.locator(".hp-article .hp-title").allTextContents();
  const [first, second] = titles;

  // Keyboard: pick up the first article, move right onto the nearest block, drop.
  await handles.nth(0).focus();
  await page.keyboard.press("Space");
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("Space");
  await expect(hero).toContainText("1/1");
  await expect(hero.getByRole("listitem")).toContainText(`1. ${first}`);

  // Mouse: drag the second article onto the main block.
  const from = await handles.nth(1).boundingBox();
  const to = await main.boundingBox();
  await page.mouse.move(from!.x + 20, from!.y + 10);
  await page.mouse.down();
  await page.mouse.move(from!.x + 40, from!.y + 20, { steps: 4 });
  await page.mouse.move(to!.x + to!.width / 2, to!.y + to!.height / 2, { steps: 12 });
  await page.mouse.up();
  await expect(main).toContainText("1/3");
  await expect(main.getByRole("listitem")).toContainText(`1. ${second}`);

  // The hero is full; the main block already holds the second article.
  const secondRow = page.locator(".hp-article").nth(1);
  await secondRow.getByLabel(/Блок для/).selectOption({ label: "Головна історія" });
  await secondRow.getByRole("button", { name: /Додати в блок/ }).click();
  await expect(page.getByRole("alert")).toHaveText("Блок «Головна історія» заповнено (1/1)");
  await secondRow.getByLabel(/Блок для/).selectOption({ label: "Останні наукові відкриття" });
  await secondRow.getByRole("button", { name: /Додати в блок/ }).click();
  await expect(page.getByRole("alert")).toHaveText("Стаття вже є в блоці «Останні наукові відкриття»");
  // The same article may sit in several blocks.
  await secondRow.getByLabel(/Блок для/).selectOption({ label: "Популярне" });
  await secondRow.getByRole("button", { name: /Додати в блок/ }).click();
  await expect(block(page, "Популярне")).toContainText("1/4");
  await expect(main).toContainText("1/3");

  await page.getByRole("button", { name: "Зберегти" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Конфігурацію головної сторінки збережено!" })).toBeVisible();
  await expect(page.getByText("Конфігурацію головної сторінки збережено!")).toBeHidden({ timeout: 5000 });

  const saved = await getConfig();
  const byId = Object.fromEntries(saved.map((b) => [b.id, b.articles]));
  expect(byId.hero).toHaveLength(1);
  expect(byId.main).toHaveLength(1);
  expect(byId.trending).toEqual(byId.main);
  // The public home shows it at once.
  const publicHome = await (await page.request.get("/api/homepage/public")).json();
  expect(publicHome.blocks.find((b: { id: string }) => b.id === "hero").articles[0].title).toBe(first);
  expect(await (await page.request.get("/")).text()).toContain(first.replace(/"/g, "&quot;").slice(0, 20));

  // After a reload the editor shows the saved layout.
  await page.reload();
  await expect(hero.getByRole("listitem")).toContainText(first);
});

test.describe("homepage editor without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("add, move, remove through forms; the block limit is refused", async ({ page }) => {
    await putLayout({ hero: [], main: [], sidebar: [], trending: [], featured: [] });
    await signIn(page, "admin");
    await page.goto("/admin/homepage");
    const main = block(page, "Останні наукові відкриття");
    const rows = page.locator(".hp-article");
    const titles = await page.locator(".hp-article .hp-title").allTextContents();
    for (const index of [0, 1]) {
      await rows
        .nth(index)
        .getByLabel(/Блок для/)
        .selectOption({ label: "Останні наукові відкриття" });
      await rows
        .nth(index)
        .getByRole("button", { name: /Додати в блок/ })
        .click();
      await expect(page.getByRole("status")).toHaveText("Конфігурацію головної сторінки збережено!");
    }
    await expect(main).toContainText("2/3");
    // The per-block control adds too.
    await main.getByLabel(/Стаття для блоку/).selectOption({ label: titles[2] });
    await main.getByRole("button", { name: /Додати статтю в блок/ }).click();
    await expect(main).toContainText("3/3");
    await expect(main.getByRole("button", { name: /Додати статтю/ })).toHaveCount(0);
    await rows
      .nth(3)
      .getByLabel(/Блок для/)
      .selectOption({ label: "Останні наукові відкриття" });
    await rows
      .nth(3)
      .getByRole("button", { name: /Додати в блок/ })
      .click();
    await expect(page.getByRole("alert")).toHaveText("Блок «Останні наукові відкриття» заповнено (3/3)");

    await page.goto("/admin/homepage");
    await main.getByRole("button", { name: `Нижче: ${titles[0]}` }).click();
    await expect(main.getByRole("listitem").first()).toContainText(`1. ${titles[1]}`);
    await main.getByRole("button", { name: `Видалити з блоку: ${titles[1]}` }).click();
    await expect(main).toContainText("2/3");
    const saved = Object.fromEntries((await getConfig()).map((b) => [b.id, b.articles]));
    expect(saved.main).toHaveLength(2);
  });
});

test("homepage editor is for admins and editors only", async ({ page }) => {
  await signIn(page, "reporter");
  const res = await page.goto("/admin/homepage");
  expect(res?.status()).toBe(403);
});
