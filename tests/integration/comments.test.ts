// Issue 28 items 1, 2 and 5 (DESIGN §15, docs/decisions/026-comments.md) through the real production
// build: a reader's comment posted to the article page (no JavaScript: a form post and a redirect),
// "allow comments" and "require moderation", every spam check (honeypot, minimum fill time,
// per-address limit, links, blocklist), replies one level deep, the reader's own deletion within 15
// minutes, per-article open/closed/hidden, script injection in every field, comment_count in the
// public shapes, and the moderation API (GET/PATCH/DELETE /api/comments) with 401/403/404/400/422
// and its audit entries. Runs on SQLite and, under `npm run test:pg -- vitest`, on PostgreSQL.
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { insertArticle } from "../../app/models/article.server";
import { setCommentsMode } from "../../app/models/comment.server";
import { saveSettings } from "../../app/models/settings.server";
import { createUser } from "../../app/models/user.server";
import { formStamp } from "../../app/services/comment-post.server";
import { renderArticleHtml } from "../../app/utils/markdown.server";
import { db, writeTransaction } from "../../db/index";
import { migrated, postJson, request, sendJson, TEST_ACTOR } from "../helpers";

const PASSWORD = "Comments-Пароль-2026!";
const tokens: Record<"admin" | "editor" | "reporter", string> = {} as never;
let editorCookie = "";
const articles: Record<string, { id: string; slug: string }> = {};
const categoryId = randomUUID();
let ipCounter = 10;
/** A fresh client address per call that wants one (the per-address limit is tested on its own). */
const nextIp = () => `203.0.113.${ipCounter++}`;

async function article(slug: string, status: "published" | "draft" = "published") {
  const content = `Текст статті ${slug}.`;
  const id = await writeTransaction(async (trx) =>
    insertArticle(trx, {
      slug,
      title: `Стаття ${slug}`,
      subtitle: null,
      content,
      contentHtml: await renderArticleHtml(content),
      categoryId,
      authorId: null,
      status,
      publishedAt: status === "published" ? new Date(Date.now() - 60_000 * (Object.keys(articles).length + 1)).toISOString() : null,
      tags: [],
    }),
  );
  articles[slug] = { id, slug };
  return articles[slug];
}

const content = (over: { allow_comments?: boolean; moderation_required?: boolean; comment_max_links?: number; comment_blocklist?: string }) =>
  saveSettings("content", { posts_per_page: 10, allow_comments: true, moderation_required: true, comment_max_links: 2, comment_blocklist: "", ...over });

interface Posted {
  res: Response;
  status: number;
  cookie: string | undefined;
  id: string | undefined;
}

/** A reader's form post to an article page, the form rendered `age` ms ago. */
async function post(
  slug: string,
  fields: Record<string, string>,
  { ip = nextIp(), cookie, age = 10_000 }: { ip?: string; cookie?: string; age?: number } = {},
): Promise<Posted> {
  const body = new URLSearchParams({ intent: "comment", stamp: formStamp(Date.now() - age), website: "", parent_id: "", ...fields });
  const res = await request(`/article/${slug}`, {
    method: "POST",
    ip,
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", ...(cookie ? { Cookie: cookie } : {}) },
    body: body.toString(),
  });
  const setCookie = res.headers.get("set-cookie") ?? undefined;
  const id = /#comment-([0-9a-f-]{36})/.exec(res.headers.get("location") ?? "")?.[1];
  return { res, status: res.status, cookie: setCookie?.split(";")[0], id };
}

const row = (id: string) => db.selectFrom("comments").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
const page = async (slug: string, cookie?: string) => (await request(`/article/${slug}`, { headers: cookie ? { Cookie: cookie } : {} })).text();

beforeAll(async () => {
  await migrated();
  await db
    .insertInto("categories")
    .values({ id: categoryId, name: "Біологія", slug: `bio-${Date.now()}`, description: null })
    .execute();
  for (const role of ["admin", "editor", "reporter"] as const) {
    const username = `c-${role}-${Date.now().toString(36)}`;
    await createUser({ username, email: `${username}@example.com`, password: PASSWORD, role });
    const res = await postJson("/api/auth/login", { username, password: PASSWORD }, { ip: nextIp() });
    tokens[role] = (await res.json()).access_token;
    if (role === "editor") {
      const signIn = await request("/admin/login", {
        method: "POST",
        ip: nextIp(),
        redirect: "manual",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ username, password: PASSWORD, redirectTo: "" }).toString(),
      });
      editorCookie = signIn.headers.get("set-cookie")!.split(";")[0];
    }
  }
  for (const slug of ["alpha", "beta", "gamma", "delta"]) await article(slug);
  await article("chernetka", "draft");
});

describe("posting a comment (the article page's form, no JavaScript)", () => {
  it("with comments off (SPEC default) there is no section and a post is refused with 403", async () => {
    await saveSettings("content", { posts_per_page: 10, allow_comments: false, moderation_required: true });
    expect(await page("alpha")).not.toContain('id="comments"');
    const { status, res } = await post("alpha", { author_name: "Оля", body: "Привіт" });
    expect(status).toBe(403);
    expect(await res.text()).toContain("Коментарі на сайті вимкнено");
    expect(await db.selectFrom("comments").select("id").execute()).toHaveLength(0);
  });

  it("with moderation on a comment waits: the reader gets a 15-minute HttpOnly cookie and sees it as pending, others do not", async () => {
    await content({ moderation_required: true });
    expect(await page("alpha")).toContain("Залишити коментар");
    const { status, res, cookie, id } = await post("alpha", { author_name: "Оля", author_email: "Olya@Example.com", body: "Чудова стаття!" });
    expect(status).toBe(303);
    expect(res.headers.get("location")).toBe(`/article/alpha#comment-${id}`);
    const setCookie = res.headers.get("set-cookie")!;
    expect(setCookie).toMatch(/^comment_token=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=900; HttpOnly; SameSite=Lax/);
    const stored = await row(id!);
    expect(stored).toMatchObject({ status: "pending", author_email: "olya@example.com", article_id: articles.alpha.id, parent_id: null });
    expect(stored.delete_token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(stored.delete_token_hash).not.toContain(cookie!.split("=")[1]);
    const anonymous = await page("alpha");
    expect(anonymous).not.toContain("Чудова стаття!");
    const own = await page("alpha", cookie);
    expect(own).toContain("Коментар очікує на модерацію");
    expect(own).toContain("Чудова стаття!");
    expect(own).toContain("Видалити мій коментар");
    // The email is never shown on the public page, not even to its author.
    expect(own).not.toContain("olya@example.com");
  });

  it("without moderation a comment appears at once; comment_count is in the article shape and on cards", async () => {
    await content({ moderation_required: false });
    const { status, id } = await post("beta", { author_name: "Петро", body: "Перший абзац.\n\nДругий абзац з https://example.org/doc?a=1." });
    expect(status).toBe(303);
    expect((await row(id!)).status).toBe("approved");
    const html = await page("beta");
    expect(html).toContain("Перший абзац.");
    expect(html).toMatch(
      /<a href="https:\/\/example.org\/doc\?a=1" rel="nofollow ugc noopener noreferrer" target="_blank">https:\/\/example.org\/doc\?a=1<\/a>/,
    );
    const shape = await (await request("/api/articles/slug/beta")).json();
    expect(shape.comment_count).toBe(1);
    const home = await (await request("/api/homepage/public")).json();
    const card = home.blocks.flatMap((b: any) => b.articles).find((a: any) => a.slug === "beta");
    expect(card.comment_count).toBe(1);
  });

  it("replies are one level deep: a reply to a reply joins the thread; an unknown parent is refused", async () => {
    await content({ moderation_required: false });
    const top = await post("gamma", { author_name: "Анна", body: "Питання" });
    const reply = await post("gamma", { author_name: "Борис", body: "Відповідь", parent_id: top.id! });
    expect((await row(reply.id!)).parent_id).toBe(top.id);
    const deeper = await post("gamma", { author_name: "Віра", body: "Ще глибше", parent_id: reply.id! });
    expect((await row(deeper.id!)).parent_id).toBe(top.id);
    const stray = await post("gamma", { author_name: "Гліб", body: "Нікому", parent_id: randomUUID() });
    expect(stray.status).toBe(422);
    expect(await stray.res.text()).toContain("Коментар, на який ви відповідаєте, не знайдено.");
    // A parent of another article is unknown here too.
    const elsewhere = await post("alpha", { author_name: "Гліб", body: "Не туди", parent_id: top.id! });
    expect(elsewhere.status).toBe(422);
  });

  it("bad input is 422 with Ukrainian messages and the values back; an unpublished or unknown article is 404", async () => {
    await content({});
    const empty = await post("alpha", { author_name: " ", body: "" });
    expect(empty.status).toBe(422);
    const text = await empty.res.text();
    expect(text).toContain("Вкажіть ім");
    expect(text).toContain("Напишіть коментар");
    const long = await post("alpha", { author_name: "x".repeat(81), body: "y".repeat(5001), author_email: "не-email" });
    expect(long.status).toBe(422);
    const longText = await long.res.text();
    expect(longText).toContain("Ім&#x27;я: не більше 80 символів");
    expect(longText).toContain("Невірний формат email");
    expect((await post("chernetka", { author_name: "A", body: "B" })).status).toBe(404);
    expect((await post("nema-takoi", { author_name: "A", body: "B" })).status).toBe(404);
  });
});

describe("spam checks", () => {
  it("the honeypot: a filled-in `website` keeps the comment as spam, shown to nobody", async () => {
    await content({ moderation_required: false });
    const { status, id } = await post("delta", { author_name: "Bot", body: "Buy now", website: "http://spam.example" });
    expect(status).toBe(303);
    expect(await row(id!)).toMatchObject({ status: "spam", held_reason: "honeypot", delete_token_hash: null });
    expect(await page("delta")).not.toContain("Buy now");
  });

  it("the minimum fill time: a post within 3 s of the form is refused (400), a forged stamp too; nothing is stored", async () => {
    const before = (await db.selectFrom("comments").select("id").execute()).length;
    const fast = await post("delta", { author_name: "Швидкий", body: "Миттєво" }, { age: 500 });
    expect(fast.status).toBe(400);
    const text = await fast.res.text();
    expect(text).toContain("Коментар надіслано надто швидко");
    // The form comes back filled in, with a fresh stamp.
    expect(text).toContain("Миттєво");
    const forged = await request("/article/delta", {
      method: "POST",
      ip: nextIp(),
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ intent: "comment", author_name: "Підробка", body: "Текст", stamp: `${Date.now() - 60_000}.AAAA` }).toString(),
    });
    expect(forged.status).toBe(400);
    expect(await forged.text()).toContain("Форма застаріла");
    expect((await db.selectFrom("comments").select("id").execute()).length).toBe(before);
  });

  it("more links than the setting allows, or a blocklisted word (in any field, any case), wait for a moderator", async () => {
    await content({ moderation_required: false, comment_max_links: 1, comment_blocklist: "казино\nшвидкий кредит" });
    const links = await post("delta", { author_name: "Лінк", body: "https://a.example та https://b.example" });
    expect(await row(links.id!)).toMatchObject({ status: "pending", held_reason: "links" });
    const one = await post("delta", { author_name: "Лінк", body: "Лише https://a.example" });
    expect((await row(one.id!)).status).toBe("approved");
    const word = await post("delta", { author_name: "Гравець", body: "Найкраще КАЗИНО тут" });
    expect(await row(word.id!)).toMatchObject({ status: "pending", held_reason: "blocklist" });
    const inName = await post("delta", { author_name: "Швидкий кредит", body: "Звичайний текст" });
    expect(await row(inName.id!)).toMatchObject({ status: "pending", held_reason: "blocklist" });
  });

  it("the per-address limit: the sixth comment in 10 minutes from one address is 429 with Retry-After; another address is not held", async () => {
    await content({ moderation_required: true });
    const ip = "192.0.2.77";
    for (let i = 0; i < 5; i++) expect((await post("alpha", { author_name: "Часто", body: `Коментар ${i}` }, { ip })).status).toBe(303);
    const sixth = await post("alpha", { author_name: "Часто", body: "Шостий" }, { ip });
    expect(sixth.status).toBe(429);
    expect(Number(sixth.res.headers.get("retry-after"))).toBeGreaterThan(500);
    expect(await sixth.res.text()).toContain("Забагато коментарів з вашої адреси");
    expect((await post("alpha", { author_name: "Інший", body: "Можна" }, { ip: "192.0.2.78" })).status).toBe(303);
  });
});

describe("script injection in every field is shown as text", () => {
  it("name, email, body and parent id never become markup on the page, in the queue or in the JSON", async () => {
    await content({ moderation_required: false });
    const evil = `<script>alert(1)</script><img src=x onerror=alert(2)>`;
    const posted = await post("alpha", {
      author_name: `Злий ${evil}`.slice(0, 80),
      body: `${evil}\n\njavascript:alert(3) http://x.example/"><svg/onload=alert(4)>`,
    });
    expect(posted.status).toBe(303);
    const html = await page("alpha");
    expect(html).not.toMatch(/<script>alert|<img src=x|<svg\/onload|href="javascript:/i);
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).toContain('href="http://x.example/"');
    // A bad email and a bad parent come back as messages, the submitted values escaped.
    const bad = await post("alpha", {
      author_name: "Тест",
      author_email: `"><script>alert(5)</script>@x`,
      body: "Текст",
      parent_id: `"><script>alert(6)</script>`,
    });
    expect(bad.status).toBe(422);
    const badHtml = await bad.res.text();
    expect(badHtml).not.toMatch(/<script>alert\((5|6)\)/);
    const queue = await (await request("/admin/comments?status=approved", { headers: { Authorization: `Bearer ${tokens.editor}` } })).text();
    expect(queue).toContain("Злий &lt;script&gt;");
    expect(queue).not.toMatch(/<script>alert|<img src=x/);
    const api = await (await sendJson("GET", `/api/comments?status=approved&article_id=${articles.alpha.id}`, tokens.editor)).json();
    expect(api.data.some((c: any) => c.body.startsWith("<script>alert(1)"))).toBe(true);
  });
});

describe("the reader's own deletion (15 minutes, same browser)", () => {
  it("deletes with the cookie; refuses without it, with another browser's, and after 15 minutes", async () => {
    await content({ moderation_required: false });
    const mine = await post("gamma", { author_name: "Моя", body: "Передумала" });
    const other = await post("gamma", { author_name: "Чужий", body: "Не мій" });
    const del = (id: string, cookie?: string) =>
      request("/article/gamma", {
        method: "POST",
        ip: nextIp(),
        headers: { "Content-Type": "application/x-www-form-urlencoded", ...(cookie ? { Cookie: cookie } : {}) },
        body: new URLSearchParams({ intent: "delete-comment", comment_id: id }).toString(),
      });
    expect((await del(mine.id!)).status).toBe(403);
    expect((await del(mine.id!, other.cookie)).status).toBe(403);
    const ok = await del(mine.id!, mine.cookie);
    expect(ok.status).toBe(200);
    expect(await ok.text()).toContain("Ваш коментар видалено.");
    expect((await row(mine.id!)).status).toBe("deleted");
    expect(await page("gamma")).not.toContain("Передумала");
    await db
      .updateTable("comments")
      .set({ created_at: new Date(Date.now() - 16 * 60_000).toISOString() })
      .where("id", "=", other.id!)
      .execute();
    expect((await del(other.id!, other.cookie)).status).toBe(403);
    expect((await row(other.id!)).status).toBe("approved");
  });
});

describe("per article: open, closed, hidden", () => {
  it("closed keeps the comments shown and refuses new ones; hidden shows none", async () => {
    await content({ moderation_required: false });
    const before = await post("beta", { author_name: "Рання", body: "Ще відкрито" });
    expect(before.status).toBe(303);
    await setCommentsMode({ articleId: articles.beta.id, mode: "closed", actor: TEST_ACTOR });
    const closed = await page("beta");
    expect(closed).toContain("Ще відкрито");
    expect(closed).toContain("Коментарі до цієї статті закрито.");
    expect(closed).not.toContain("Залишити коментар");
    const refused = await post("beta", { author_name: "Пізня", body: "Вже закрито" });
    expect(refused.status).toBe(403);
    await setCommentsMode({ articleId: articles.beta.id, mode: "hidden", actor: TEST_ACTOR });
    expect(await page("beta")).not.toContain('id="comments"');
    await setCommentsMode({ articleId: articles.beta.id, mode: "open", actor: TEST_ACTOR });
  });
});

describe("moderation API (DESIGN §7 conventions)", () => {
  it("GET /api/comments: 401 without a token, 403 for a reporter, the queue with email and address for editors; 422 for a bad filter", async () => {
    expect((await sendJson("GET", "/api/comments", null)).status).toBe(401);
    expect((await sendJson("GET", "/api/comments", tokens.reporter)).status).toBe(403);
    const res = await sendJson("GET", `/api/comments?status=pending&article_id=${articles.alpha.id}&limit=2`, tokens.editor);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ skip: 0, limit: 2 });
    expect(body.total).toBeGreaterThan(2);
    expect(body.data).toHaveLength(2);
    expect(body.data[0]).toMatchObject({ status: "pending", article_id: articles.alpha.id, article_slug: "alpha" });
    expect(body.data[0]).toHaveProperty("ip");
    expect(body.data[0]).toHaveProperty("author_email");
    const search = await (await sendJson("GET", "/api/comments?status=pending&q=ЧУДОВА", tokens.admin)).json();
    expect(search.data.map((c: any) => c.body)).toEqual(["Чудова стаття!"]);
    expect((await sendJson("GET", "/api/comments?status=hidden", tokens.editor)).status).toBe(422);
    expect((await sendJson("GET", "/api/comments?article_id=nope", tokens.editor)).status).toBe(422);
    expect((await sendJson("GET", "/api/comments?limit=abc", tokens.editor)).status).toBe(422);
  });

  it("PATCH approves (audited, the comment is then public), 404 for an unknown id, 400/422 for bad bodies, 403 for a reporter", async () => {
    const pending = (await (await sendJson("GET", `/api/comments?status=pending&q=Чудова`, tokens.editor)).json()).data[0];
    expect((await sendJson("PATCH", `/api/comments/${pending.id}`, null, { status: "approved" })).status).toBe(401);
    expect((await sendJson("PATCH", `/api/comments/${pending.id}`, tokens.reporter, { status: "approved" })).status).toBe(403);
    expect((await sendJson("PATCH", `/api/comments/${randomUUID()}`, tokens.editor, { status: "approved" })).status).toBe(404);
    expect((await sendJson("PATCH", "/api/comments/not-an-id", tokens.editor, { status: "approved" })).status).toBe(404);
    const wrong = await sendJson("PATCH", `/api/comments/${pending.id}`, tokens.editor, { status: "published" });
    expect(wrong.status).toBe(422);
    expect((await wrong.json()).errors.status).toBeTruthy();
    expect((await sendJson("PATCH", `/api/comments/${pending.id}`, tokens.editor, { status: "approved", body: "змінено" })).status).toBe(422);
    const malformed = await request(`/api/comments/${pending.id}`, {
      method: "PATCH",
      headers: { Authorization: `Bearer ${tokens.editor}`, "Content-Type": "application/json" },
      body: "{not json",
    });
    expect(malformed.status).toBe(400);
    const ok = await sendJson("PATCH", `/api/comments/${pending.id}`, tokens.editor, { status: "approved" });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ id: pending.id, status: "approved" });
    expect(await page("alpha")).toContain("Чудова стаття!");
    const audit = await db.selectFrom("audit_log").selectAll().where("action", "=", "comment.moderate").where("object_id", "=", pending.id).execute();
    expect(audit).toHaveLength(1);
    expect(JSON.parse(audit[0].details!)).toMatchObject({ from: "pending", to: "approved" });
    expect(audit[0].object_type).toBe("comment");
  });

  it("DELETE removes for good (204, audited), then 404; 403 for a reporter; other methods 405", async () => {
    const any = (await (await sendJson("GET", `/api/comments?status=spam`, tokens.admin)).json()).data[0];
    expect((await sendJson("DELETE", `/api/comments/${any.id}`, tokens.reporter)).status).toBe(403);
    expect((await sendJson("DELETE", `/api/comments/${any.id}`, tokens.admin)).status).toBe(204);
    expect((await sendJson("DELETE", `/api/comments/${any.id}`, tokens.admin)).status).toBe(404);
    expect(await db.selectFrom("comments").select("id").where("id", "=", any.id).execute()).toHaveLength(0);
    expect(await db.selectFrom("audit_log").select("id").where("action", "=", "comment.delete").where("object_id", "=", any.id).execute()).toHaveLength(1);
    expect((await sendJson("POST", "/api/comments", tokens.admin, {})).status).toBe(405);
  });

  it("the screen: reporters get 403; editors see the queue; a bulk action moves every ticked comment", async () => {
    expect((await request("/admin/comments", { headers: { Authorization: `Bearer ${tokens.reporter}` } })).status).toBe(403);
    const pending = (await (await sendJson("GET", `/api/comments?status=pending&limit=3`, tokens.editor)).json()).data.map((c: any) => c.id);
    const form = new URLSearchParams([["intent", "spam"], ...pending.map((id: string) => ["ids", id])]);
    const res = await request("/admin/comments", {
      method: "POST",
      redirect: "manual",
      headers: { Cookie: editorCookie, "Content-Type": "application/x-www-form-urlencoded" },
      body: form.toString(),
    });
    expect(res.status).toBe(302);
    const statuses = await db.selectFrom("comments").select("status").where("id", "in", pending).execute();
    expect(statuses.map((s) => s.status)).toEqual(["spam", "spam", "spam"]);
    const entries = await db.selectFrom("audit_log").select("details").where("action", "=", "comment.moderate").where("object_id", "in", pending).execute();
    expect(entries).toHaveLength(3);
    expect(JSON.parse(entries[0].details!)).toMatchObject({ to: "spam", bulk: true });
  });
});
