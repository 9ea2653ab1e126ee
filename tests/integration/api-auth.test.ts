import { beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../../app/models/user.server";
import { tokenHash } from "../../app/services/session.server";
import { db } from "../../db/index";
import { migrated, postJson, request } from "../helpers";

async function login(username = "api-admin", password = "correct-horse") {
  const res = await postJson("/api/auth/login", { username, password });
  expect(res.status).toBe(200);
  return (await res.json()).access_token as string;
}

const me = (token?: string) => request("/api/auth/me", { headers: token ? { Authorization: `Bearer ${token}` } : {} });

describe("POST /api/auth/login", () => {
  beforeAll(async () => {
    await migrated();
    await createUser({ username: "api-admin", email: "a@example.com", password: "correct-horse", role: "admin", name: "Адмін" });
  });

  it("returns a bearer token for the right password", async () => {
    const res = await postJson("/api/auth/login", { username: "api-admin", password: "correct-horse" });
    expect(res.status).toBe(200);
    expect(res.headers.get("Cache-Control")).toBe("no-store");
    const body = await res.json();
    expect(body.token_type).toBe("bearer");
    expect(body.access_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it("also answers with a trailing slash", async () => {
    expect((await postJson("/api/auth/login/", { username: "api-admin", password: "correct-horse" })).status).toBe(200);
  });

  it("401 with a detail for a wrong password, the same as for an unknown user", async () => {
    const wrong = await postJson("/api/auth/login", { username: "api-admin", password: "wrong-pass" }, { ip: "203.0.113.50" });
    const unknown = await postJson("/api/auth/login", { username: "nobody-here", password: "wrong-pass" }, { ip: "203.0.113.50" });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(await wrong.json()).toEqual(await unknown.json());
  });

  it("400 for malformed JSON", async () => {
    const res = await postJson("/api/auth/login", "{not json");
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ detail: expect.any(String) });
  });

  it("400 for a JSON body that is not an object", async () => {
    expect((await postJson("/api/auth/login", "[1,2]")).status).toBe(400);
  });

  it("415 for another content type", async () => {
    const res = await request("/api/auth/login", {
      method: "POST",
      body: "username=a&password=b",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    expect(res.status).toBe(415);
  });

  it("422 with per-field errors for missing or wrongly typed fields", async () => {
    const res = await postJson("/api/auth/login", { username: 42 });
    expect(res.status).toBe(422);
    const body = await res.json();
    expect(body.detail).toEqual(expect.any(String));
    expect(Object.keys(body.errors).sort()).toEqual(["password", "username"]);
  });

  it("ignores __proto__ keys", async () => {
    const res = await postJson("/api/auth/login", '{"username":"api-admin","password":"correct-horse","__proto__":{"role":"x"}}');
    expect(res.status).toBe(200);
    expect(({} as any).role).toBeUndefined();
  });

  it("413 for a body over 8 MB, even when streamed without a length", async () => {
    const big = new Uint8Array(8 * 1024 * 1024 + 10).fill(32);
    const stream = new ReadableStream({
      start(controller) {
        for (let i = 0; i < big.length; i += 1 << 20) controller.enqueue(big.subarray(i, i + (1 << 20)));
        controller.close();
      },
    });
    const res = await request("/api/auth/login", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: stream,
      // Node's fetch needs this for a streamed body
      duplex: "half",
    });
    expect(res.status).toBe(413);
  });

  it("429 with Retry-After once the username is locked", async () => {
    await createUser({ username: "api-locked", email: "l@example.com", password: "correct-horse", role: "reporter" });
    for (let i = 0; i < 5; i++) await postJson("/api/auth/login", { username: "api-locked", password: "bad-bad-bad" });
    const res = await postJson("/api/auth/login", { username: "api-locked", password: "correct-horse" });
    expect(res.status).toBe(429);
    expect(Number(res.headers.get("Retry-After"))).toBeGreaterThan(800);
    expect((await res.json()).detail).toMatch(/Забагато невдалих спроб/);
  });

  it("405 for GET", async () => {
    expect((await request("/api/auth/login")).status).toBe(405);
  });
});

describe("GET /api/auth/me", () => {
  beforeAll(migrated);

  it("returns the user of the token, without secrets", async () => {
    const res = await me(await login());
    expect(res.status).toBe(200);
    const user = await res.json();
    expect(user).toMatchObject({
      username: "api-admin",
      email: "a@example.com",
      role: "admin",
      is_active: true,
      full_name: "Адмін",
      profile: { name: "Адмін", bio: null, avatar: null },
    });
    expect(user.id).toMatch(/-/);
    expect(user.last_login).toEqual(expect.any(String));
    expect(JSON.stringify(user)).not.toMatch(/password/);
  });

  it("401 without a token, with a bad token and with a malformed header", async () => {
    for (const res of [await me(), await me("not-a-real-token"), await request("/api/auth/me", { headers: { Authorization: "Basic abc" } })]) {
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ detail: expect.any(String) });
    }
  });

  it("refuses a token after logout", async () => {
    const token = await login();
    const out = await request("/api/auth/logout", { method: "POST", headers: { Authorization: `Bearer ${token}` } });
    expect(out.status).toBe(204);
    expect((await me(token)).status).toBe(401);
  });

  it("refuses an expired token", async () => {
    const token = await login();
    await db
      .updateTable("sessions")
      .set({ expires_at: new Date(Date.now() - 1).toISOString() })
      .where("id", "=", tokenHash(token))
      .execute();
    expect((await me(token)).status).toBe(401);
  });

  it("logout without a token is a 401", async () => {
    expect((await request("/api/auth/logout", { method: "POST" })).status).toBe(401);
  });
});

describe("unknown API paths", () => {
  it("answer a JSON 404", async () => {
    const res = await request("/api/no-such-thing");
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ detail: expect.any(String) });
  });
});
