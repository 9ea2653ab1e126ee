// Issue 25, item 10 (SECURITY.md 'Second factor' [ASVS 2.8], docs/decisions/023): enrolment in the
// profile, two-step sign-in on the screens and at POST /api/auth/login, each code used once, recovery
// codes, the lockout over both steps, and Settings → Security's requirement per role. Everything
// goes through the production build's request handler as a browser without JavaScript would
// (plain form posts, cookies kept by a small jar), against this file's database (either engine).
import { createHash } from "node:crypto";
import { generate } from "otplib";
import { beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../../app/models/user.server";
import { db } from "../../db/index";
import { migrated, postJson, request } from "../helpers";

const PASSWORD = "correct-horse";
let nextIp = 1;
/** An address of its own for each visitor, so one test's failures never lock another's. */
const freshIp = () => `198.18.${Math.floor(nextIp / 250)}.${(nextIp++ % 250) + 1}`;

/** A browser without JavaScript: keeps cookies, follows nothing, posts forms. */
class Visitor {
  cookies = new Map<string, string>();
  constructor(
    readonly ip = freshIp(),
    readonly userAgent = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0",
  ) {}

  async send(path: string, form?: Record<string, string>): Promise<Response> {
    const headers: Record<string, string> = { "User-Agent": this.userAgent };
    if (this.cookies.size) headers.Cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
    const res = await request(path, { method: form ? "POST" : "GET", headers, body: form ? new URLSearchParams(form) : undefined, ip: this.ip });
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(";");
      const [name, value] = [pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1)];
      const gone = !value || attributes.some((a) => /^\s*max-age=0$/i.test(a) || (/^\s*expires=/i.test(a) && Date.parse(a.split("=")[1]) < Date.now()));
      if (gone) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return res;
  }

  async html(path: string): Promise<string> {
    const res = await this.send(path);
    expect(res.status, path).toBe(200);
    return res.text();
  }
}

const now = () => Math.floor(Date.now() / 1000);
/** The code an authenticator app shows for `key` at `epoch` (seconds). */
const codeFor = (key: string, epoch = now()) => generate({ secret: key, epoch });
/** A 6-digit code that is not this step's (nor a neighbour's, in all likelihood). */
const wrongCode = async (key: string) => String((Number(await codeFor(key)) + 500_000) % 1_000_000).padStart(6, "0");

async function userId(username: string): Promise<string> {
  return (await db.selectFrom("users").select("id").where("username", "=", username).executeTakeFirstOrThrow()).id;
}

/** Password only, for someone without a second factor: the session cookie. */
async function signIn(username: string, visitor = new Visitor()): Promise<Visitor> {
  const res = await visitor.send("/admin/login", { username, password: PASSWORD });
  expect(res.status, `sign-in of ${username}`).toBe(302);
  expect(visitor.cookies.has("__session")).toBe(true);
  return visitor;
}

/** Enrols a signed-in visitor through the profile's screen: the key read from the page, ten recovery codes. */
async function enrol(visitor: Visitor): Promise<{ key: string; codes: string[] }> {
  expect((await visitor.send("/admin/profile/two-factor", { intent: "start" })).headers.get("Location")).toBe("/admin/profile/two-factor");
  const page = await visitor.html("/admin/profile/two-factor");
  const key = page.match(/id="totp-key"[^>]*>([A-Z2-7 ]+)</)![1].replace(/ /g, "");
  const res = await visitor.send("/admin/profile/two-factor", { intent: "confirm", code: await codeFor(key) });
  expect(res.status).toBe(200);
  const codes = [...new Set((await res.text()).match(/\b[0-9a-z]{4}-[0-9a-z]{4}-[0-9a-z]{4}-[0-9a-z]{4}\b/g) ?? [])];
  expect(codes).toHaveLength(10);
  return { key, codes };
}

/** The password step for an enrolled person: the code screen's cookie, no session. */
async function passwordStep(username: string, visitor = new Visitor()): Promise<Visitor> {
  const res = await visitor.send("/admin/login", { username, password: PASSWORD });
  expect(res.status).toBe(302);
  expect(res.headers.get("Location")).toBe("/admin/login/code");
  return visitor;
}

const signedIn = async (visitor: Visitor) => (await visitor.send("/admin/dashboard")).status === 200;

const SECURITY_FORM = { site_title: "Наука UA", site_description: "Опис", session_timeout: "60", max_login_attempts: "5" };
/** Saves Settings → Security's rule as `admin`; answers the screen's response. */
function requireFor(admin: Visitor, who: string): Promise<Response> {
  return admin.send("/admin/settings", { ...SECURITY_FORM, two_factor_required: who });
}

beforeAll(async () => {
  await migrated();
  for (const [username, role] of [
    ["tf-editor", "editor"],
    ["tf-reporter", "reporter"],
    ["tf-twice", "editor"],
    ["tf-locked", "editor"],
    ["tf-off", "reporter"],
    ["tf-renew", "reporter"],
    ["tf-audit", "editor"],
    ["tf-late", "editor"],
    ["req-admin", "admin"],
    ["req-editor", "editor"],
    ["req-reporter", "reporter"],
    ["api-2fa", "editor"],
    ["api-plain", "editor"],
    ["api-locked", "editor"],
  ] as const) {
    await createUser({ username, email: `${username}@example.com`, password: PASSWORD, role });
  }
});

describe("enrolment in the profile (no JavaScript)", () => {
  it("shows a QR code made on the server and the key as text; refuses a wrong code; a right one turns it on and shows ten recovery codes once", async () => {
    const visitor = await signIn("tf-editor");
    expect(await visitor.html("/admin/profile")).toContain("Увімкнути двофакторну перевірку");
    expect(await visitor.html("/admin/profile/two-factor")).toContain("Почати налаштування");

    expect((await visitor.send("/admin/profile/two-factor", { intent: "start" })).status).toBe(302);
    const page = await visitor.html("/admin/profile/two-factor");
    const qr = page.match(/<img src="data:image\/svg\+xml;base64,([A-Za-z0-9+/=]+)"/)![1];
    expect(Buffer.from(qr, "base64").toString()).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);
    const key = page.match(/id="totp-key"[^>]*>([A-Z2-7 ]+)</)![1].replace(/ /g, "");
    expect(key).toMatch(/^[A-Z2-7]{32}$/);
    expect(page).toMatch(/autoComplete="one-time-code"|autocomplete="one-time-code"/);
    expect(page).toContain('inputMode="numeric"');

    // Kept sealed: the database alone does not hand out the key; not yet switched on.
    const id = await userId("tf-editor");
    const row = await db.selectFrom("user_two_factor").selectAll().where("user_id", "=", id).executeTakeFirstOrThrow();
    expect(row.secret.startsWith("v1.")).toBe(true);
    expect(row.secret).not.toContain(key);
    expect(row.enabled_at).toBeNull();

    const typed = await wrongCode(key);
    const wrong = await visitor.send("/admin/profile/two-factor", { intent: "confirm", code: typed });
    expect(wrong.status).toBe(422);
    const wrongPage = await wrong.text();
    expect(wrongPage).toContain("Код не підійшов");
    expect(wrongPage).not.toContain(typed);
    expect(wrongPage).toMatch(/aria-describedby="code-error/);
    expect((await visitor.send("/admin/profile/two-factor", { intent: "confirm", code: "12ab" })).status).toBe(422);

    const right = await visitor.send("/admin/profile/two-factor", { intent: "confirm", code: await codeFor(key) });
    expect(right.status).toBe(200);
    const codes = [...new Set((await right.text()).match(/\b[0-9a-z]{4}-[0-9a-z]{4}-[0-9a-z]{4}-[0-9a-z]{4}\b/g))];
    expect(codes).toHaveLength(10);

    const stored = await db.selectFrom("user_recovery_codes").select(["code_hash", "used_at"]).where("user_id", "=", id).execute();
    expect(stored).toHaveLength(10);
    const hashes = codes.map((c) => createHash("sha256").update(c.replace(/-/g, "")).digest("hex"));
    expect(stored.map((s) => s.code_hash).sort()).toEqual(hashes.sort());
    expect((await db.selectFrom("user_two_factor").select("enabled_at").where("user_id", "=", id).executeTakeFirstOrThrow()).enabled_at).not.toBeNull();

    // Shown once: the screen now says how many are left, never the codes.
    const after = await visitor.html("/admin/profile/two-factor");
    expect(after).toContain("Невикористаних кодів відновлення: <strong>10</strong> з");
    for (const code of codes) expect(after).not.toContain(code);
    expect(await visitor.html("/admin/profile")).toContain("Керувати двофакторною перевіркою");
    // Starting again does not overwrite an enrolment.
    expect((await visitor.send("/admin/profile/two-factor", { intent: "start" })).status).toBe(409);
    // An unknown intent changes nothing.
    const forged = await visitor.send("/admin/profile/two-factor", { intent: "toString" });
    expect(forged.status).toBe(400);
    expect(await forged.text()).toContain("Невідома дія");
  });

  it("sign-in of an enrolled person is two steps: the password gives no session, the code does", async () => {
    const visitor = await signIn("tf-reporter");
    const { key } = await enrol(visitor);

    const browser = await passwordStep("tf-reporter", new Visitor());
    expect(browser.cookies.has("__signin")).toBe(true);
    expect(browser.cookies.has("__session")).toBe(false);
    // Half-signed-in is nobody: no screen, no API.
    expect((await browser.send("/admin/dashboard")).headers.get("Location")).toMatch(/^\/admin\/login\?redirectTo=/);
    expect((await browser.send("/api/auth/me")).status).toBe(401);
    const challenge = await db
      .selectFrom("sign_in_challenges")
      .selectAll()
      .where("user_id", "=", await userId("tf-reporter"))
      .executeTakeFirstOrThrow();
    expect(Date.parse(challenge.expires_at) - Date.now()).toBeGreaterThan(4 * 60_000);
    expect(Date.parse(challenge.expires_at) - Date.now()).toBeLessThanOrEqual(5 * 60_000);
    expect(challenge.id).not.toBe(browser.cookies.get("__signin"));

    const screen = await browser.html("/admin/login/code");
    expect(screen).toContain("Двофакторна перевірка");
    expect(screen).toMatch(/autocomplete="one-time-code"/i);
    expect(screen).toMatch(/inputmode="numeric"/i);
    expect(screen).toContain('aria-describedby="code-hint"');

    // The next step's code (the app's clock may run ahead by one step).
    const res = await browser.send("/admin/login/code", { intent: "code", code: await codeFor(key, now() + 30) });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/admin/dashboard");
    expect(browser.cookies.has("__session")).toBe(true);
    expect(browser.cookies.has("__signin")).toBe(false);
    expect(await signedIn(browser)).toBe(true);
    expect(await db.selectFrom("sign_in_challenges").select("id").where("id", "=", challenge.id).executeTakeFirst()).toBeUndefined();
  });

  it("a code works once: the same code, or one of an earlier step, is refused; a recovery code works once", async () => {
    const visitor = await signIn("tf-twice");
    const { key, codes } = await enrol(visitor);
    const used = await codeFor(key, now() + 30);
    const first = await passwordStep("tf-twice");
    expect((await first.send("/admin/login/code", { intent: "code", code: used })).status).toBe(302);

    const second = await passwordStep("tf-twice");
    for (const code of [used, await codeFor(key), await codeFor(key, now() - 30)]) {
      const res = await second.send("/admin/login/code", { intent: "code", code });
      expect(res.status).toBe(401);
      const text = await res.text();
      expect(text).toContain("Код не підійшов");
      expect(text).not.toContain(`value="${code}"`);
    }
    expect(await signedIn(second)).toBe(false);

    // A recovery code, typed loosely (capitals, spaces), signs in once.
    const loose = codes[0].toUpperCase().replace(/-/g, " ");
    const ok = await second.send("/admin/login/code", { intent: "recovery", recovery_code: loose });
    expect(ok.status).toBe(302);
    expect(await signedIn(second)).toBe(true);
    const third = await passwordStep("tf-twice");
    const again = await third.send("/admin/login/code", { intent: "recovery", recovery_code: codes[0] });
    expect(again.status).toBe(401);
    expect(await again.text()).toContain("Код не підійшов");
    const left = await db
      .selectFrom("user_recovery_codes")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("user_id", "=", await userId("tf-twice"))
      .where("used_at", "is", null)
      .executeTakeFirstOrThrow();
    expect(Number(left.n)).toBe(9);
  });

  it("wrong codes count as failed sign-ins: the lockout closes the code screen and the password screen (429, Retry-After); a right password does not reset the count", async () => {
    const visitor = await signIn("tf-locked");
    const { key, codes } = await enrol(visitor);
    const ip = freshIp();
    // Three wrong codes, a fresh password step (right password: the count goes on), two more.
    let browser = await passwordStep("tf-locked", new Visitor(ip));
    for (let i = 0; i < 3; i++) expect((await browser.send("/admin/login/code", { intent: "code", code: await wrongCode(key) })).status).toBe(401);
    browser = await passwordStep("tf-locked", new Visitor(ip));
    for (let i = 0; i < 2; i++)
      expect((await browser.send("/admin/login/code", { intent: "recovery", recovery_code: "aaaa-bbbb-cccc-dddd" })).status).toBe(401);

    // Five failures: the right code is refused too, with the same Ukrainian message and Retry-After.
    const locked = await browser.send("/admin/login/code", { intent: "recovery", recovery_code: codes[1] });
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get("Retry-After"))).toBeGreaterThan(14 * 60);
    expect(await locked.text()).toContain("Забагато невдалих спроб входу");
    const password = await new Visitor(ip).send("/admin/login", { username: "tf-locked", password: PASSWORD });
    expect(password.status).toBe(429);
    expect(password.headers.get("Retry-After")).toBeTruthy();
    // The refused code was not spent; from another address the person signs in.
    const elsewhere = await passwordStep("tf-locked");
    expect((await elsewhere.send("/admin/login/code", { intent: "recovery", recovery_code: codes[1] })).status).toBe(302);
  });

  it("the half-signed-in state ends after five minutes: back to the password", async () => {
    const visitor = await signIn("tf-late");
    const { codes } = await enrol(visitor);
    const browser = await passwordStep("tf-late");
    await db
      .updateTable("sign_in_challenges")
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where("user_id", "=", await userId("tf-late"))
      .execute();
    const res = await browser.send("/admin/login/code", { intent: "recovery", recovery_code: codes[0] });
    expect(res.status, res.headers.get("Location") ?? "").toBe(401);
    expect(await res.text()).toContain("Час на введення коду минув");
    expect(await browser.html("/admin/login/code")).toContain("Час на введення коду минув");
    expect(await signedIn(browser)).toBe(false);
    // Without the cookie at all there is no sign-in to finish either.
    expect(await new Visitor().html("/admin/login/code")).toContain("Час на введення коду минув");
    expect((await new Visitor().send("/admin/login/code", { intent: "code", code: "123456" })).status).toBe(401);
  });

  it("new recovery codes need the password; the old ones stop working, the new ones work", async () => {
    const visitor = await signIn("tf-renew");
    const { codes: old } = await enrol(visitor);
    const refused = await visitor.send("/admin/profile/two-factor", { intent: "renew", password: "not-mine-at-all" });
    expect(refused.status).toBe(422);
    expect(await refused.text()).toContain("Пароль невірний");
    const res = await visitor.send("/admin/profile/two-factor", { intent: "renew", password: PASSWORD });
    expect(res.status).toBe(200);
    const fresh = [...new Set((await res.text()).match(/\b[0-9a-z]{4}-[0-9a-z]{4}-[0-9a-z]{4}-[0-9a-z]{4}\b/g))];
    expect(fresh).toHaveLength(10);
    expect(fresh.some((c) => old.includes(c))).toBe(false);
    const browser = await passwordStep("tf-renew");
    expect((await browser.send("/admin/login/code", { intent: "recovery", recovery_code: old[0] })).status).toBe(401);
    expect((await browser.send("/admin/login/code", { intent: "recovery", recovery_code: fresh[0] })).status).toBe(302);
  });

  it("turning it off needs the password, ends the person's other sessions, and sign-in asks only the password again", async () => {
    const visitor = await signIn("tf-off");
    const { key } = await enrol(visitor);
    const other = await passwordStep("tf-off");
    expect((await other.send("/admin/login/code", { intent: "code", code: await codeFor(key, now() + 30) })).status).toBe(302);
    expect(await signedIn(other)).toBe(true);

    const refused = await visitor.send("/admin/profile/two-factor", { intent: "disable", password: "not-mine-at-all" });
    expect(refused.status).toBe(422);
    const refusedPage = await refused.text();
    expect(refusedPage).toContain("Пароль невірний");
    expect(refusedPage).not.toContain("not-mine-at-all");
    expect(await signedIn(other)).toBe(true);

    const res = await visitor.send("/admin/profile/two-factor", { intent: "disable", password: PASSWORD });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/admin/profile");
    expect(await visitor.html("/admin/profile")).toContain("Двофакторну перевірку вимкнено. Інші ваші сеанси завершено.");
    expect(await signedIn(other)).toBe(false);
    const id = await userId("tf-off");
    expect(await db.selectFrom("user_two_factor").select("user_id").where("user_id", "=", id).executeTakeFirst()).toBeUndefined();
    expect(await db.selectFrom("user_recovery_codes").select("id").where("user_id", "=", id).executeTakeFirst()).toBeUndefined();
    const again = await new Visitor().send("/admin/login", { username: "tf-off", password: PASSWORD });
    expect(again.headers.get("Location")).toBe("/admin/dashboard");
  });

  it("every change of a second factor is in the audit log (enable, new codes, disable, a wrong code), never a code or key", async () => {
    const visitor = await signIn("tf-audit");
    const { key, codes } = await enrol(visitor);
    expect((await visitor.send("/admin/profile/two-factor", { intent: "renew", password: PASSWORD })).status).toBe(200);
    const browser = await passwordStep("tf-audit");
    expect((await browser.send("/admin/login/code", { intent: "code", code: "000000" })).status).toBe(401);
    expect((await visitor.send("/admin/profile/two-factor", { intent: "disable", password: PASSWORD })).status).toBe(302);
    const id = await userId("tf-audit");
    const entries = await db.selectFrom("audit_log").selectAll().where("object_id", "=", id).orderBy("id").execute();
    const actions = entries.map((e) => e.action);
    expect(actions).toEqual(expect.arrayContaining(["user.two_factor_enable", "user.recovery_codes_renew", "user.two_factor_disable", "auth.sign_in_failed"]));
    expect(entries.find((e) => e.action === "auth.sign_in_failed")?.details).toContain('"reason":"code"');
    const everything = JSON.stringify(entries);
    for (const secret of [key, ...codes, PASSWORD]) expect(everything).not.toContain(secret);
  });
});

describe("Settings → Security: who must use two-factor", () => {
  it("is saved and shown; a person it covers is sent to enrolment after the password and can do nothing else until enrolled, except sign out", async () => {
    const admin = await signIn("req-admin");
    const settings = await admin.html("/admin/settings?tab=security");
    expect(settings).toContain("Require two-factor sign-in for");
    for (const label of ["Нікого (за бажанням)", "Адміністраторів", "Адміністраторів і редакторів", "Усіх"]) expect(settings).toContain(label);
    // A token the editor had before the rule.
    const token = (await (await postJson("/api/auth/login", { username: "req-editor", password: PASSWORD }, { ip: freshIp() })).json()).access_token;

    // The admin who sets it is not enrolled either: the saved screen itself already sends them to enrolment.
    const saved = await requireFor(admin, "admin-editor");
    expect(saved.status).toBe(302);
    expect(saved.headers.get("Location")).toBe("/admin/profile/two-factor");
    expect((await admin.send("/admin/dashboard")).headers.get("Location")).toBe("/admin/profile/two-factor");
    await enrol(admin);
    expect(await signedIn(admin)).toBe(true);
    expect(await admin.html("/admin/settings?tab=security")).toMatch(/<option value="admin-editor" selected="">/);

    const editor = new Visitor();
    const res = await editor.send("/admin/login", { username: "req-editor", password: PASSWORD });
    expect(res.headers.get("Location")).toBe("/admin/profile/two-factor");
    for (const path of ["/admin/dashboard", "/admin/articles", "/admin/profile", "/admin/categories"]) {
      const answer = await editor.send(path);
      expect(answer.status, path).toBe(302);
      expect(answer.headers.get("Location"), path).toBe("/admin/profile/two-factor");
    }
    const write = await editor.send("/admin/categories", { intent: "create", name: "Не зараз", description: "" });
    expect(write.headers.get("Location")).toBe("/admin/profile/two-factor");
    const page = await editor.html("/admin/profile/two-factor");
    expect(page).toContain("Адміністратор сайту вимагає двофакторну перевірку для вашої ролі");
    expect(page).not.toContain('href="/admin/articles"');
    expect(page).toContain("Вийти");
    // The API: no new token, and the old one is refused until enrolment; signing out works.
    const api = await postJson("/api/auth/login", { username: "req-editor", password: PASSWORD }, { ip: freshIp() });
    expect(api.status).toBe(403);
    expect((await api.json()).detail).toMatch(/налаштуйте двофакторну перевірку/);
    const me = await request("/api/auth/me", { headers: { Authorization: `Bearer ${token}` } });
    expect(me.status).toBe(403);

    // A role it does not cover signs in as before.
    const reporter = new Visitor();
    expect((await reporter.send("/admin/login", { username: "req-reporter", password: PASSWORD })).headers.get("Location")).toBe("/admin/dashboard");

    // Signing out is the one other thing a person sent to enrolment may do.
    const another = new Visitor();
    await another.send("/admin/login", { username: "req-editor", password: PASSWORD });
    const out = await another.send("/admin/logout", {});
    expect(out.headers.get("Location")).toBe("/admin/login");
    expect(another.cookies.has("__session")).toBe(false);

    await enrol(editor);
    expect(await signedIn(editor)).toBe(true);
    expect((await request("/api/auth/me", { headers: { Authorization: `Bearer ${token}` } })).status).toBe(200);

    // "Everyone" covers reporters; "admin" no longer covers editors or reporters.
    expect((await requireFor(admin, "everyone")).status).toBe(200);
    expect((await reporter.send("/admin/dashboard")).headers.get("Location")).toBe("/admin/profile/two-factor");
    expect((await requireFor(admin, "admin")).status).toBe(200);
    expect(await signedIn(reporter)).toBe(true);
    const logout = await request("/api/auth/logout", { method: "POST", headers: { Authorization: `Bearer ${token}` } });
    expect(logout.status).toBe(204);
    expect((await requireFor(admin, "nobody")).status).toBe(200);
  });
});

describe("POST /api/auth/login asks for otp", () => {
  let key = "";
  let codes: string[] = [];
  beforeAll(async () => {
    ({ key, codes } = await enrol(await signIn("api-2fa")));
  });

  it("401 {detail, otp_required: true} without it or with a wrong one; the token with a right one; a code once", async () => {
    const ip = freshIp();
    const missing = await postJson("/api/auth/login", { username: "api-2fa", password: PASSWORD }, { ip });
    expect(missing.status).toBe(401);
    const body = await missing.json();
    expect(body).toEqual({ detail: expect.stringContaining("otp"), otp_required: true });

    const wrong = await postJson("/api/auth/login", { username: "api-2fa", password: PASSWORD, otp: await wrongCode(key) }, { ip });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual({ detail: expect.stringContaining("Код не підійшов"), otp_required: true });

    // A wrong password is the usual 401, with no hint that a code would be asked.
    const badPassword = await postJson("/api/auth/login", { username: "api-2fa", password: "not-the-one", otp: await codeFor(key) }, { ip: freshIp() });
    expect(badPassword.status).toBe(401);
    expect(await badPassword.json()).toEqual({ detail: "Невірне ім'я користувача або пароль" });

    const otp = await codeFor(key, now() + 30);
    const ok = await postJson("/api/auth/login", { username: "api-2fa", password: PASSWORD, otp }, { ip });
    expect(ok.status).toBe(200);
    const { access_token, token_type } = await ok.json();
    expect(token_type).toBe("bearer");
    expect((await request("/api/auth/me", { headers: { Authorization: `Bearer ${access_token}` } })).status).toBe(200);

    const reused = await postJson("/api/auth/login", { username: "api-2fa", password: PASSWORD, otp }, { ip });
    expect(reused.status).toBe(401);
    expect((await reused.json()).otp_required).toBe(true);

    const recovery = await postJson("/api/auth/login", { username: "api-2fa", password: PASSWORD, otp: codes[2] }, { ip: freshIp() });
    expect(recovery.status).toBe(200);
  });

  it("400 for malformed JSON, 422 for an otp that is not a string or is too long; otp is ignored for someone without a second factor", async () => {
    expect((await postJson("/api/auth/login", '{"username":"api-2fa","password":')).status).toBe(400);
    for (const otp of [123456, "", "x".repeat(65), ["123456"]]) {
      const res = await postJson("/api/auth/login", { username: "api-2fa", password: PASSWORD, otp }, { ip: freshIp() });
      expect(res.status, JSON.stringify(otp)).toBe(422);
      expect(Object.keys((await res.json()).errors)).toEqual(["otp"]);
    }
    const plain = await postJson("/api/auth/login", { username: "api-plain", password: PASSWORD, otp: "123456" }, { ip: freshIp() });
    expect(plain.status).toBe(200);
  });

  it("wrong codes lock the username at that address: 429 with Retry-After, even with the right code", async () => {
    const { key: lockedKey } = await enrol(await signIn("api-locked"));
    const ip = freshIp();
    for (let i = 0; i < 5; i++) {
      const res = await postJson("/api/auth/login", { username: "api-locked", password: PASSWORD, otp: await wrongCode(lockedKey) }, { ip });
      expect(res.status).toBe(401);
    }
    const locked = await postJson("/api/auth/login", { username: "api-locked", password: PASSWORD, otp: await codeFor(lockedKey, now() + 30) }, { ip });
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect((await locked.json()).detail).toMatch(/Забагато невдалих спроб входу/);
    // The bearer session records where it signed in from.
    const other = await postJson(
      "/api/auth/login",
      { username: "api-locked", password: PASSWORD, otp: await codeFor(lockedKey, now() + 30) },
      { ip: "192.0.2.201" },
    );
    expect(other.status).toBe(200);
    const row = await db
      .selectFrom("sessions")
      .select(["ip", "kind"])
      .where("user_id", "=", await userId("api-locked"))
      .where("kind", "=", "bearer")
      .executeTakeFirstOrThrow();
    expect(row.ip).toBe("192.0.2.201");
  });
});
