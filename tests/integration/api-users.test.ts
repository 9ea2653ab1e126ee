import { beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../../app/models/user.server";
import { db } from "../../db/index";
import { migrated, postJson, request } from "../helpers";

async function tokenFor(username: string, password = "correct-horse") {
  const res = await postJson("/api/auth/login", { username, password }, { ip: `198.51.100.${Math.floor(Math.random() * 200)}` });
  expect(res.status).toBe(200);
  return (await res.json()).access_token as string;
}
const auth = (token: string) => ({ Authorization: `Bearer ${token}` });
const send = (method: string, path: string, token: string, body?: unknown) =>
  request(path, { method, headers: { ...auth(token), "Content-Type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
const userCount = async () =>
  Number(
    (
      await db
        .selectFrom("users")
        .select((eb) => eb.fn.countAll().as("n"))
        .executeTakeFirstOrThrow()
    ).n,
  );

let admin: string;
let editor: string;
let adminId: string;

describe("/api/users", () => {
  beforeAll(async () => {
    await migrated();
    adminId = (await createUser({ username: "boss", email: "boss@example.com", password: "correct-horse", role: "admin", name: "Бос" })).id;
    await createUser({ username: "eddie", email: "ed@example.com", password: "correct-horse", role: "editor" });
    admin = await tokenFor("boss");
    editor = await tokenFor("eddie");
  });

  it("lists users for an admin, without password hashes", async () => {
    const res = await request("/api/users/", { headers: auth(admin) });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ total: 2, skip: 0, limit: 100 });
    expect(body.data.map((u: any) => u.username).sort()).toEqual(["boss", "eddie"]);
    expect(JSON.stringify(body)).not.toMatch(/password/);
  });

  it("401 without a token, 403 for an editor, on every method", async () => {
    for (const [method, path] of [
      ["GET", "/api/users"],
      ["POST", "/api/users"],
      ["GET", `/api/users/${adminId}`],
      ["PUT", `/api/users/${adminId}`],
      ["DELETE", `/api/users/${adminId}`],
    ]) {
      const anonymous = await request(path, { method, headers: { "Content-Type": "application/json" }, body: method === "GET" ? undefined : "{}" });
      expect(anonymous.status, `${method} ${path}`).toBe(401);
      const forbidden = await send(method, path, editor, method === "GET" ? undefined : { role: "admin" });
      expect(forbidden.status, `${method} ${path}`).toBe(403);
    }
    expect(await userCount()).toBe(2);
  });

  it("creates a user (201) who can then sign in", async () => {
    const res = await send("POST", "/api/users/", admin, {
      username: "New.Writer",
      email: "w@example.com",
      full_name: "Нова Авторка",
      role: "reporter",
      password: "long-enough",
    });
    expect(res.status).toBe(201);
    const user = await res.json();
    expect(user).toMatchObject({ username: "new.writer", role: "reporter", is_active: true, full_name: "Нова Авторка" });
    expect(await tokenFor("new.writer", "long-enough")).toBeTruthy();
  });

  it("422 with the SPEC messages, and nothing written", async () => {
    const before = await userCount();
    const res = await send("POST", "/api/users/", admin, { username: "", email: "not-an-email", role: "boss", password: "short" });
    expect(res.status).toBe(422);
    const { errors } = await res.json();
    expect(errors).toEqual({
      username: "Обов'язкове поле",
      email: "Невірний формат email",
      role: expect.any(String),
      password: "Пароль занадто короткий",
    });
    expect(await userCount()).toBe(before);
  });

  it("refuses passwords over 72 bytes and bad usernames", async () => {
    const res = await send("POST", "/api/users/", admin, { username: "a b", email: "x@example.com", role: "editor", password: "я".repeat(37) });
    expect(res.status).toBe(422);
    expect(Object.keys((await res.json()).errors).sort()).toEqual(["password", "username"]);
  });

  it("refuses common passwords and passwords of spaces, on create and on change (SECURITY.md 'Weak passwords')", async () => {
    const before = await userCount();
    for (const password of ["password", "        ", "Password1", "qwertyuiop", "iloveyou", "1q2w3e4r5t"]) {
      const res = await send("POST", "/api/users/", admin, { username: "weakling", email: "w1@example.com", role: "reporter", password });
      expect(res.status, password).toBe(422);
      expect((await res.json()).errors.password, password).toMatch(/надто поширений/);
    }
    expect(await userCount()).toBe(before);
    const { id } = await (
      await send("POST", "/api/users/", admin, { username: "strong1", email: "s1@example.com", role: "reporter", password: "квітень-у-Львові" })
    ).json();
    const change = await send("PUT", `/api/users/${id}`, admin, { password: "football" });
    expect(change.status).toBe(422);
    expect((await change.json()).errors.password).toMatch(/надто поширений/);
    expect((await send("PUT", `/api/users/${id}`, admin, { password: "inky-fjord-lantern" })).status).toBe(200);
  });

  it("409 for a taken username, and nothing written", async () => {
    const before = await userCount();
    const res = await send("POST", "/api/users/", admin, { username: "EDDIE", email: "e2@example.com", role: "editor", password: "long-enough" });
    expect(res.status).toBe(409);
    expect((await res.json()).errors).toEqual({ username: expect.any(String) });
    expect(await userCount()).toBe(before);
  });

  it("400 for malformed JSON, 404 for an unknown id", async () => {
    expect((await request("/api/users/", { method: "POST", headers: { ...auth(admin), "Content-Type": "application/json" }, body: "{" })).status).toBe(400);
    expect((await request("/api/users/00000000-0000-0000-0000-000000000000", { headers: auth(admin) })).status).toBe(404);
    expect((await send("PUT", "/api/users/nope", admin, { role: "editor" })).status).toBe(404);
    expect((await send("DELETE", "/api/users/nope", admin)).status).toBe(404);
  });

  it("updates role, profile and active state; extra fields are ignored", async () => {
    const { id } = await (
      await send("POST", "/api/users/", admin, { username: "temp1", email: "t1@example.com", role: "reporter", password: "long-enough" })
    ).json();
    const res = await send("PUT", `/api/users/${id}`, admin, {
      role: "editor",
      full_name: "Тимчасовий",
      bio: "Пише про космос",
      password_hash: "x",
      id: "other",
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id, role: "editor", full_name: "Тимчасовий", profile: { bio: "Пише про космос" } });
  });

  it("deactivating a user ends their sessions; a new password does too", async () => {
    const { id } = await (
      await send("POST", "/api/users/", admin, { username: "temp2", email: "t2@example.com", role: "reporter", password: "long-enough" })
    ).json();
    const theirs = await tokenFor("temp2", "long-enough");
    expect((await request("/api/auth/me", { headers: auth(theirs) })).status).toBe(200);
    expect((await send("PUT", `/api/users/${id}`, admin, { is_active: false })).status).toBe(200);
    expect((await request("/api/auth/me", { headers: auth(theirs) })).status).toBe(401);
    expect(await db.selectFrom("sessions").where("user_id", "=", id).select("id").execute()).toEqual([]);

    await send("PUT", `/api/users/${id}`, admin, { is_active: true });
    const again = await tokenFor("temp2", "long-enough");
    await send("PUT", `/api/users/${id}`, admin, { password: "brand-new-pass" });
    expect((await request("/api/auth/me", { headers: auth(again) })).status).toBe(401);
    expect(await tokenFor("temp2", "brand-new-pass")).toBeTruthy();
  });

  it("an admin changing their own password keeps the session they used", async () => {
    const other = await tokenFor("boss");
    expect((await send("PUT", `/api/users/${adminId}`, admin, { password: "correct-horse" })).status).toBe(200);
    expect((await request("/api/auth/me", { headers: auth(admin) })).status).toBe(200);
    expect((await request("/api/auth/me", { headers: auth(other) })).status).toBe(401);
  });

  it("protects the admin's own account and the last active admin", async () => {
    expect((await send("DELETE", `/api/users/${adminId}`, admin)).status).toBe(403);
    expect((await send("PUT", `/api/users/${adminId}`, admin, { is_active: false })).status).toBe(403);
    const demote = await send("PUT", `/api/users/${adminId}`, admin, { role: "editor" });
    expect(demote.status).toBe(409);
    expect((await demote.json()).detail).toMatch(/останнього активного адміністратора/);
    const me = await db.selectFrom("users").select(["role", "is_active"]).where("id", "=", adminId).executeTakeFirstOrThrow();
    expect(me).toEqual({ role: "admin", is_active: 1 });
  });

  // Issue 31 item 4: the articles are handed over, never left to a placeholder (user-delete.test.ts).
  it("deletes a user (204) once their articles have someone to take them over", async () => {
    const { id } = await (
      await send("POST", "/api/users/", admin, { username: "temp3", email: "t3@example.com", role: "reporter", password: "long-enough" })
    ).json();
    await db
      .insertInto("articles")
      .values({
        id: "a-1",
        slug: "temp3-story",
        title: "T",
        author_id: id,
        subtitle: null,
        category_id: null,
        published_at: null,
        updated_by: null,
        seo_title: null,
        seo_description: null,
        meta_keywords: null,
        og_image: null,
        canonical_url: null,
        featured_image: null,
      })
      .execute();
    expect((await send("DELETE", `/api/users/${id}`, admin)).status).toBe(409);
    expect((await send("DELETE", `/api/users/${id}`, admin, { reassign_to: adminId })).status).toBe(204);
    expect((await request(`/api/users/${id}`, { headers: auth(admin) })).status).toBe(404);
    expect((await db.selectFrom("articles").select("author_id").where("id", "=", "a-1").executeTakeFirstOrThrow()).author_id).toBe(adminId);
  });

  it("422 for bad list parameters", async () => {
    expect((await request("/api/users/?limit=abc", { headers: auth(admin) })).status).toBe(422);
    const capped = await (await request("/api/users/?limit=500", { headers: auth(admin) })).json();
    expect(capped.limit).toBe(100);
  });
});
