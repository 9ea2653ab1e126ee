import type { APIRequestContext, Page } from "@playwright/test";
import { DEMO, expect, signIn, test, uniqueName } from "./fixtures";

// Issue 31 item 5 (DESIGN §17): /admin/menu with JavaScript on and off. An editor relabels and
// reorders the header menu, adds an https link and a page to the menus, sets a social link, adds a
// category the screen offers; the public header and footer follow, and no link points to `#`.
// Reporters have no access. Site-wide (the public menus): each test puts SPEC's menus back.

interface Menus {
  header: { id: string; title: string }[];
  footer: unknown[];
  social: Record<string, string>;
}

let token = "";
let original: { header: unknown[]; footer: unknown[]; social: Record<string, string> };

async function api(request: APIRequestContext, method: "GET" | "PUT" | "POST", path: string, data?: unknown) {
  const res = await request.fetch(path, { method, headers: { Authorization: `Bearer ${token}` }, data });
  expect(res.status(), `${method} ${path}: ${await res.text()}`).toBeLessThan(300);
  return res.json();
}
const inputOf = (items: Record<string, unknown>[]) =>
  items.map(({ id, label, kind, category_id, page_id, url }) => ({ id, label, kind, category_id, page_id, url }));

test.beforeAll(async ({ request }) => {
  const login = await request.post("/api/auth/login", { data: { username: DEMO.editor.username, password: DEMO.editor.password } });
  token = (await login.json()).access_token;
  const menus = await api(request, "GET", "/api/menu");
  original = { header: inputOf(menus.header), footer: inputOf(menus.footer), social: menus.social };
});
test.afterEach(async ({ request }) => {
  await api(request, "PUT", "/api/menu", original);
});

// The screen's message after a change (dnd-kit's own live regions are role=status too).
const flash = (page: Page) => page.locator("p.flash-ok");
const headerList = (page: Page) => page.getByRole("list", { name: "Пункти головного меню" });
const publicHeader = (page: Page) => page.getByRole("navigation", { name: "Головне меню" }).getByRole("link");

for (const javaScriptEnabled of [true, false]) {
  test.describe(`menus (JavaScript ${javaScriptEnabled ? "on" : "off"})`, () => {
    test.use({ javaScriptEnabled });

    test("relabel, reorder, add an https link and a page, social links: the public header and footer follow", async ({ page, request }) => {
      const slug = uniqueName("menu-page").toLowerCase();
      const title = `Сторінка меню ${slug.slice(-8)}`;
      await api(request, "POST", "/api/pages", { title, slug, body: "Текст.", status: "published" });

      await signIn(page, "editor", "/admin/menu");
      await expect(page.locator("#menu-title")).toHaveText("Меню");
      const items = headerList(page).getByRole("listitem");
      await expect(items).toHaveCount(9);
      await expect(items.first()).toContainText("Latest news");

      // Relabel 'Latest news'.
      await page.getByRole("link", { name: "Змінити: Latest news" }).click();
      const edit = page.getByRole("form", { name: "Зміна пункту: Latest news" });
      await edit.getByLabel("Підпис").fill("Свіжі новини");
      await edit.getByRole("button", { name: "Зберегти пункт" }).click();
      await expect(flash(page)).toHaveText("Пункт змінено: Головне меню");
      await expect(items.first()).toContainText("Свіжі новини");

      // Medicine one place up, before Technology.
      await page.getByRole("button", { name: "Вище: Медицина" }).click();
      await expect(flash(page)).toHaveText("Порядок збережено: Головне меню");
      await expect(items.nth(1)).toContainText("Медицина");
      await expect(items.nth(2)).toContainText("Технології");

      // An external link: http is refused (the form comes back filled in), https is taken.
      const addHeader = page.locator("details", { hasText: "Додати пункт: Головне меню" });
      await addHeader.locator("summary").click();
      await addHeader.getByLabel("Куди веде").selectOption("url");
      await addHeader.getByLabel("Підпис").fill("Подкаст");
      await addHeader.getByLabel("Адреса", { exact: true }).fill("http://podcast.example/nauka");
      await addHeader.getByRole("button", { name: "Додати" }).click();
      const addAgain = page.locator("details", { hasText: "Додати пункт: Головне меню" });
      await expect(addAgain.getByText("Адреса має починатися з https:// (інші посилання не дозволено)")).toBeVisible();
      await expect(addAgain.getByLabel("Підпис")).toHaveValue("Подкаст");
      await addAgain.getByLabel("Адреса", { exact: true }).fill("https://podcast.example/nauka");
      await addAgain.getByRole("button", { name: "Додати" }).click();
      await expect(flash(page)).toHaveText("Пункт додано: Головне меню");
      await expect(items).toHaveCount(10);

      // A new page is in the footer by itself (as before the menu editor); here it joins the header too.
      await addHeader.locator("summary").click();
      await addHeader.getByLabel("Куди веде").selectOption("page");
      await addHeader.getByLabel("Сторінка", { exact: true }).selectOption({ label: title });
      await addHeader.getByRole("button", { name: "Додати" }).click();
      await expect(flash(page)).toHaveText("Пункт додано: Головне меню");
      await expect(items).toHaveCount(11);
      await expect(page.getByRole("list", { name: "Пункти швидких посилань" }).getByRole("listitem").last()).toContainText(title);

      // Social links: http refused, https shown.
      await page.getByLabel("Telegram").fill("http://t.me/nauka");
      await page.getByRole("button", { name: "Зберегти соціальні мережі" }).click();
      await expect(page.getByText("Адреса Telegram має починатися з https:// (або залиште поле порожнім)")).toBeVisible();
      await expect(page.getByLabel("Telegram")).toHaveValue("http://t.me/nauka");
      await page.getByLabel("Telegram").fill("https://t.me/nauka_ua");
      await page.getByRole("button", { name: "Зберегти соціальні мережі" }).click();
      await expect(flash(page)).toHaveText("Соціальні мережі збережено");

      // What readers see (signed out: the stored public pages).
      await page.context().clearCookies();
      await page.goto("/");
      const links = publicHeader(page);
      await expect(links).toHaveCount(11);
      await expect(links.nth(0)).toHaveText("Свіжі новини");
      await expect(links.nth(0)).toHaveAttribute("href", "/");
      await expect(links.nth(1)).toHaveText("Медицина");
      await expect(links.nth(2)).toHaveText("Технології");
      await expect(links.nth(9)).toHaveText("Подкаст");
      await expect(links.nth(9)).toHaveAttribute("href", "https://podcast.example/nauka");
      await expect(links.nth(10)).toHaveText(title);
      await expect(links.nth(10)).toHaveAttribute("href", `/page/${slug}`);
      const footer = page.getByRole("contentinfo");
      await expect(footer.getByRole("navigation", { name: "Швидкі посилання" }).getByRole("link", { name: title })).toHaveAttribute("href", `/page/${slug}`);
      await expect(footer.getByRole("navigation", { name: "Соціальні мережі" }).getByRole("link")).toHaveText(["Telegram"]);
      await expect(footer.getByRole("link", { name: "Telegram" })).toHaveAttribute("href", "https://t.me/nauka_ua");
      await expect(page.locator('a[href="#"]')).toHaveCount(0);
      await page.goto("/search");
      await expect(page.locator('a[href="#"]')).toHaveCount(0);
      await expect(publicHeader(page).nth(0)).toHaveText("Свіжі новини");
    });

    test("a new category is offered, not added; 'Додати' puts it in the header menu", async ({ page, request }) => {
      const name = `Рубрика ${uniqueName("m").slice(-8)}`;
      await api(request, "POST", "/api/categories", { name, description: "" });
      await page.goto("/");
      await expect(publicHeader(page).filter({ hasText: name })).toHaveCount(0);

      await signIn(page, "editor", "/admin/menu");
      await expect(page.getByRole("note")).toContainText("Нові рубрики, яких немає в меню:");
      await expect(page.getByRole("note")).toContainText(name);
      await expect(headerList(page).getByRole("listitem").filter({ hasText: name })).toHaveCount(0);
      await page.getByRole("button", { name: `Додати «${name}» у меню` }).click();
      await expect(flash(page)).toHaveText(`Рубрику «${name}» додано в головне меню`);
      await expect(headerList(page).getByRole("listitem").last()).toContainText(name);
      await expect(page.getByRole("button", { name: `Додати «${name}» у меню` })).toHaveCount(0);

      await page.context().clearCookies();
      await page.goto("/");
      await expect(publicHeader(page).last()).toHaveText(name);
    });
  });
}

test("with JavaScript, a link moves by keyboard on its handle (Space, ↓, Space) and the order is saved", async ({ page, request }) => {
  await signIn(page, "editor", "/admin/menu");
  const items = headerList(page).getByRole("listitem");
  await expect(items.nth(1)).toContainText("Технології");
  const handle = page.getByRole("button", { name: "2 з 9. Технології — перетягнути" });
  await handle.focus();
  // Each step waits for dnd-kit's announcement (its live region), as a screen reader hears it.
  const live = page.locator("[aria-live]").filter({ hasText: /Технології/ });
  await page.keyboard.press("Space");
  await expect(live).toContainText(/Технології».* позиція 2 з 9\./);
  await page.keyboard.press("ArrowDown");
  await expect(live).toContainText("«Технології»: позиція 3 з 9.");
  await page.keyboard.press("Space");
  await expect(flash(page).filter({ hasText: "Порядок збережено: Головне меню" })).toBeVisible();
  await expect(items.nth(1)).toContainText("Медицина");
  await expect(items.nth(2)).toContainText("Технології");
  const saved: Menus = await api(request, "GET", "/api/menu");
  expect(saved.header.slice(1, 3).map((i) => i.title)).toEqual(["Медицина", "Технології"]);
});

test("reporters may not open /admin/menu, and the sidebar does not offer it", async ({ page }) => {
  await signIn(page, "reporter");
  await expect(page.getByRole("link", { name: "Меню", exact: true })).toHaveCount(0);
  await page.goto("/admin/menu");
  await expect(page.getByRole("heading", { name: "Access Denied" })).toBeVisible();
  await expect(page.locator("#menu-title")).toHaveCount(0);
});
