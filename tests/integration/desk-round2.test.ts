// Issue 31 (newcomer round 2), items 10, 12 and 17 through the production Remix build, on both
// engines (`node scripts/test-pg.mjs vitest tests/integration/desk-round2.test.ts`): preview links
// are replaced only on request, an edit conflict shows both versions and can keep the writer's, a
// restore is labelled and confirmed. Items 15 and 19 (the staff bar) need the page store, so they
// run on the real server in staff-bar.test.ts.
import { beforeAll, describe, expect, it } from "vitest";
import { createCategory } from "../../app/models/category.server";
import { previewArticleId } from "../../app/models/preview-link.server";
import { createUser } from "../../app/models/user.server";
import { sessionStorage } from "../../app/services/session.server";
import { MESSAGES } from "../../app/utils/newsroom-rules";
import { formatPublicDateTime } from "../../app/utils/public-format";
import { db } from "../../db/index";
import { migrated, request, sendJson, TEST_ACTOR, tokenFor } from "../helpers";

// The CPU pool's time budget (decision 018), read when the build is first loaded (the first
// request): short, so two unrelated texts are refused quickly, as in cpu-budgets.test.ts. This file
// runs in its own process (vitest.config.ts), so no other file sees it.
process.env.CPU_JOB_MS = "2000";

const send = sendJson;
async function cookieFor(userId: string) {
  const session = await sessionStorage().getSession();
  session.set("userId", userId);
  return (await sessionStorage().commitSession(session)).split(";")[0];
}
const tokenOf = (url: string) => new URL(url).pathname.split("/").pop()!;

let editor: string, editor2: string, reporter: string;
let editorCookie: string, editor2Cookie: string, reporterCookie: string;
let users: Record<string, string>;
let category: string;

async function draft(token: string, title: string, content = `Текст: ${title}`) {
  const res = await send("POST", "/api/articles/", token, { title, content, category_id: category, status: "draft" });
  expect(res.status).toBe(201);
  return (await res.json()) as { id: string; slug: string; version: number };
}

const form = (path: string, cookie: string, fields: Record<string, string>) =>
  request(path, { method: "POST", headers: { Cookie: cookie }, body: new URLSearchParams(fields) });

beforeAll(async () => {
  await migrated();
  users = {};
  for (const [username, role] of [
    ["desk-ed", "editor"],
    ["desk-ed2", "editor"],
    ["desk-rep", "reporter"],
  ] as const) {
    users[username] = (await createUser({ username, email: `${username}@example.com`, password: "correct-horse", role, name: `Ім'я ${username}` })).id;
  }
  [editor, editor2, reporter] = await Promise.all(["desk-ed", "desk-ed2", "desk-rep"].map(tokenFor));
  [editorCookie, editor2Cookie, reporterCookie] = await Promise.all(["desk-ed", "desk-ed2", "desk-rep"].map((u) => cookieFor(users[u])));
  category = (await createCategory({ actor: TEST_ACTOR, input: { name: "Астрономія", description: null, slug: undefined } })).id;
});

describe("item 10: a preview link is replaced only on request", () => {
  it("API: a second link while one is live is 409 in Ukrainian; replace: true makes a new one and ends the old", async () => {
    const a = await draft(editor, "Чернетка з посиланням");
    const path = `/api/articles/${a.id}/preview-link`;
    const first = await send("POST", path, editor, {});
    expect(first.status).toBe(200);
    const firstLink = await first.json();

    const again = await send("POST", path, editor2, {});
    expect(again.status).toBe(409);
    const refusal = await again.json();
    expect(refusal.detail).toContain(`Посилання для перегляду вже діє до ${formatPublicDateTime(firstLink.expires_at)}`);
    expect(refusal.detail).toContain("старе перестане відкриватися");
    // The link already sent keeps working.
    expect(await previewArticleId({ token: tokenOf(firstLink.url) })).toBe(a.id);

    const replaced = await send("POST", path, editor2, { replace: true });
    expect(replaced.status).toBe(200);
    const second = await replaced.json();
    expect(second.url).not.toBe(firstLink.url);
    expect(await previewArticleId({ token: tokenOf(firstLink.url) })).toBeUndefined();
    expect(await previewArticleId({ token: tokenOf(second.url) })).toBe(a.id);

    // An expired link does not block a new one.
    await db
      .updateTable("preview_links")
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where("article_id", "=", a.id)
      .execute();
    expect((await send("POST", path, editor, {})).status).toBe(200);
    // Revoking still works, and then a plain call makes a link again.
    expect((await send("POST", path, editor, { revoke: true })).status).toBe(200);
    expect((await send("POST", path, editor, {})).status).toBe(200);
  });

  it("API: 401 without a sign-in, 403 for who may not edit, 404 for an unknown article, 422 for a bad replace", async () => {
    const a = await draft(editor, "Чернетка для відмов");
    const path = `/api/articles/${a.id}/preview-link`;
    expect((await send("POST", path, null, {})).status).toBe(401);
    expect((await send("POST", path, reporter, { replace: true })).status).toBe(403);
    expect((await send("POST", "/api/articles/00000000-0000-4000-8000-000000000000/preview-link", editor, {})).status).toBe(404);
    const bad = await send("POST", path, editor, { replace: "так" });
    expect(bad.status).toBe(422);
    expect(await db.selectFrom("preview_links").select("article_id").where("article_id", "=", a.id).execute()).toEqual([]);
  });

  it("the editor says a link is live and until when, never the link; without JavaScript a replace needs its own button", async () => {
    const a = await draft(editor, "Чернетка без скриптів");
    const editorPath = `/admin/articles/edit/${a.id}`;
    const before = await (await request(editorPath, { headers: { Cookie: editorCookie } })).text();
    expect(before).not.toContain("Посилання для перегляду діє до");

    const history = `/admin/articles/edit/${a.id}/history`;
    const made = await form(history, editorCookie, { intent: "preview-link" });
    expect(made.status).toBe(200);
    const madeHtml = await made.text();
    const url = madeHtml.match(/https?:\/\/[^"<\s]+\/preview\/[A-Za-z0-9_-]{43}/)![0];
    // The no-JS fallback: the link in a read-only field to copy from.
    expect(madeHtml).toMatch(new RegExp(`<input[^>]*readOnly=""[^>]*value="${url}"|<input[^>]*value="${url}"[^>]*readonly`, "i"));
    const { expires_at } = await db.selectFrom("preview_links").select("expires_at").where("article_id", "=", a.id).executeTakeFirstOrThrow();

    const reopened = await (await request(editorPath, { headers: { Cookie: editor2Cookie } })).text();
    expect(reopened).toContain(`Посилання для перегляду діє до ${formatPublicDateTime(expires_at)}`);
    expect(reopened).not.toContain(tokenOf(url));
    expect(reopened).toContain("старе, вже надіслане комусь, перестане відкриватися");
    expect(reopened).toContain('value="preview-replace"');

    // The plain button again: refused with the message, the sent link still opens.
    const again = await form(history, editor2Cookie, { intent: "preview-link" });
    expect(again.status).toBe(409);
    expect(await again.text()).toContain("Посилання для перегляду вже діє до");
    expect(await previewArticleId({ token: tokenOf(url) })).toBe(a.id);

    const replaced = await form(history, editor2Cookie, { intent: "preview-replace" });
    expect(replaced.status).toBe(200);
    const newUrl = (await replaced.text()).match(/https?:\/\/[^"<\s]+\/preview\/[A-Za-z0-9_-]{43}/)![0];
    expect(newUrl).not.toBe(url);
    expect(await previewArticleId({ token: tokenOf(url) })).toBeUndefined();
    // A reporter who may not edit it can do neither.
    expect((await form(history, reporterCookie, { intent: "preview-replace" })).status).toBe(403);
  });
});

describe("item 17: a restore is labelled and said", () => {
  it("the new revision reads 'Відновлено з версії від …' (Kyiv, Ukrainian format), and the editor's flash says which", async () => {
    const a = await draft(editor, "Відновлення", "Марс червоний");
    expect(
      (await send("PUT", `/api/articles/${a.id}`, editor, { title: "Відновлення", content: "Марс рудий", category_id: category, status: "draft" })).status,
    ).toBe(200);
    const list = (await (await send("GET", `/api/articles/${a.id}/revisions`, editor)).json()).data as { id: number; created_at: string; summary: string }[];
    const first = list[list.length - 1];
    const history = `/admin/articles/edit/${a.id}/history`;
    // Without JavaScript, a confirmation step first; nothing restored yet.
    const asked = await form(history, editorCookie, { intent: "restore", rev: String(first.id), version: "2" });
    expect(asked.status).toBe(200);
    expect(await asked.text()).toContain('role="alertdialog"');
    const done = await form(history, editorCookie, { intent: "restore", rev: String(first.id), version: "2", confirmed: "1" });
    expect(done.status).toBe(302);
    expect(done.headers.get("location")).toBe(`/admin/articles/edit/${a.id}`);
    const when = formatPublicDateTime(first.created_at);
    expect(when).toMatch(/^\d\d\.\d\d\.\d{4} о \d\d:\d\d$/);

    const after = (await (await send("GET", `/api/articles/${a.id}/revisions`, editor)).json()).data as { summary: string }[];
    expect(after[0].summary).toBe(`Відновлено з версії від ${when}`);
    // The editor, reached by the redirect, says so once.
    const cookie = done.headers.get("set-cookie")?.split(";")[0] || editorCookie;
    const page = await (await request(`/admin/articles/edit/${a.id}`, { headers: { Cookie: cookie } })).text();
    expect(page).toContain(`Відновлено версію від ${when}`);
    expect(page).toContain("Марс червоний");
    const again = await (await request(`/admin/articles/edit/${a.id}`, { headers: { Cookie: cookie } })).text();
    expect(again).not.toContain(`Відновлено версію від ${when}`);

    // Through the JSON API too.
    const second = after.length;
    const viaApi = await send("POST", `/api/articles/${a.id}/revisions/${list[0].id}/restore`, editor, {});
    expect(viaApi.status).toBe(200);
    const latest = (await (await send("GET", `/api/articles/${a.id}/revisions`, editor)).json()).data as { summary: string }[];
    expect(latest).toHaveLength(second + 1);
    expect(latest[0].summary).toBe(`Відновлено з версії від ${formatPublicDateTime(list[0].created_at)}`);
  });
});

describe("item 12: an edit conflict shows both versions and can keep mine", () => {
  const editorFields = (a: { id: string }, content: string, version: number, extra: Record<string, string> = {}) => ({
    title: "Конфлікт",
    subtitle: "",
    content,
    status: "draft",
    category_id: category,
    tags: "",
    featured_image: "",
    featured_image_alt: "",
    featured_image_caption: "",
    slug: "",
    seo_title: "",
    seo_description: "",
    version: String(version),
    intent: "save",
    ...extra,
  });

  it("without JavaScript the refused save answers 409 with both versions side by side and 'keep mine'; keeping it saves a revision", async () => {
    const a = await draft(editor, "Конфлікт", "Венера гаряча планета");
    const path = `/admin/articles/edit/${a.id}`;
    // Someone else saves meanwhile (version 1 → 2).
    expect(
      (
        await send("PUT", `/api/articles/${a.id}`, editor2, {
          title: "Конфлікт",
          content: "Венера дуже гаряча планета",
          category_id: category,
          status: "draft",
        })
      ).status,
    ).toBe(200);
    const refused = await form(path, editorCookie, { ...editorFields(a, "Венера гаряча й хмарна планета", 1), slug: a.slug });
    expect(refused.status).toBe(409);
    const html = await refused.text();
    expect(html).toContain("Статтю вже змінив(ла) Ім&#x27;я desk-ed2");
    expect(html).toContain("Конфлікт редагування");
    expect(html).toMatch(/data-testid="conflict-theirs"[\s\S]*<del>дуже\s*<\/del>/);
    expect(html).toMatch(/data-testid="conflict-mine"[\s\S]*<ins>й хмарна\s*<\/ins>/);
    expect(html).toMatch(/name="conflict_version"[^>]*value="2"/);
    expect(html).toContain('value="keep-mine"');
    expect(html).toContain("Залишити мою версію");
    // The writer's text is still in the form.
    expect(html).toContain("Венера гаряча й хмарна планета");
    const stored = await (await send("GET", `/api/articles/${a.id}`, editor)).json();
    expect(stored).toMatchObject({ content: "Венера дуже гаряча планета", version: 2 });
    const revisionsBefore = (await (await send("GET", `/api/articles/${a.id}/revisions`, editor)).json()).total;

    // A reporter who may not edit the article cannot keep anything.
    const foreign = await form(path, reporterCookie, {
      ...editorFields(a, "Чуже", 1, { intent: "keep-mine", conflict_version: "2", conflict_intent: "save" }),
      slug: a.slug,
    });
    expect(foreign.status).toBe(403);

    // Keep mine: saved on top of version 2, as a revision by the writer.
    const kept = await form(path, editorCookie, {
      ...editorFields(a, "Венера гаряча й хмарна планета", 1, { intent: "keep-mine", conflict_version: "2", conflict_intent: "save" }),
      slug: a.slug,
    });
    expect(kept.status).toBe(302);
    expect(await (await send("GET", `/api/articles/${a.id}`, editor)).json()).toMatchObject({ content: "Венера гаряча й хмарна планета", version: 3 });
    const revisions = await (await send("GET", `/api/articles/${a.id}/revisions`, editor)).json();
    expect(revisions.total).toBe(revisionsBefore + 1);
    expect(revisions.data[0]).toMatchObject({ summary: "Змінено: вміст", author: { username: "desk-ed" } });

    // "Keep mine" is itself checked: based on a version overtaken again, it is a new conflict.
    await send("PUT", `/api/articles/${a.id}`, editor2, { title: "Конфлікт", content: "Венера — друга планета", category_id: category, status: "draft" });
    const stale = await form(path, editorCookie, {
      ...editorFields(a, "Моя третя спроба", 1, { intent: "keep-mine", conflict_version: "3", conflict_intent: "save" }),
      slug: a.slug,
    });
    expect(stale.status).toBe(409);
    expect(await stale.text()).toMatch(/name="conflict_version"[^>]*value="4"/);
    expect((await (await send("GET", `/api/articles/${a.id}`, editor)).json()).content).toBe("Венера — друга планета");
  });

  it("two versions too different to compare within the CPU budget: the conflict says so and 'keep mine' still works (decision 018)", async () => {
    const words = (n: number, seed: number) => {
      let x = seed;
      return Array.from({ length: n }, () => `слово${(x = (x * 1103515245 + 12345) % 2147483648) % 997}`).join(" ");
    };
    const a = await draft(editor, "Конфлікт", "Короткий текст");
    const path = `/admin/articles/edit/${a.id}`;
    expect(
      (await send("PUT", `/api/articles/${a.id}`, editor2, { title: "Конфлікт", content: words(5_000, 1), category_id: category, status: "draft" })).status,
    ).toBe(200);
    const refused = await form(path, editorCookie, { ...editorFields(a, words(5_000, 2), 1), slug: a.slug });
    expect(refused.status).toBe(409);
    const html = await refused.text();
    expect(html).toContain("Конфлікт редагування");
    expect(html).toContain(MESSAGES.diffTooComplex);
    expect(html).not.toContain('data-testid="conflict-theirs"');
    expect(html).toContain("Залишити мою версію");
    const kept = await form(path, editorCookie, {
      ...editorFields(a, words(5_000, 2), 1, { intent: "keep-mine", conflict_version: "2", conflict_intent: "save" }),
      slug: a.slug,
    });
    expect(kept.status).toBe(302);
    expect((await (await send("GET", `/api/articles/${a.id}`, editor)).json()).content).toBe(words(5_000, 2));
  });

  it("an unknown conflict intent falls back to a plain save, never a publish; an unknown intent is 400", async () => {
    const a = await draft(editor, "Конфлікт", "Меркурій малий");
    const path = `/admin/articles/edit/${a.id}`;
    const kept = await form(path, editorCookie, {
      ...editorFields(a, "Меркурій найменший", 1, { intent: "keep-mine", conflict_version: "1", conflict_intent: "__proto__" }),
      slug: a.slug,
    });
    expect(kept.status).toBe(302);
    expect(await (await send("GET", `/api/articles/${a.id}`, editor)).json()).toMatchObject({ content: "Меркурій найменший", status: "draft" });
    expect((await form(path, editorCookie, { ...editorFields(a, "x", 2, { intent: "keep-theirs" }), slug: a.slug })).status).toBe(400);
  });
});
