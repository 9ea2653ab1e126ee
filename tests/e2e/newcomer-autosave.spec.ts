import { expect, signIn, test, uniqueName } from "./fixtures";

// Issue 31 item 9: a server autosave and a browser copy of the same article were offered in two
// stacked red banners with two date formats. Now: one neutral offer (the newest copy), one
// Ukrainian date format; either choice clears both.

test("server and browser copies: one neutral offer with a Ukrainian date; restore takes the newest", async ({ page }) => {
  await signIn(page, "editor");
  const origin = new URL(page.url()).origin;
  const categories = await (await page.request.get("/api/categories/admin")).json();
  const title = uniqueName("Дві копії");
  const created = await page.request.post("/api/articles/", {
    headers: { Origin: origin },
    data: { title, content: "Збережений текст.", category_id: categories.data[0].id, status: "draft" },
  });
  const { id } = await created.json();
  const me = await (await page.request.get("/api/auth/me")).json();
  const server = await page.request.put(`/api/articles/${id}/autosave`, {
    headers: { Origin: origin },
    data: { fields: { title, content: "Текст із сервера." } },
  });
  expect(server.status()).toBe(200);
  // The browser's copy was made a minute later: it is the newest.
  await page.evaluate(([key, values]) => window.localStorage.setItem(key, JSON.stringify({ values, savedAt: Date.now() + 60_000 })), [
    `newsroom-draft:${me.id}:${id}`,
    { title, content: "Текст із браузера." },
  ] as const);

  await page.goto(`/admin/articles/edit/${id}`);
  const offer = page.getByTestId("autosave-offer");
  await expect(offer).toHaveCount(1);
  await expect(offer).toContainText(/від \d{2}\.\d{2}\.\d{4} о \d{2}:\d{2}/);
  await expect(offer).toHaveAttribute("role", "status");
  await expect(offer).not.toHaveClass(/flash-error/);
  await expect(page.getByRole("alert")).toHaveCount(0);
  await offer.getByRole("button", { name: "Відновити" }).click();
  await expect(page.getByRole("textbox", { name: "Вміст (Markdown)", exact: true })).toHaveValue("Текст із браузера.");
  await expect(offer).toHaveCount(0);

  // The server's older copy was discarded with the choice: no second notice follows on another device.
  const left = await (await page.request.get(`/api/articles/${id}/autosave`)).json();
  expect(left.autosave ?? null).toBeNull();
});
