import type { APIRequestContext } from "@playwright/test";
import { DEMO, expect, signIn, test, uniqueName } from "./fixtures";

// Issue 31 item 7: a reporter's dashboard offered "Edit" on colleagues' articles, which led to
// "Access Denied". Edit shows only where it works, and the reporter sees what the desk returned
// to them, with the desk's note.

async function bearer(request: APIRequestContext, role: keyof typeof DEMO) {
  const res = await request.post("/api/auth/login", { data: { username: DEMO[role].username, password: DEMO[role].password } });
  expect(res.status()).toBe(200);
  return { Authorization: `Bearer ${(await res.json()).access_token}` };
}

async function categoryId(request: APIRequestContext, headers: Record<string, string>) {
  const categories = await (await request.get("/api/categories/admin", { headers })).json();
  return categories.data[0].id as string;
}

test("reporter: Edit only on their own articles, and the desk's returns with its note", async ({ page, request }) => {
  const editor = await bearer(request, "editor");
  const reporter = await bearer(request, "reporter");
  const category_id = await categoryId(request, editor);

  const mine = uniqueName("Повернута замітка");
  const created = await request.post("/api/articles/", {
    headers: reporter,
    data: { title: mine, content: "Перший варіант тексту.", category_id, status: "draft" },
  });
  expect(created.status()).toBe(201);
  const { id } = await created.json();
  expect((await request.post(`/api/articles/${id}/submit`, { headers: reporter, data: {} })).status()).toBe(200);
  const note = "Додайте джерело для цифр у другому абзаці.";
  expect((await request.post(`/api/articles/${id}/return`, { headers: editor, data: { note } })).status()).toBe(200);

  const theirs = uniqueName("Стаття редактора");
  const published = await request.post("/api/articles/", {
    headers: editor,
    data: { title: theirs, content: "Текст редактора.", category_id, status: "published" },
  });
  expect(published.status()).toBe(201);

  await signIn(page, "reporter");
  const returned = page.getByRole("region", { name: "Повернуто вам" });
  await expect(returned.getByRole("link", { name: mine, exact: true })).toBeVisible();
  await expect(returned).toContainText(note);

  const recent = page.getByRole("region", { name: "Recent Articles" });
  const colleague = recent.getByRole("listitem").filter({ hasText: theirs });
  await expect(colleague).toBeVisible();
  await expect(colleague.getByRole("link")).toHaveCount(0);
  // Every Edit still offered opens the editor, never "Access Denied".
  const hrefs = await recent.getByRole("link", { name: /^Edit / }).evaluateAll((links) => links.map((l) => l.getAttribute("href")!));
  for (const href of hrefs) {
    await page.goto(href);
    await expect(page.getByRole("textbox", { name: "Заголовок", exact: true })).toBeVisible();
  }

  await page.goto("/admin/dashboard");
  await returned.getByRole("link", { name: `Виправити: ${mine}` }).click();
  await expect(page.getByRole("textbox", { name: "Заголовок", exact: true })).toHaveValue(mine);
});
