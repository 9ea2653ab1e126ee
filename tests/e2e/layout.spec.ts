import type { Locator, Page } from "@playwright/test";
import { DEMO, expect, signIn, test } from "./fixtures";

// Issue 17, layout: things a reviewer found off-screen, overflowing or leaving blank space. Each
// check measures the page the way a person would notice the fault, at the two sizes we design for.

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

/** The box of a visible element, failing the test if it has none. */
async function box(locator: Locator) {
  const b = await locator.boundingBox();
  if (!b) throw new Error(`no box for ${locator}`);
  return b;
}

/** Blank space below the admin screen's content: the document's height past the bottom of <main>. */
async function blankBelowAdminContent(page: Page) {
  return page.evaluate(() => {
    const main = document.querySelector(".admin-main")!;
    const contentBottom = Math.max(window.innerHeight, main.getBoundingClientRect().bottom + window.scrollY);
    return Math.round(document.documentElement.scrollHeight - contentBottom);
  });
}

test.describe("article list fits the screen", () => {
  test("at 1280x800 every row's Edit/Publish/Delete is in view and the table fits its box", async ({ page }) => {
    await page.setViewportSize(DESKTOP);
    await signIn(page, "admin");
    await page.goto("/admin/articles");
    const rows = page.locator(".article-table tbody tr");
    await expect(rows).toHaveCount(20);
    const fit = await page.evaluate(() => {
      const table = document.querySelector(".article-table") as HTMLElement;
      return { table: table.getBoundingClientRect().width, box: table.parentElement!.clientWidth, doc: document.documentElement.scrollWidth };
    });
    expect(fit.table).toBeLessThanOrEqual(fit.box);
    expect(fit.doc).toBeLessThanOrEqual(DESKTOP.width);
    for (let i = 0; i < 20; i++) {
      const row = rows.nth(i);
      const actions = [
        row.getByRole("link", { name: /^Edit / }),
        row.getByRole("button", { name: /^(Publish|Unpublish) / }),
        row.getByRole("button", { name: /^Delete / }),
      ];
      for (const action of actions) {
        const b = await box(action);
        expect(b.x).toBeGreaterThanOrEqual(0);
        expect(b.x + b.width).toBeLessThanOrEqual(DESKTOP.width);
      }
    }
    // The column headers stay a real table's at this size.
    await expect(page.getByRole("columnheader", { name: "Actions", exact: true })).toBeVisible();
  });

  test("at 390x844 rows become cards whose actions are reachable without sideways scrolling", async ({ page }) => {
    await page.setViewportSize(PHONE);
    await signIn(page, "admin");
    await page.goto("/admin/articles");
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    const rows = page.locator(".article-table tbody tr");
    await expect(rows).toHaveCount(20);
    for (const i of [0, 7, 19]) {
      const row = rows.nth(i);
      for (const action of [
        row.getByRole("link", { name: /^Edit / }),
        row.getByRole("button", { name: /^(Publish|Unpublish) / }),
        row.getByRole("button", { name: /^Delete / }),
      ]) {
        await action.scrollIntoViewIfNeeded();
        const b = await box(action);
        expect(b.x).toBeGreaterThanOrEqual(0);
        expect(b.x + b.width).toBeLessThanOrEqual(PHONE.width);
        expect(b.height).toBeGreaterThanOrEqual(28);
      }
    }
    // Each value keeps its column's name beside it in the card.
    const first = rows.first();
    await expect(first.locator('td[data-label="Views"]')).toBeVisible();
    expect(await first.locator('td[data-label="Views"]').evaluate((td) => getComputedStyle(td, "::before").content)).toBe('"Views"');
  });
});

test.describe("no blank page under admin screens", () => {
  for (const viewport of [DESKTOP, PHONE]) {
    for (const path of ["/admin/homepage", "/admin/dashboard"]) {
      test(`${path} at ${viewport.width}px ends where its content ends`, async ({ page }) => {
        await page.setViewportSize(viewport);
        await signIn(page, "admin");
        await page.goto(path);
        await page.waitForLoadState("networkidle");
        // Visually hidden labels and tables once added 70–2,500 px of empty page.
        expect(await blankBelowAdminContent(page)).toBeLessThanOrEqual(2);
      });
    }
  }
});

test.describe("no admin screen scrolls sideways", () => {
  // Wide tables scroll inside their own box; the page itself never does (users and SEO screens
  // were 564 and 590 px wide on a 390 px phone).
  const SCREENS = ["/admin/dashboard", "/admin/articles", "/admin/articles/new", "/admin/homepage", "/admin/media", "/admin/users"];
  const MORE = ["/admin/categories", "/admin/analytics", "/admin/settings", "/admin/seo", "/admin/profile"];
  for (const viewport of [DESKTOP, PHONE]) {
    test(`at ${viewport.width}px every screen is as wide as the window`, async ({ page }) => {
      await page.setViewportSize(viewport);
      await signIn(page, "admin");
      for (const path of [...SCREENS, ...MORE]) {
        await page.goto(path);
        await expect(page.locator(".admin-main")).toBeVisible();
        const width = await page.evaluate(() => document.documentElement.scrollWidth);
        expect(`${path}: ${width}px`).toBe(`${path}: ${viewport.width}px`);
      }
    });
  }
});

test.describe("homepage editor", () => {
  for (const viewport of [DESKTOP, PHONE]) {
    test(`at ${viewport.width}px removing an item keeps the block's counter and buttons in view`, async ({ page }) => {
      await page.setViewportSize(viewport);
      await signIn(page, "editor");
      await page.goto("/admin/homepage");
      const block = page.locator('[data-block="main"]');
      await expect(block.getByRole("button", { name: /^Видалити з блоку:/ }).first()).toBeVisible();
      page.on("dialog", (d) => d.accept());
      await block
        .getByRole("button", { name: /^Видалити з блоку:/ })
        .first()
        .click();
      // The block has room again: its add-article form (a select of long titles) comes back.
      const add = block.getByRole("button", { name: /^Додати статтю в блок:/ });
      await expect(add).toBeVisible();
      const column = await box(page.locator(".homepage-blocks"));
      for (const el of [block.locator(".hp-count"), add, block.getByRole("combobox"), ...(await block.getByRole("button").all())]) {
        const b = await box(el);
        expect(b.x + b.width).toBeLessThanOrEqual(Math.min(viewport.width, column.x + column.width) + 1);
      }
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
    });
  }

  test("asks before leaving with unsaved changes", async ({ page }) => {
    await page.setViewportSize(DESKTOP);
    await signIn(page, "editor");
    await page.goto("/admin/homepage");
    const block = page.locator('[data-block="main"]');
    const removed = block.getByRole("button", { name: /^Видалити з блоку:/ }).first();
    await expect(removed).toBeVisible();
    // Nothing changed yet: leaving asks nothing.
    await page.getByRole("link", { name: "Статті", exact: true }).click();
    await expect(page).toHaveURL("/admin/articles");
    await page.goBack();
    await expect(page).toHaveURL("/admin/homepage");
    // The URL changes before the screen has rendered: count once its items are there.
    await expect(block.locator(".hp-item").first()).toBeVisible();

    const count = await block.locator(".hp-item").count();
    await block
      .getByRole("button", { name: /^Видалити з блоку:/ })
      .first()
      .click();
    await expect(block.locator(".hp-item")).toHaveCount(count - 1);
    let asked = "";
    page.once("dialog", async (dialog) => {
      asked = dialog.message();
      await dialog.dismiss();
    });
    await page.getByRole("link", { name: "Панель керування" }).click();
    await expect.poll(() => asked).toContain("незбережені зміни");
    await expect(page).toHaveURL("/admin/homepage");
    await expect(block.locator(".hp-item")).toHaveCount(count - 1);

    page.once("dialog", (dialog) => dialog.accept());
    await page.getByRole("link", { name: "Панель керування" }).click();
    await expect(page).toHaveURL("/admin/dashboard");
  });
});

test.describe("public cards", () => {
  for (const viewport of [DESKTOP, PHONE]) {
    test(`home at ${viewport.width}px: no title runs out of its card, badges stay on one line`, async ({ page }) => {
      await page.setViewportSize(viewport);
      await page.goto("/");
      await expect(page.getByRole("heading", { name: "Популярне" })).toBeVisible();
      const faults = await page.evaluate(() => {
        const out: string[] = [];
        const cards = document.querySelectorAll(".trending li, .tile-card, .list-card, .hero-related li, .feed-item");
        for (const card of cards) {
          if (card.scrollWidth > card.clientWidth + 1) out.push(`card ${card.scrollWidth}>${card.clientWidth}: ${card.textContent!.slice(0, 40)}`);
          const cardRight = card.getBoundingClientRect().right;
          for (const title of card.querySelectorAll("h2, h3, a")) {
            const t = title as HTMLElement;
            if (t.scrollWidth > t.clientWidth + 1 && getComputedStyle(t).display !== "inline")
              out.push(`title ${t.scrollWidth}>${t.clientWidth}: ${t.textContent!.slice(0, 40)}`);
            if (t.getBoundingClientRect().right > cardRight + 1) out.push(`outside its card: ${t.textContent!.slice(0, 40)}`);
          }
        }
        for (const badge of document.querySelectorAll(".public .badge")) {
          const s = getComputedStyle(badge);
          const oneLine = parseFloat(s.lineHeight) + parseFloat(s.paddingTop) + parseFloat(s.paddingBottom) + 2;
          if (badge.getBoundingClientRect().height > oneLine) out.push(`badge on two lines: ${badge.textContent}`);
        }
        return out;
      });
      expect(faults).toEqual([]);
    });
  }
});

test.describe("article header", () => {
  for (const viewport of [DESKTOP, PHONE]) {
    test(`at ${viewport.width}px the category badge, time and reading time are shown whole`, async ({ page }) => {
      await page.setViewportSize(viewport);
      await page.goto("/");
      await page.locator(".hero a[href^='/article/']").first().click();
      await expect(page.locator(".article-badges")).toBeVisible();
      const cut = await page.evaluate(() =>
        [...document.querySelectorAll<HTMLElement>(".article-badges > *")]
          .filter((el) => el.scrollWidth > el.clientWidth + 1 || el.getBoundingClientRect().right > window.innerWidth)
          .map((el) => `${el.textContent}: ${el.scrollWidth}>${el.clientWidth}`),
      );
      expect(cut).toEqual([]);
    });
  }
});

/** WCAG contrast ratio of two computed CSS colours (rgb()/rgba(), opaque). */
function contrast(a: string, b: string) {
  const lum = (c: string) => {
    const [r, g, bl] = (c.match(/[\d.]+/g) ?? []).slice(0, 3).map((v) => {
      const x = Number(v) / 255;
      return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

test.describe("skip link", () => {
  for (const viewport of [DESKTOP, PHONE]) {
    test(`at ${viewport.width}px Tab shows it readable and in view`, async ({ page }) => {
      await page.setViewportSize(viewport);
      await page.goto("/");
      await page.keyboard.press("Tab");
      const skip = page.getByRole("link", { name: "Перейти до основного вмісту" });
      await expect(skip).toBeFocused();
      await expect(skip).toBeInViewport();
      const colours = await skip.evaluate((a) => ({ color: getComputedStyle(a).color, background: getComputedStyle(a).backgroundColor }));
      expect(colours.color).not.toBe(colours.background);
      expect(contrast(colours.color, colours.background)).toBeGreaterThanOrEqual(4.5);
      await page.keyboard.press("Enter");
      await expect(page.locator("#main")).toBeFocused();
    });
  }
});

test.describe("avatar menu", () => {
  for (const viewport of [DESKTOP, PHONE]) {
    test(`at ${viewport.width}px the email is on one line and the panel in view`, async ({ page }) => {
      await page.setViewportSize(viewport);
      await signIn(page, "editor");
      await page.getByLabel(`Меню користувача ${DEMO.editor.name}`).click();
      const email = page.locator(".avatar-email");
      await expect(email).toHaveText(DEMO.editor.email);
      await expect(email).toHaveAttribute("title", DEMO.editor.email);
      const lines = await email.evaluate((p) => Math.round(p.getBoundingClientRect().height / parseFloat(getComputedStyle(p).lineHeight)));
      expect(lines).toBe(1);
      // Shown whole where there is room (it is cut with an ellipsis only where there is not).
      expect(await email.evaluate((p) => p.scrollWidth <= p.clientWidth)).toBe(true);
      const panel = await box(page.locator(".avatar-menu-panel"));
      expect(panel.x).toBeGreaterThanOrEqual(0);
      expect(panel.x + panel.width).toBeLessThanOrEqual(viewport.width);
    });
  }
});
