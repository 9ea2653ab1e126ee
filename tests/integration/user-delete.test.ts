import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../../app/models/user.server";
import { db } from "../../db/index";
import { migrated, postJson, request } from "../helpers";

// Issue 31 item 4: deleting a user who has articles (DELETE /api/users/{id}): 409 with a Ukrainian
// message unless `reassign_to` names who takes the articles over; then the articles, the user's
// removal and the audit entry happen in one transaction. Nothing is credited to a placeholder.

async function tokenFor(username: string, password = "correct-horse") {
  const res = await postJson("/api/auth/login", { username, password }, { ip: `198.51.100.${Math.floor(Math.random() * 200)}` });
  expect(res.status).toBe(200);
  return (await res.json()).access_token as string;
}
const auth = (token: string) => ({ Authorization: `Bearer ${token}` });
const del = (path: string, token: string, body?: unknown) =>
  request(path, {
    method: "DELETE",
    headers: { ...auth(token), ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

async function articleBy(authorId: string, status: "draft" | "published" = "published") {
  const id = randomUUID();
  await db
    .insertInto("articles")
    .values({
      id,
      slug: `story-${id.slice(0, 8)}`,
      title: "Історія",
      content: "Текст",
      status,
      author_id: authorId,
      published_at: status === "published" ? new Date().toISOString() : null,
    })
    .execute();
  return id;
}
const authorOf = async (id: string) => (await db.selectFrom("articles").select("author_id").where("id", "=", id).executeTakeFirstOrThrow()).author_id;

let admin: string;
let editor: string;
let adminId: string;
let heirId: string;

describe("DELETE /api/users/{id} with articles", () => {
  beforeAll(async () => {
    await migrated();
    adminId = (await createUser({ username: "chief", email: "chief@example.com", password: "correct-horse", role: "admin", name: "Головна" })).id;
    heirId = (await createUser({ username: "heir", email: "heir@example.com", password: "correct-horse", role: "editor", name: "Спадкоємиця" })).id;
    await createUser({ username: "plain-editor", email: "pe@example.com", password: "correct-horse", role: "editor" });
    admin = await tokenFor("chief");
    editor = await tokenFor("plain-editor");
  });

  it("409 with the count and a Ukrainian message when articles exist and no one takes them; nothing changes", async () => {
    const leaver = (await createUser({ username: "leaver1", email: "l1@example.com", password: "correct-horse", role: "reporter" })).id;
    const a = await articleBy(leaver);
    await articleBy(leaver, "draft");
    const res = await del(`/api/users/${leaver}`, admin);
    expect(res.status).toBe(409);
    const body = await res.json();
    expect(body.detail).toBe("У користувача є статті (2): оберіть, кому їх передати (reassign_to), або деактивуйте обліковий запис замість видалення");
    expect(body.errors.reassign_to).toBe(body.detail);
    expect(await authorOf(a)).toBe(leaver);
    expect(await db.selectFrom("users").select("id").where("id", "=", leaver).executeTakeFirst()).toBeTruthy();
  });

  it("422 for an unknown, inactive or the same user to take them over; 400/415 for a body that is not JSON", async () => {
    const leaver = (await createUser({ username: "leaver2", email: "l2@example.com", password: "correct-horse", role: "reporter" })).id;
    await articleBy(leaver);
    const inactive = (await createUser({ username: "sleeper", email: "s@example.com", password: "correct-horse", role: "editor" })).id;
    await db.updateTable("users").set({ is_active: 0 }).where("id", "=", inactive).execute();
    for (const [reassign_to, message] of [
      ["nope", "Користувача, якому передати статті, не знайдено"],
      [leaver, "Статті не можна передати тому, кого видаляють"],
      [inactive, "Статті можна передати лише активному користувачеві"],
    ]) {
      const res = await del(`/api/users/${leaver}`, admin, { reassign_to });
      expect(res.status, reassign_to).toBe(422);
      expect((await res.json()).errors.reassign_to).toBe(message);
    }
    const bad = await del(`/api/users/${leaver}`, admin, { reassign_to: 42 });
    expect(bad.status).toBe(422);
    const notJson = await request(`/api/users/${leaver}`, { method: "DELETE", headers: { ...auth(admin), "Content-Type": "application/json" }, body: "{oops" });
    expect(notJson.status).toBe(400);
    expect(await db.selectFrom("users").select("id").where("id", "=", leaver).executeTakeFirst()).toBeTruthy();
  });

  it("204 with reassign_to (JSON body or query): the articles move, the user goes, one audit entry says to whom", async () => {
    const leaver = (await createUser({ username: "leaver3", email: "l3@example.com", password: "correct-horse", role: "reporter" })).id;
    const a = await articleBy(leaver);
    const b = await articleBy(leaver, "draft");
    expect((await del(`/api/users/${leaver}`, admin, { reassign_to: heirId })).status).toBe(204);
    expect(await authorOf(a)).toBe(heirId);
    expect(await authorOf(b)).toBe(heirId);
    expect(await db.selectFrom("users").select("id").where("id", "=", leaver).executeTakeFirst()).toBeUndefined();
    const entry = await db.selectFrom("audit_log").selectAll().where("action", "=", "user.delete").where("object_id", "=", leaver).executeTakeFirstOrThrow();
    expect(JSON.parse(entry.details ?? "{}")).toMatchObject({ role: "reporter", articles: 2, reassigned_to: "heir" });

    const other = (await createUser({ username: "leaver4", email: "l4@example.com", password: "correct-horse", role: "reporter" })).id;
    const c = await articleBy(other);
    expect((await del(`/api/users/${other}?reassign_to=${heirId}`, admin)).status).toBe(204);
    expect(await authorOf(c)).toBe(heirId);
    const page = await (
      await request(`/api/articles/slug/${(await db.selectFrom("articles").select("slug").where("id", "=", c).executeTakeFirstOrThrow()).slug}`)
    ).json();
    expect(page.author).toBe("Спадкоємиця");
  });

  it("a user without articles is deleted without reassign_to; 401, 403 and 404 as before", async () => {
    const empty = (await createUser({ username: "noarticles", email: "na@example.com", password: "correct-horse", role: "reporter" })).id;
    expect((await request(`/api/users/${empty}`, { method: "DELETE" })).status).toBe(401);
    expect((await del(`/api/users/${empty}`, editor, { reassign_to: adminId })).status).toBe(403);
    expect((await del(`/api/users/missing`, admin, { reassign_to: adminId })).status).toBe(404);
    expect((await del(`/api/users/${empty}`, admin)).status).toBe(204);
  });
});
