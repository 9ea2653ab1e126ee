// Issue 25, item 12 (SECURITY.md 'Sessions: a person sees their sessions and tokens and can end any
// of them'): the profile lists a person's signed-in browsers and API tokens (device in plain words,
// address, sign-in and last activity, this session marked) and ends any one or all but this one,
// with plain form posts. Through the production build's handler, on this file's database.
import { createHash } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../../app/models/user.server";
import { db } from "../../db/index";
import { migrated, postJson, request } from "../helpers";

const PASSWORD = "correct-horse";
const FIREFOX_LINUX = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0";
const CHROME_WINDOWS = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

/** A browser without JavaScript at one address: keeps its session cookie, posts forms. */
class Visitor {
  cookie = "";
  constructor(
    public ip: string,
    readonly userAgent: string,
  ) {}
  async send(path: string, form?: Record<string, string>): Promise<Response> {
    const res = await request(path, {
      method: form ? "POST" : "GET",
      headers: { "User-Agent": this.userAgent, ...(this.cookie && { Cookie: this.cookie }) },
      body: form ? new URLSearchParams(form) : undefined,
      ip: this.ip,
    });
    const set = res.headers.getSetCookie().find((c) => c.startsWith("__session="));
    if (set) this.cookie = set.split(";")[0];
    return res;
  }
}

async function signIn(username: string, ip: string, userAgent: string): Promise<Visitor> {
  const visitor = new Visitor(ip, userAgent);
  const res = await visitor.send("/admin/login", { username, password: PASSWORD });
  expect(res.headers.get("Location")).toBe("/admin/dashboard");
  return visitor;
}

const signedIn = async (visitor: Visitor) => (await visitor.send("/admin/dashboard")).status === 200;
const ref = (id: string) => createHash("sha256").update(`session-ref:${id}`).digest("base64url").slice(0, 22);
/** The `session` value of the end button whose label names `device`. */
const refOf = (page: string, device: string) =>
  page.match(new RegExp(`name="session" value="([^"]+)"/><button[^>]*aria-label="Завершити сеанс: ${device}`))?.[1];

let userId = "";
beforeAll(async () => {
  await migrated();
  userId = (await createUser({ username: "sess-owner", email: "owner@example.com", password: PASSWORD, role: "reporter" })).id;
  await createUser({ username: "sess-other", email: "other@example.com", password: PASSWORD, role: "editor" });
});

describe("your sessions in the profile", () => {
  it("lists browsers and tokens with device, address, times and this session marked; records the address at sign-in and as it moves", async () => {
    const laptop = await signIn("sess-owner", "192.0.2.10", FIREFOX_LINUX);
    await signIn("sess-owner", "192.0.2.11", CHROME_WINDOWS);
    const api = await request("/api/auth/login", {
      method: "POST",
      headers: { "Content-Type": "application/json", "User-Agent": "curl/8.5.0" },
      body: JSON.stringify({ username: "sess-owner", password: PASSWORD }),
      ip: "192.0.2.12",
    });
    expect(api.status).toBe(200);

    const rows = await db.selectFrom("sessions").select(["ip", "kind", "user_agent"]).where("user_id", "=", userId).orderBy("ip").execute();
    expect(rows.map((r) => [r.ip, r.kind])).toEqual([
      ["192.0.2.10", "cookie"],
      ["192.0.2.11", "cookie"],
      ["192.0.2.12", "bearer"],
    ]);
    expect(rows[0].user_agent).toBe(FIREFOX_LINUX);

    const res = await laptop.send("/admin/profile");
    expect(res.status).toBe(200);
    const page = await res.text();
    expect(page).toContain("Ваші сеанси");
    for (const text of ["Firefox на Linux", "Chrome на Windows", "curl", "192.0.2.10", "192.0.2.11", "192.0.2.12", "токен API"]) expect(page).toContain(text);
    expect(page.match(/Цей сеанс/g)).toHaveLength(1);
    // This session has no end button; the other two have.
    expect(page.match(/name="session" value=/g)).toHaveLength(2);
    expect(page).toContain("Завершити всі інші сеанси (2)");

    // Moving to another address moves the recorded one (with last_seen_at).
    laptop.ip = "192.0.2.99";
    expect(await signedIn(laptop)).toBe(true);
    const moved = await db.selectFrom("sessions").select("ip").where("user_id", "=", userId).where("user_agent", "=", FIREFOX_LINUX).executeTakeFirstOrThrow();
    expect(moved.ip).toBe("192.0.2.99");
  });

  it("ends one session (the others go on); refuses another person's session (404), this session (409), none (422) and a forged intent (400)", async () => {
    const phone = await signIn("sess-owner", "192.0.2.20", FIREFOX_LINUX);
    const desk = await signIn("sess-owner", "192.0.2.21", CHROME_WINDOWS);
    const stranger = await signIn("sess-other", "192.0.2.22", CHROME_WINDOWS);
    const page = await (await phone.send("/admin/profile")).text();
    const deskRef = refOf(page, "Chrome на Windows, 192.0.2.21");
    expect(deskRef).toBeTruthy();

    const ended = await phone.send("/admin/profile", { intent: "end-session", session: deskRef! });
    expect(ended.status).toBe(302);
    expect(ended.headers.get("Location")).toBe("/admin/profile");
    expect(await signedIn(desk)).toBe(false);
    expect(await signedIn(phone)).toBe(true);
    expect(await (await phone.send("/admin/profile")).text()).toContain("Сеанс завершено.");

    // Another person's session, named by the same kind of reference: not found, and it goes on.
    const theirs = await db
      .selectFrom("sessions")
      .innerJoin("users", "users.id", "sessions.user_id")
      .select("sessions.id")
      .where("users.username", "=", "sess-other")
      .executeTakeFirstOrThrow();
    const foreign = await phone.send("/admin/profile", { intent: "end-session", session: ref(theirs.id) });
    expect(foreign.status).toBe(404);
    expect(await foreign.text()).toContain("Сеанс не знайдено");
    expect(await signedIn(stranger)).toBe(true);
    // The raw key is no reference either.
    expect((await phone.send("/admin/profile", { intent: "end-session", session: theirs.id })).status).toBe(404);
    // An ended one is gone.
    expect((await phone.send("/admin/profile", { intent: "end-session", session: deskRef! })).status).toBe(404);

    // This session is ended by signing out, not here.
    const own = await db.selectFrom("sessions").select("id").where("user_id", "=", userId).where("ip", "=", "192.0.2.20").executeTakeFirstOrThrow();
    const self = await phone.send("/admin/profile", { intent: "end-session", session: ref(own.id) });
    expect(self.status).toBe(409);
    expect(await self.text()).toContain("натисніть «Вийти»");
    expect(await signedIn(phone)).toBe(true);

    // Nothing named: nothing ended.
    for (const form of [{ intent: "end-session" }, { intent: "end-session", session: "   " }] as Record<string, string>[]) {
      const res = await phone.send("/admin/profile", form);
      expect(res.status).toBe(422);
      expect(await res.text()).toContain("Оберіть сеанс, який завершити");
    }
    const forged = await phone.send("/admin/profile", { intent: "constructor", session: ref(own.id) });
    expect(forged.status).toBe(400);
    expect(await signedIn(phone)).toBe(true);
    // Signed out, nobody ends anything.
    const anonymous = await request("/admin/profile", { method: "POST", body: new URLSearchParams({ intent: "end-other-sessions" }) });
    expect(anonymous.headers.get("Location")).toMatch(/^\/admin\/login/);
  });

  it("ends all other sessions and tokens, keeps this one; with none left to end it says so (409)", async () => {
    const main = await signIn("sess-owner", "192.0.2.30", FIREFOX_LINUX);
    const second = await signIn("sess-owner", "192.0.2.31", CHROME_WINDOWS);
    const token = (await (await postJson("/api/auth/login", { username: "sess-owner", password: PASSWORD }, { ip: "192.0.2.32" })).json()).access_token;
    const res = await main.send("/admin/profile", { intent: "end-other-sessions" });
    expect(res.status).toBe(302);
    const page = await (await main.send("/admin/profile")).text();
    expect(page).toMatch(/Інші сеанси завершено \(\d+\)\. Цей сеанс триває\./);
    expect(page).toContain("Інших сеансів немає.");
    expect(await signedIn(second)).toBe(false);
    expect((await request("/api/auth/me", { headers: { Authorization: `Bearer ${token}` } })).status).toBe(401);
    expect(await signedIn(main)).toBe(true);
    const left = await db.selectFrom("sessions").select("id").where("user_id", "=", userId).execute();
    expect(left).toHaveLength(1);

    const nothing = await main.send("/admin/profile", { intent: "end-other-sessions" });
    expect(nothing.status).toBe(409);
    expect(await nothing.text()).toContain("Інших сеансів немає: завершувати нічого.");
    expect(await signedIn(main)).toBe(true);
  });

  it("a new password still ends the other sessions and keeps this one", async () => {
    const main = await signIn("sess-owner", "192.0.2.40", FIREFOX_LINUX);
    const other = await signIn("sess-owner", "192.0.2.41", CHROME_WINDOWS);
    const res = await main.send("/admin/profile", {
      intent: "save",
      full_name: "Власник",
      email: "owner@example.com",
      new_password: "Ясен-пень 42 шипшина",
      new_password_repeat: "Ясен-пень 42 шипшина",
      current_password: PASSWORD,
    });
    expect(res.status).toBe(302);
    expect(await signedIn(other)).toBe(false);
    expect(await signedIn(main)).toBe(true);
  });
});
