// Issue 25 (item 11), SECURITY.md 'Audit log' [ASVS 7.1–7.3], docs/decisions/024: every staff
// change writes exactly one entry per thing it changed, in the change's own transaction (a refused
// or rolled-back change writes none), naming who (id and username at the time), what, which object,
// when and from which address, never a password, hash, token, session id or code. GET /api/audit
// answers admins only, filtered and paged; the CSV neutralises formulas; the prune removes only
// entries older than a year, and the database refuses any other change to the log. Runs on SQLite
// and, under `node scripts/test-pg.mjs vitest`, on PostgreSQL.
import { createHash } from "node:crypto";
import { sql, type Selectable } from "kysely";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { publishDue } from "../../app/models/article-desk.server";
import { auditRetentionCutoff, recordAudit, REDACTED } from "../../app/models/audit.server";
import { createCategory } from "../../app/models/category.server";
import { tokenHash } from "../../app/models/session.server";
import { createUser } from "../../app/models/user.server";
import { runtime } from "../../app/services/runtime.server";
import { kyivDayStart, kyivToday } from "../../app/utils/dates";
import { db, writeTransaction } from "../../db/index";
import type { AuditLogTable } from "../../db/schema";
import { onPostgres } from "../database-of";
import { migrated, postJson, request, TEST_ACTOR } from "../helpers";

type Entry = Selectable<AuditLogTable>;

const PASSWORDS = { admin: "Admin-Пароль-2026!", editor: "Editor-Пароль-2026!", reporter: "Reporter-Пароль-2026!" } as const;
const users: Record<"admin" | "editor" | "reporter", { id: string; username: string }> = {} as never;
/** Everything that must never reach the log: passwords, tokens, their hashes, cookies. */
const secrets = new Set<string>();
const tokens: Record<string, string> = {};
let cookie = "";
let categoryId = "";

const lastId = async () =>
  Number(
    (
      await db
        .selectFrom("audit_log")
        .select((eb) => eb.fn.max("id").as("m"))
        .executeTakeFirst()
    )?.m ?? 0,
  );
const entriesAfter = (mark: number) => db.selectFrom("audit_log").selectAll().where("id", ">", mark).orderBy("id").execute();

/** Runs fn; answers what it returned and the audit entries it wrote. */
async function wrote<T>(fn: () => Promise<T>): Promise<{ result: T; entries: Entry[] }> {
  const mark = await lastId();
  const result = await fn();
  return { result, entries: await entriesAfter(mark) };
}

/** Exactly one entry, with these fields, written just now. */
function expectOne(entries: Entry[], expected: Partial<Omit<Entry, "details">> & { details?: Record<string, unknown> | null }) {
  expect(entries, JSON.stringify(entries)).toHaveLength(1);
  const { details, ...fields } = expected;
  expect(entries[0]).toMatchObject(fields);
  if (details !== undefined) expect(entries[0].details === null ? null : JSON.parse(entries[0].details)).toEqual(details);
  expect(Math.abs(Date.now() - Date.parse(entries[0].created_at))).toBeLessThan(60_000);
  return entries[0];
}

function api(method: string, path: string, token: string | null, body?: unknown, ip = "198.51.100.20") {
  return request(path, {
    method,
    ip,
    headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

function postForm(path: string, fields: Record<string, string>, ip = "198.51.100.30") {
  return request(path, {
    method: "POST",
    ip,
    headers: { Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
  });
}

async function signIn(who: keyof typeof PASSWORDS, ip = "198.51.100.10"): Promise<string> {
  const res = await postJson("/api/auth/login", { username: users[who].username, password: PASSWORDS[who] }, { ip });
  expect(res.status).toBe(200);
  const token = (await res.json()).access_token as string;
  secrets.add(token);
  secrets.add(tokenHash(token));
  return token;
}

/** The raw session token inside a signed `__session` cookie (base64 of its JSON, then the signature). */
function cookieToken(value: string): string {
  const signed = decodeURIComponent(value.replace(/^__session=/, ""));
  return JSON.parse(Buffer.from(signed.slice(0, signed.lastIndexOf(".")), "base64").toString("utf8"));
}

const stamp = Date.now().toString(36);

beforeAll(async () => {
  await migrated();
  for (const role of ["admin", "editor", "reporter"] as const) {
    const user = await createUser({ username: `audit-${role}-${stamp}`, email: `${role}-${stamp}@example.com`, password: PASSWORDS[role], role });
    users[role] = { id: user.id, username: user.username };
    secrets.add(PASSWORDS[role]);
  }
  categoryId = (await createCategory({ actor: TEST_ACTOR, input: { name: `Наука ${stamp}`, description: null, slug: undefined } })).id;
  for (const role of ["admin", "editor", "reporter"] as const) tokens[role] = await signIn(role);
});

describe("each staff action writes exactly one entry, with who, what, which object, when and where", () => {
  it("sign-in (both doors), failed sign-in (the username tried, never the password) and sign-out", async () => {
    const { username, id } = users.editor;
    let signed = await wrote(() => postJson("/api/auth/login", { username, password: PASSWORDS.editor }, { ip: "203.0.113.41" }));
    expect(signed.result.status).toBe(200);
    const apiToken = (await signed.result.json()).access_token as string;
    secrets.add(apiToken);
    expectOne(signed.entries, {
      action: "auth.sign_in",
      user_id: id,
      username,
      ip: "203.0.113.41",
      object_type: "user",
      object_id: id,
      object_label: username,
      details: { via: "api" },
    });

    signed = await wrote(() =>
      request("/admin/login", { method: "POST", ip: "203.0.113.42", body: new URLSearchParams({ username: users.admin.username, password: PASSWORDS.admin }) }),
    );
    expect(signed.result.status).toBe(302);
    cookie = (signed.result.headers.get("set-cookie") ?? "").split(";")[0];
    secrets.add(cookie.replace(/^__session=/, ""));
    secrets.add(cookieToken(cookie));
    secrets.add(tokenHash(cookieToken(cookie)));
    expectOne(signed.entries, { action: "auth.sign_in", user_id: users.admin.id, ip: "203.0.113.42", details: { via: "form" } });

    const failed = await wrote(() => postJson("/api/auth/login", { username: username.toUpperCase(), password: "Wrong-Пароль-1" }, { ip: "203.0.113.43" }));
    expect(failed.result.status).toBe(401);
    secrets.add("Wrong-Пароль-1");
    expectOne(failed.entries, {
      action: "auth.sign_in_failed",
      user_id: null,
      username,
      ip: "203.0.113.43",
      object_type: null,
      details: { via: "api", reason: "credentials" },
    });

    // A password typed into the username box (it does not look like a username) is not written down.
    const typo = await wrote(() => postJson("/api/auth/login", { username: PASSWORDS.reporter, password: "x" }, { ip: "203.0.113.44" }));
    expect(typo.result.status).toBe(401);
    expectOne(typo.entries, {
      action: "auth.sign_in_failed",
      user_id: null,
      username: null,
      details: { via: "api", reason: "credentials", unusual_username: true },
    });

    const out = await wrote(() => api("POST", "/api/auth/logout", apiToken, undefined, "203.0.113.45"));
    expect(out.result.status).toBe(204);
    expectOne(out.entries, { action: "auth.sign_out", user_id: id, username, ip: "203.0.113.45", object_id: id, details: { via: "api" } });
    // Signing out again with the dead token changes nothing and records nothing.
    expect((await wrote(() => api("POST", "/api/auth/logout", apiToken))).entries).toEqual([]);
  });

  it("a form sign-out is recorded with the session's end", async () => {
    const res = await request("/admin/login", {
      method: "POST",
      ip: "203.0.113.46",
      body: new URLSearchParams({ username: users.reporter.username, password: PASSWORDS.reporter }),
    });
    const own = (res.headers.get("set-cookie") ?? "").split(";")[0];
    secrets.add(cookieToken(own));
    // An IPv4 address as a dual-stack socket reports it reads as itself.
    const out = await wrote(() => request("/admin/logout", { method: "POST", ip: "::ffff:203.0.113.47", headers: { Cookie: own } }));
    expect(out.result.status).toBe(302);
    expectOne(out.entries, { action: "auth.sign_out", user_id: users.reporter.id, ip: "203.0.113.47", details: { via: "form" } });
  });

  it("a deactivated account's sign-in is a failure naming the account", async () => {
    const user = await createUser({ username: `audit-off-${stamp}`, email: `off-${stamp}@example.com`, password: "Off-Пароль-2026!", role: "reporter" });
    secrets.add("Off-Пароль-2026!");
    await api("PUT", `/api/users/${user.id}`, tokens.admin, { is_active: false });
    const { result, entries } = await wrote(() =>
      postJson("/api/auth/login", { username: user.username, password: "Off-Пароль-2026!" }, { ip: "203.0.113.48" }),
    );
    expect(result.status).toBe(403);
    expectOne(entries, {
      action: "auth.sign_in_failed",
      user_id: user.id,
      username: user.username,
      object_id: user.id,
      details: { via: "api", reason: "inactive" },
    });
  });

  it("users: create, update, role change, password change, deactivate, activate, delete", async () => {
    const admin = { user_id: users.admin.id, username: users.admin.username, ip: "198.51.100.20" };
    const password = "Новий-Пароль-Дуже-Довгий-1";
    secrets.add(password);
    const created = await wrote(() =>
      api("POST", "/api/users/", tokens.admin, { username: `audit-new-${stamp}`, email: `new-${stamp}@example.com`, role: "reporter", password }),
    );
    expect(created.result.status).toBe(201);
    const id = (await created.result.json()).id as string;
    const object = { object_type: "user", object_id: id, object_label: `audit-new-${stamp}` };
    expectOne(created.entries, { ...admin, ...object, action: "user.create", details: { role: "reporter" } });

    const put = (body: unknown) => wrote(() => api("PUT", `/api/users/${id}`, tokens.admin, body));
    expectOne((await put({ email: `renamed-${stamp}@example.com` })).entries, { ...admin, ...object, action: "user.update", details: { fields: ["email"] } });
    expectOne((await put({ role: "editor" })).entries, { ...admin, ...object, action: "user.role_change", details: { from: "reporter", to: "editor" } });
    const newPassword = "Ще-Один-Новий-Пароль-2";
    secrets.add(newPassword);
    expectOne((await put({ password: newPassword })).entries, { ...admin, ...object, action: "user.password_change", details: null });
    expectOne((await put({ is_active: false })).entries, { ...admin, ...object, action: "user.deactivate", details: null });
    expectOne((await put({ is_active: true })).entries, { ...admin, ...object, action: "user.activate", details: null });
    // The same values again change nothing: no entry.
    expect((await put({ role: "editor", is_active: true })).entries).toEqual([]);
    const deleted = await wrote(() => api("DELETE", `/api/users/${id}`, tokens.admin));
    expect(deleted.result.status).toBe(204);
    expectOne(deleted.entries, { ...admin, ...object, action: "user.delete", details: { role: "editor" } });
  });

  it("categories: create, update, delete", async () => {
    const editor = { user_id: users.editor.id, username: users.editor.username };
    const created = await wrote(() => api("POST", "/api/categories/", tokens.editor, { name: `Космос ${stamp}`, description: "x" }));
    expect(created.result.status).toBe(201);
    const category = await created.result.json();
    expectOne(created.entries, {
      ...editor,
      action: "category.create",
      object_type: "category",
      object_id: category.id,
      object_label: `Космос ${stamp}`,
      details: { slug: category.slug },
    });
    const updated = await wrote(() => api("PUT", `/api/categories/${category.id}`, tokens.editor, { name: `Всесвіт ${stamp}`, description: "x" }));
    expectOne(updated.entries, {
      ...editor,
      action: "category.update",
      object_label: `Всесвіт ${stamp}`,
      details: { fields: ["name"], from: `Космос ${stamp}` },
    });
    const deleted = await wrote(() => api("DELETE", `/api/categories/${category.id}`, tokens.editor));
    expect(deleted.result.status).toBe(204);
    expectOne(deleted.entries, { ...editor, action: "category.delete", object_id: category.id, object_label: `Всесвіт ${stamp}` });
  });

  it("articles: create, edit, publish, unpublish, schedule, the scheduler's publish, restore, submit, return, preview link, delete", async () => {
    const editor = { user_id: users.editor.id, username: users.editor.username };
    const create = (token: string, title: string, status = "draft") =>
      wrote(() => api("POST", "/api/articles/", token, { title, content: "Перший текст.", category_id: categoryId, status, tags: [] }));

    const created = await create(tokens.editor, `Стаття ${stamp}`);
    expect(created.result.status).toBe(201);
    const article = await created.result.json();
    const object = { object_type: "article", object_id: article.id };
    expectOne(created.entries, { ...editor, ...object, action: "article.create", object_label: `Стаття ${stamp}`, details: { status: "draft" } });

    const body = { title: `Стаття ${stamp}`, content: "Другий текст.", category_id: categoryId, status: "draft", tags: [] };
    expectOne((await wrote(() => api("PUT", `/api/articles/${article.id}`, tokens.editor, body))).entries, {
      ...editor,
      ...object,
      action: "article.update",
      details: { fields: ["content"] },
    });
    expectOne((await wrote(() => api("POST", `/api/articles/${article.id}/publish`, tokens.editor))).entries, {
      ...editor,
      ...object,
      action: "article.publish",
      details: { from: "draft", to: "published" },
    });
    expectOne((await wrote(() => api("POST", `/api/articles/${article.id}/unpublish`, tokens.editor, {}))).entries, {
      ...object,
      action: "article.unpublish",
      details: { from: "published", to: "draft" },
    });
    const at = new Date(Date.now() + 3_600_000).toISOString();
    expectOne((await wrote(() => api("POST", `/api/articles/${article.id}/publish`, tokens.editor, { publish_at: at }))).entries, {
      ...editor,
      ...object,
      action: "article.schedule",
      details: { from: "draft", to: "scheduled", publish_at: at },
    });
    // The scheduler publishes it when it falls due: the site itself, no person, no address.
    const due = await wrote(() => publishDue({ now: new Date(Date.now() + 2 * 3_600_000) }));
    expect(due.result).toEqual([article.id]);
    expectOne(due.entries, {
      ...object,
      action: "article.publish",
      user_id: null,
      username: null,
      ip: null,
      details: { from: "scheduled", to: "published", scheduled: true },
    });

    // A restore of the first revision brings the first text back.
    const revisions = await (await api("GET", `/api/articles/${article.id}/revisions?limit=100`, tokens.editor)).json();
    const first = revisions.data[revisions.data.length - 1].id as number;
    const restored = await wrote(() => api("POST", `/api/articles/${article.id}/revisions/${first}/restore`, tokens.editor));
    expect(restored.result.status).toBe(200);
    expectOne(restored.entries, { ...editor, ...object, action: "article.restore", details: { fields: ["content"], revision: first } });

    // Preview links: the token opens the article, so it is never written down.
    const link = await wrote(() => api("POST", `/api/articles/${article.id}/preview-link`, tokens.editor, {}));
    const { url, expires_at } = await link.result.json();
    secrets.add(url.split("/preview/")[1]);
    expectOne(link.entries, { ...editor, ...object, action: "article.preview_link", details: { expires_at } });
    expectOne((await wrote(() => api("POST", `/api/articles/${article.id}/preview-link`, tokens.editor, { revoke: true }))).entries, {
      ...object,
      action: "article.preview_link_revoke",
    });

    // The desk: the reporter submits their draft, the editor returns it.
    const own = await create(tokens.reporter, `Чернетка ${stamp}`);
    const draft = await own.result.json();
    const submitted = await wrote(() => api("POST", `/api/articles/${draft.id}/submit`, tokens.reporter, { note: "Гляньте" }, "198.51.100.77"));
    expectOne(submitted.entries, {
      user_id: users.reporter.id,
      ip: "198.51.100.77",
      object_id: draft.id,
      action: "article.submit",
      details: { from: "draft", to: "review" },
    });
    expectOne((await wrote(() => api("POST", `/api/articles/${draft.id}/return`, tokens.editor, { note: "Додайте джерела" }))).entries, {
      ...editor,
      object_id: draft.id,
      action: "article.return",
      details: { from: "review", to: "draft" },
    });

    const deleted = await wrote(() => api("DELETE", `/api/articles/${draft.id}`, tokens.reporter));
    expect(deleted.result.status).toBe(204);
    expectOne(deleted.entries, {
      user_id: users.reporter.id,
      action: "article.delete",
      object_id: draft.id,
      object_label: `Чернетка ${stamp}`,
      details: { status: "draft" },
    });
  });

  it("a bulk action writes one entry per article", async () => {
    const ids: string[] = [];
    for (const n of [1, 2, 3]) {
      const res = await api("POST", "/api/articles/", tokens.editor, { title: `Масова ${n} ${stamp}`, content: "x", category_id: categoryId, status: "draft" });
      ids.push((await res.json()).id);
    }
    const published = await wrote(() =>
      postForm("/admin/articles", { intent: "bulk", bulk_action: "publish", ids: ids.join(","), confirmed: "1", back: "/admin/articles" }),
    );
    expect(published.result.status).toBe(302);
    expect(published.entries.map((e) => [e.action, e.object_id, e.user_id, e.ip, JSON.parse(e.details!)])).toEqual(
      ids.map((id) => ["article.publish", id, users.admin.id, "198.51.100.30", { from: "draft", to: "published", bulk: true }]),
    );
    const removed = await wrote(() =>
      postForm("/admin/articles", { intent: "bulk", bulk_action: "delete", ids: ids.join(","), confirmed: "1", back: "/admin/articles" }),
    );
    expect(removed.entries.map((e) => [e.action, e.object_id, JSON.parse(e.details!)])).toEqual(
      ids.map((id) => ["article.delete", id, { status: "published", bulk: true }]),
    );
  });

  it("media upload and delete, the homepage layout, settings (which keys changed, never their values)", async () => {
    const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: { r: 9, g: 9, b: 9 } } })
      .png()
      .toBuffer();
    const upload = new FormData();
    upload.append("files", new Blob([new Uint8Array(png)], { type: "image/png" }), "знімок.png");
    const stored = await wrote(() =>
      request("/api/media/", { method: "POST", ip: "198.51.100.21", headers: { Authorization: `Bearer ${tokens.reporter}` }, body: upload }),
    );
    expect(stored.result.status).toBe(201);
    const media = (await stored.result.json()).data[0];
    expectOne(stored.entries, {
      user_id: users.reporter.id,
      ip: "198.51.100.21",
      action: "media.upload",
      object_type: "media",
      object_id: media.id,
      object_label: "знімок.png",
      details: { size: png.byteLength },
    });
    expectOne((await wrote(() => api("DELETE", `/api/media/${media.id}`, tokens.reporter))).entries, {
      user_id: users.reporter.id,
      action: "media.delete",
      object_id: media.id,
      details: { size: png.byteLength },
    });

    const res = await api("POST", "/api/articles/", tokens.editor, { title: `Головна ${stamp}`, content: "x", category_id: categoryId, status: "published" });
    const hero = (await res.json()).id;
    expectOne((await wrote(() => api("PUT", "/api/homepage/config", tokens.editor, { blocks: [{ id: "hero", articles: [hero] }] }))).entries, {
      user_id: users.editor.id,
      action: "homepage.save",
      object_type: "homepage",
      details: { blocks: ["hero"] },
    });
    // Saving the same layout again changes nothing.
    expect((await wrote(() => api("PUT", "/api/homepage/config", tokens.editor, { blocks: [{ id: "hero", articles: [hero] }] }))).entries).toEqual([]);

    const code = `google-site-verification-${stamp}`;
    const seo = await wrote(() => api("PUT", "/api/seo/settings", tokens.admin, { site_title: `Наука ${stamp}`, robots: "noindex, nofollow" }));
    expect(seo.result.status).toBe(200);
    expectOne(seo.entries, { user_id: users.admin.id, action: "settings.save", object_type: "settings", details: { keys: ["seo.site_title", "seo.robots"] } });
    const form = await wrote(() =>
      postForm("/admin/settings", {
        site_title: `Наука ${stamp}`,
        robots: "noindex, nofollow",
        gsc_verification_code: code,
        analytics_enabled: "on",
        moderation_required: "on",
      }),
    );
    expect(form.result.status).toBe(200);
    const entry = expectOne(form.entries, { user_id: users.admin.id, ip: "198.51.100.30", action: "settings.save" });
    expect(JSON.parse(entry.details!)).toEqual({ keys: ["integrations.gsc_verification_code"] });
    expect(JSON.stringify(entry)).not.toContain(code);
  });
});

describe("a change that does not commit writes no entry (the same transaction)", () => {
  it("refused and conflicting changes leave the log as it was", async () => {
    const category = await (await api("POST", "/api/categories/", tokens.editor, { name: `Зайнята ${stamp}`, description: null })).json();
    const article = await (
      await api("POST", "/api/articles/", tokens.editor, { title: `Зайнята ${stamp}`, content: "x", category_id: categoryId, status: "draft" })
    ).json();
    const mark = await lastId();
    const refusals: [Promise<Response>, number][] = [
      [api("POST", "/api/categories/", tokens.editor, { name: "Інша", description: null, slug: category.slug }), 409],
      [api("POST", "/api/articles/", tokens.editor, { title: "Інша", slug: article.slug, content: "x", category_id: categoryId, status: "draft" }), 409],
      [api("PUT", `/api/articles/${article.id}`, tokens.editor, { title: "Стара", content: "y", category_id: categoryId, status: "draft", version: 99 }), 409],
      [api("POST", `/api/articles/${article.id}/publish`, tokens.reporter), 403],
      [api("PUT", "/api/homepage/config", tokens.editor, { blocks: [{ id: "hero", articles: [article.id] }] }), 422],
      [api("DELETE", `/api/users/${users.admin.id}`, tokens.admin), 403],
      [api("PUT", "/api/seo/settings", tokens.admin, { robots: "кудись" }), 422],
      [api("DELETE", `/api/categories/${categoryId}`, tokens.editor), 409],
    ];
    for (const [response, status] of refusals) expect((await response).status).toBe(status);
    expect((await postForm("/admin/settings", { robots: "noindex, nofollow" })).status).toBe(422);
    expect(await entriesAfter(mark)).toEqual([]);
  });

  it("an entry that cannot be written takes its change with it", async () => {
    // A failing trigger on this connection's view of audit_log: the category's insert must roll back too.
    if (onPostgres) {
      await sql`create function audit_test_refuse() returns trigger language plpgsql as $$ begin raise exception 'refused by the test'; end $$`.execute(db);
      await sql`create trigger audit_test_refuse before insert on audit_log for each row when (new.action = 'category.create') execute function audit_test_refuse()`.execute(
        db,
      );
    } else {
      await sql`create temp trigger audit_test_refuse before insert on audit_log when new.action = 'category.create' begin select raise(abort, 'refused by the test'); end`.execute(
        db,
      );
    }
    try {
      const name = `Відкотиться ${stamp}`;
      await expect(createCategory({ actor: TEST_ACTOR, input: { name, description: null, slug: undefined } })).rejects.toThrow(/refused by the test/);
      expect(await db.selectFrom("categories").select("id").where("name", "=", name).execute()).toEqual([]);
    } finally {
      await sql`drop trigger audit_test_refuse${onPostgres ? sql` on audit_log` : sql``}`.execute(db);
      if (onPostgres) await sql`drop function audit_test_refuse()`.execute(db);
    }
  });

  it("recordAudit refuses an executor that is not a writeTransaction's, and rolls back with one", async () => {
    const entry = { actor: TEST_ACTOR, action: "settings.save" as const, details: { keys: ["x"] } };
    await expect(recordAudit(db, entry)).rejects.toThrow(/writeTransaction/);
    const mark = await lastId();
    await expect(
      writeTransaction(async (trx) => {
        await recordAudit(trx, entry);
        throw new Error("the change failed");
      }),
    ).rejects.toThrow("the change failed");
    expect(await entriesAfter(mark)).toEqual([]);
  });
});

describe("never a secret in the log", () => {
  it("details whose names look secret are replaced, whoever calls", async () => {
    const { entries } = await wrote(() =>
      writeTransaction((trx) =>
        recordAudit(trx, {
          actor: TEST_ACTOR,
          action: "user.update",
          details: { fields: ["x"], password: "p4ss-leak", new_token: "t0k-leak", nested: { totp_code: "123456", recovery_codes: ["r1-leak"], ok: "shown" } },
        }),
      ),
    );
    expect(JSON.parse(entries[0].details!)).toEqual({
      fields: ["x"],
      password: REDACTED,
      new_token: REDACTED,
      nested: { totp_code: REDACTED, recovery_codes: REDACTED, ok: "shown" },
    });
  });

  it("after every sign-in, sign-out, password change and token above, no entry holds any of them", async () => {
    // More sign-ins with right and wrong passwords, through both doors.
    for (const who of ["admin", "editor", "reporter"] as const) {
      secrets.add(await signIn(who, "203.0.113.90"));
      await postJson("/api/auth/login", { username: users[who].username, password: `${PASSWORDS[who]}-typo` }, { ip: "203.0.113.91" });
      secrets.add(`${PASSWORDS[who]}-typo`);
      const form = await request("/admin/login", {
        method: "POST",
        ip: "203.0.113.92",
        body: new URLSearchParams({ username: users[who].username, password: PASSWORDS[who] }),
      });
      const value = (form.headers.get("set-cookie") ?? "").split(";")[0];
      secrets.add(value.replace(/^__session=/, ""));
      secrets.add(cookieToken(value));
    }
    const hashes = await db.selectFrom("users").select("password_hash").execute();
    for (const { password_hash } of hashes) secrets.add(password_hash);
    for (const { id } of await db.selectFrom("sessions").select("id").execute()) secrets.add(id);
    // A password's SHA-256 would be as bad as the password.
    for (const secret of [...secrets]) secrets.add(createHash("sha256").update(secret).digest("hex"));

    const all = await db.selectFrom("audit_log").selectAll().execute();
    expect(all.length).toBeGreaterThan(40);
    const text = JSON.stringify(all).toLowerCase();
    const leaked = [...secrets].filter((secret) => secret.length >= 6 && text.includes(secret.toLowerCase()));
    expect(leaked).toEqual([]);
  });
});

describe("GET /api/audit", () => {
  it("401 without a session, 403 for editors and reporters, 405 for writes, 200 for admins", async () => {
    expect((await api("GET", "/api/audit", null)).status).toBe(401);
    expect((await api("GET", "/api/audit", tokens.editor)).status).toBe(403);
    expect((await api("GET", "/api/audit", tokens.reporter)).status).toBe(403);
    const forbidden = await api("GET", "/api/audit", tokens.reporter);
    expect(await forbidden.json()).toHaveProperty("detail");
    for (const method of ["POST", "PUT", "DELETE"]) expect((await api(method, "/api/audit", tokens.admin, {})).status, method).toBe(405);
    const res = await api("GET", "/api/audit", tokens.admin);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toContain("no-store");
    const body = await res.json();
    expect(body).toMatchObject({ skip: 0, limit: 50, total: expect.any(Number) });
    expect(body.data.length).toBe(Math.min(50, body.total));
    expect(body.data[0]).toMatchObject({
      id: expect.any(Number),
      action: expect.any(String),
      action_label: expect.any(String),
      created_at: expect.any(String),
    });
    // Newest first.
    const ids = body.data.map((e: { id: number }) => e.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
  });

  it("422 for bad filters and paging", async () => {
    for (const query of [
      "user=Not%20A%20Name!",
      "user=" + "a".repeat(51),
      "action=article.explode",
      "from=2026-13-01",
      "to=yesterday",
      "from=2026-02-30",
      "from=2026-05-02&to=2026-05-01",
      "skip=-1",
      "limit=abc",
      "skip=1.5",
    ]) {
      const res = await api("GET", `/api/audit?${query}`, tokens.admin);
      expect(res.status, query).toBe(422);
      const body = await res.json();
      expect(body.detail, query).toEqual(expect.any(String));
      expect(Object.keys(body.errors ?? {}).length, query).toBeGreaterThan(0);
    }
  });

  it("filters by person, action and Kyiv calendar days, and pages", async () => {
    const day = kyivToday(Date.now() - 30 * 86_400_000);
    const start = kyivDayStart(day)!;
    const end = kyivDayStart(day, { next: true })!;
    // The bounds are Kyiv midnights, whatever the season.
    const kyivClock = (iso: string) =>
      new Intl.DateTimeFormat("en-GB", { timeZone: "Europe/Kyiv", hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).format(new Date(iso));
    expect([kyivClock(start), kyivClock(end)]).toEqual(["00:00", "00:00"]);
    const at = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString();
    const person = `dates-${stamp}`;
    const rows = [
      { created_at: at(start, -1), action: "category.create", label: "before" },
      { created_at: start, action: "category.create", label: "first" },
      { created_at: at(start, 3_600_000), action: "category.delete", label: "middle" },
      { created_at: at(end, -1), action: "category.create", label: "last" },
      { created_at: end, action: "category.create", label: "after" },
    ];
    await db
      .insertInto("audit_log")
      .values(
        rows.map((r) => ({
          created_at: r.created_at,
          user_id: null,
          username: person,
          action: r.action,
          object_type: "category",
          object_label: r.label,
          ip: null,
          details: null,
        })),
      )
      .execute();
    const labels = async (query: string) => {
      const res = await api("GET", `/api/audit?user=${person.toUpperCase()}&${query}`, tokens.admin);
      expect(res.status, query).toBe(200);
      const body = await res.json();
      return { labels: body.data.map((e: { object_label: string }) => e.object_label), total: body.total };
    };
    expect(await labels("")).toEqual({ labels: ["after", "last", "middle", "first", "before"], total: 5 });
    expect(await labels(`from=${day}&to=${day}`)).toEqual({ labels: ["last", "middle", "first"], total: 3 });
    expect(await labels(`from=${day}&to=${day}&action=category.create`)).toEqual({ labels: ["last", "first"], total: 2 });
    expect(await labels(`to=${day}&action=category.create`)).toEqual({ labels: ["last", "first", "before"], total: 3 });
    expect(await labels(`from=${day}&skip=1&limit=2`)).toEqual({ labels: ["last", "middle"], total: 4 });
    expect(await labels("skip=5")).toEqual({ labels: [], total: 5 });

    // A person's own sign-ins are found by their username.
    const mine = await (await api("GET", `/api/audit?user=${users.editor.username}&action=auth.sign_in&limit=100`, tokens.admin)).json();
    expect(mine.total).toBeGreaterThan(0);
    expect(mine.data.every((e: { username: string; action: string }) => e.username === users.editor.username && e.action === "auth.sign_in")).toBe(true);
  });
});

describe("CSV export", () => {
  it("the filtered rows as a file, formulas neutralised; admins only", async () => {
    const name = `=HYPERLINK("http://evil.example","${stamp}")`;
    await api("POST", "/api/categories/", tokens.editor, { name, description: null });
    const res = await request(`/admin/audit.csv?action=category.create&user=${users.editor.username}`, { headers: { Cookie: cookie } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="audit-log-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(res.headers.get("cache-control")).toContain("no-store");
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder().decode(bytes);
    const lines = text.split("\r\n").filter(Boolean);
    expect(lines[0]).toBe("id,created_at,username,user_id,action,action_label,object_type,object_id,object_label,ip,details");
    // Only the editor's category creations: the two made above and this one.
    expect(lines.slice(1).every((line) => line.includes(",category.create,"))).toBe(true);
    expect(lines.length - 1).toBe(3);
    expect(text).toContain(`"'=HYPERLINK(""http://evil.example"",""${stamp}"")"`);
    expect(text).not.toMatch(/,=HYPERLINK/);

    const editorCookie = await request("/admin/login", {
      method: "POST",
      body: new URLSearchParams({ username: users.editor.username, password: PASSWORDS.editor }),
    });
    const denied = await request("/admin/audit.csv", { headers: { Cookie: (editorCookie.headers.get("set-cookie") ?? "").split(";")[0] } });
    expect(denied.status).toBe(403);
    const anonymous = await request("/admin/audit.csv");
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get("location")).toMatch(/^\/admin\/login/);
    expect((await request("/admin/audit.csv?from=nope", { headers: { Cookie: cookie } })).status).toBe(422);
  });
});

describe("retention", () => {
  it("the hourly prune removes only entries older than a year; the database refuses any other change", async () => {
    const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();
    const person = `old-${stamp}`;
    await db
      .insertInto("audit_log")
      .values(
        [400, 367, 364, 1].map((days) => ({
          created_at: daysAgo(days),
          user_id: null,
          username: person,
          action: "category.create",
          object_label: String(days),
          ip: null,
          details: null,
        })),
      )
      .execute();
    expect(auditRetentionCutoff(new Date("2027-03-01T10:00:00.000Z"))).toBe("2026-03-01T10:00:00.000Z");

    await runtime.prune();
    const left = await db.selectFrom("audit_log").select("object_label").where("username", "=", person).orderBy("id").execute();
    expect(left.map((r) => r.object_label)).toEqual(["364", "1"]);
    // Everything else of this run is still there.
    expect(
      Number(
        (
          await db
            .selectFrom("audit_log")
            .select((eb) => eb.fn.countAll().as("n"))
            .executeTakeFirstOrThrow()
        ).n,
      ),
    ).toBeGreaterThan(40);

    // Append-only in the database itself: no entry changes, and none younger than a year goes.
    await expect(db.updateTable("audit_log").set({ username: "someone-else" }).where("username", "=", person).execute()).rejects.toThrow(/append-only/);
    await expect(db.deleteFrom("audit_log").where("username", "=", person).execute()).rejects.toThrow(/append-only/);
    expect(await db.selectFrom("audit_log").select("object_label").where("username", "=", person).execute()).toHaveLength(2);
  });
});
