import { beforeAll, describe, expect, it } from "vitest";
import { saveSettings } from "../../app/models/settings.server";
import { createUser } from "../../app/models/user.server";
import { authenticate, getUser, LOGIN_FAILED } from "../../app/services/auth.server";
import { createSessionToken, readSessionToken, revokeUserSessions, tokenHash } from "../../app/services/session.server";
import { db } from "../../db/index";
import { migrated } from "../helpers";

const from = (ip = "198.51.100.1") => new Request("http://localhost/admin/login", { headers: { "X-Client-IP": ip } });
const bearer = (token: string) => new Request("http://localhost/api/auth/me", { headers: { Authorization: `Bearer ${token}` } });

async function shiftAttempts(username: string, minutes: number) {
  const rows = await db.selectFrom("login_attempts").select(["id", "created_at"]).where("username", "=", username).execute();
  for (const row of rows) {
    const shifted = new Date(Date.parse(row.created_at) - minutes * 60_000).toISOString();
    await db.updateTable("login_attempts").set({ created_at: shifted }).where("id", "=", row.id).execute();
  }
}

describe("sign-in", () => {
  beforeAll(async () => {
    await migrated();
    await createUser({ username: "olena", email: "olena@example.com", password: "correct-horse", role: "editor", name: "Олена" });
    await createUser({ username: "petro", email: "petro@example.com", password: "correct-horse", role: "reporter" });
    const inactive = await createUser({ username: "gone", email: "gone@example.com", password: "correct-horse", role: "reporter" });
    await db.updateTable("users").set({ is_active: 0 }).where("id", "=", inactive.id).execute();
  });

  it("accepts the right password (username case-insensitive) and records the login", async () => {
    const result = await authenticate({ username: "Olena", password: "correct-horse", request: from() });
    expect(result.ok).toBe(true);
    const user = await db.selectFrom("users").select("last_login").where("username", "=", "olena").executeTakeFirstOrThrow();
    expect(user.last_login).not.toBeNull();
  });

  it("gives the same answer for an unknown user and a wrong password", async () => {
    const unknown = await authenticate({ username: "nobody", password: "whatever1", request: from() });
    const wrong = await authenticate({ username: "petro", password: "wrong-pass", request: from() });
    expect(unknown).toEqual({ ok: false, status: 401, message: LOGIN_FAILED });
    expect(wrong).toEqual(unknown);
  });

  it("refuses a deactivated account", async () => {
    const result = await authenticate({ username: "gone", password: "correct-horse", request: from() });
    expect(result).toMatchObject({ ok: false, status: 403 });
  });

  it("locks a username from one address after 5 failures for 15 minutes, even with the right password", async () => {
    await createUser({ username: "locked", email: "l@example.com", password: "correct-horse", role: "reporter" });
    for (let i = 0; i < 5; i++) {
      expect(await authenticate({ username: "locked", password: "nope-nope", request: from("192.0.2.1") })).toMatchObject({ status: 401 });
    }
    const refused = await authenticate({ username: "locked", password: "correct-horse", request: from("192.0.2.1") });
    expect(refused).toMatchObject({ ok: false, status: 429 });
    if (refused.ok) throw new Error("unreachable");
    expect(refused.message).toMatch(/Забагато невдалих спроб входу/);
    expect(refused.retryAfter).toBeGreaterThan(14 * 60);
    expect(refused.retryAfter).toBeLessThanOrEqual(15 * 60);

    // Other users, from the same address, are unaffected.
    expect(await authenticate({ username: "olena", password: "correct-horse", request: from("192.0.2.1") })).toMatchObject({ ok: true });
    // So is the same user from another address: five requests cannot keep a colleague out.
    expect(await authenticate({ username: "locked", password: "nope-nope", request: from("192.0.2.2") })).toMatchObject({ status: 401 });
    expect(await authenticate({ username: "locked", password: "nope-nope", request: from("192.0.2.1") })).toMatchObject({ status: 429 });

    // Refused attempts are not counted, so the lock ends 15 minutes after the fifth failure.
    await shiftAttempts("locked", 15.1);
    expect(await authenticate({ username: "locked", password: "correct-horse", request: from() })).toMatchObject({ ok: true });
  });

  it("uses the configured number of attempts", async () => {
    await saveSettings("security", { session_timeout: 60, max_login_attempts: 3 });
    for (let i = 0; i < 3; i++) await authenticate({ username: "three", password: "x-wrong-x", request: from("192.0.2.9") });
    expect(await authenticate({ username: "three", password: "x-wrong-x", request: from("192.0.2.9") })).toMatchObject({ status: 429 });
    await saveSettings("security", { session_timeout: 60, max_login_attempts: 5 });
  });

  it("does not lock for failures spread wider than 15 minutes", async () => {
    for (let i = 0; i < 4; i++) await authenticate({ username: "spread", password: "x-wrong-x", request: from("192.0.2.10") });
    await shiftAttempts("spread", 20);
    await authenticate({ username: "spread", password: "x-wrong-x", request: from("192.0.2.10") });
    expect(await authenticate({ username: "spread", password: "x-wrong-x", request: from("192.0.2.10") })).toMatchObject({ status: 401 });
  });

  it("slows, never locks, a username attacked from many addresses: one attempt a minute after 20 failures", async () => {
    await createUser({ username: "target", email: "t@example.com", password: "correct-horse", role: "editor" });
    for (let i = 0; i < 20; i++) {
      expect(await authenticate({ username: "target", password: "nope-nope", request: from(`203.0.113.${i + 1}`) })).toMatchObject({ status: 401 });
    }
    // From a fresh address, right or wrong password: wait for the minute to pass.
    const slowed = await authenticate({ username: "target", password: "correct-horse", request: from("203.0.113.200") });
    expect(slowed).toMatchObject({ ok: false, status: 429 });
    if (slowed.ok) throw new Error("unreachable");
    expect(slowed.retryAfter).toBeGreaterThan(0);
    expect(slowed.retryAfter).toBeLessThanOrEqual(60);
    expect(slowed.message).toMatch(/одну спробу на хвилину/);
    // A minute later the owner signs in; no address was locked for 15 minutes.
    await shiftAttempts("target", 1.05);
    expect(await authenticate({ username: "target", password: "correct-horse", request: from("203.0.113.200") })).toMatchObject({ ok: true });
    expect(await authenticate({ username: "target", password: "correct-horse", request: from("203.0.113.1") })).toMatchObject({ ok: true });
  });

  it("refuses an address that failed 100 times in an hour, across usernames", async () => {
    const ip = "192.0.2.66";
    await db
      .insertInto("login_attempts")
      .values(Array.from({ length: 100 }, (_, i) => ({ username: `spray${i}`, ip, success: 0, created_at: new Date().toISOString() })))
      .execute();
    expect(await authenticate({ username: "olena", password: "correct-horse", request: from(ip) })).toMatchObject({ status: 429 });
    expect(await authenticate({ username: "olena", password: "correct-horse", request: from("192.0.2.67") })).toMatchObject({ ok: true });
  });
});

describe("sessions", () => {
  let userId: string;
  beforeAll(async () => {
    await migrated();
    userId = (await createUser({ username: "session-user", email: "s@example.com", password: "correct-horse", role: "admin" })).id;
  });

  it("stores only the hash of a 256-bit token", async () => {
    const token = await createSessionToken({ userId, kind: "bearer" });
    expect(Buffer.from(token, "base64url").length).toBe(32);
    expect(await db.selectFrom("sessions").select("id").where("id", "=", token).executeTakeFirst()).toBeUndefined();
    expect(await db.selectFrom("sessions").select("id").where("id", "=", tokenHash(token)).executeTakeFirst()).toBeDefined();
    expect((await getUser(bearer(token)))?.id).toBe(userId);
  });

  it("ends a session after the idle timeout and after 12 hours in all", async () => {
    const idle = await createSessionToken({ userId, kind: "bearer" });
    await db
      .updateTable("sessions")
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where("id", "=", tokenHash(idle))
      .execute();
    expect(await readSessionToken(idle)).toBeUndefined();
    expect(await db.selectFrom("sessions").where("id", "=", tokenHash(idle)).select("id").executeTakeFirst()).toBeUndefined();

    const old = await createSessionToken({ userId, kind: "bearer" });
    await db
      .updateTable("sessions")
      .set({ created_at: new Date(Date.now() - 12.1 * 3_600_000).toISOString() })
      .where("id", "=", tokenHash(old))
      .execute();
    expect(await readSessionToken(old)).toBeUndefined();
  });

  it("slides the idle expiry forward when used", async () => {
    const token = await createSessionToken({ userId, kind: "bearer" });
    const past = new Date(Date.now() - 5 * 60_000).toISOString();
    await db
      .updateTable("sessions")
      .set({ last_seen_at: past, expires_at: new Date(Date.now() + 60_000).toISOString() })
      .where("id", "=", tokenHash(token))
      .execute();
    await readSessionToken(token);
    const row = await db.selectFrom("sessions").select("expires_at").where("id", "=", tokenHash(token)).executeTakeFirstOrThrow();
    expect(Date.parse(row.expires_at) - Date.now()).toBeGreaterThan(59 * 60_000);
  });

  it("revokes all of a user's sessions but the one spared", async () => {
    const keep = await createSessionToken({ userId, kind: "cookie" });
    const drop = await createSessionToken({ userId, kind: "bearer" });
    await revokeUserSessions({ userId, except: keep });
    expect(await readSessionToken(keep)).toBeDefined();
    expect(await readSessionToken(drop)).toBeUndefined();
  });

  it("does not accept a token for a deactivated user", async () => {
    const token = await createSessionToken({ userId, kind: "bearer" });
    await db.updateTable("users").set({ is_active: 0 }).where("id", "=", userId).execute();
    expect(await getUser(bearer(token))).toBeUndefined();
    await db.updateTable("users").set({ is_active: 1 }).where("id", "=", userId).execute();
  });

  it("ignores tokens in other places than the Authorization header", async () => {
    const token = await createSessionToken({ userId, kind: "bearer" });
    expect(await getUser(new Request(`http://localhost/api/auth/me?access_token=${token}`))).toBeUndefined();
  });
});
