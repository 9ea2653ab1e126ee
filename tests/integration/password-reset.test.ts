import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPasswordReset } from "../../app/models/password-reset.server";
import { createUser } from "../../app/models/user.server";
import { db } from "../../db/index";
import { migrated, postJson, request, sendJson, tokenFor } from "../helpers";
import { linkIn, messagesTo, startSmtp, type TestSmtp } from "../smtp";

// Issue 31 item 20: "Forgot password" by email, with a real SMTP server in this process. The same
// answer for a known and an unknown address; the link works once, within an hour, and using it
// ends every session of the person; at most three links an hour per person.

let smtp: TestSmtp;
const NEW_PASSWORD = "Zelenyi-Kit-na-Dahu-2026";
const SAME_ANSWER = "Якщо ця адреса належить користувачеві сайту";

beforeAll(async () => {
  smtp = await startSmtp();
  process.env.SMTP_URL = smtp.url;
  await migrated();
  await createUser({ username: "reset-me", email: "Reset.Me@example.com", password: "correct-horse", role: "editor" });
});

afterAll(async () => {
  const { closeMail } = await import("../../app/services/mail.server");
  closeMail();
  await smtp.close();
});

const ask = async (email: string) => {
  const res = await request("/admin/forgot-password", { method: "POST", body: new URLSearchParams({ email }) });
  return { status: res.status, text: await res.text() };
};
const pathOf = (link: string) => `${new URL(link).pathname}${new URL(link).search}`;
const settle = () => new Promise((r) => setTimeout(r, 400));

describe("forgot password", () => {
  it("the login page links to it, and its page asks for an email", async () => {
    expect(await (await request("/admin/login")).text()).toContain('href="/admin/forgot-password"');
    const page = await (await request("/admin/forgot-password")).text();
    expect(page).toContain("Надіслати посилання");
  });

  it("answers the same for an unknown address and sends nothing", async () => {
    const unknown = await ask("nobody@example.com");
    expect(unknown.status).toBe(200);
    expect(unknown.text).toContain(SAME_ANSWER);
    await settle();
    expect(smtp.messages).toHaveLength(0);
    expect((await ask("not an email")).status).toBe(422);
  });

  it("mails a link that sets a new password once and ends every session of the person", async () => {
    const bearer = await tokenFor("reset-me");
    expect((await sendJson("GET", "/api/auth/me", bearer)).status).toBe(200);

    const known = await ask("reset.me@EXAMPLE.com");
    expect(known.status).toBe(200);
    expect(known.text).toContain(SAME_ANSWER);
    const [mail] = await smtp.waitFor(1);
    expect(mail.to).toEqual(["Reset.Me@example.com"]);
    expect(mail.mail.subject).toBe("Відновлення пароля — Наука UA");
    expect(mail.mail.text).toContain("одну годину");
    expect(mail.mail.html).toContain("Задати новий пароль");
    const link = pathOf(linkIn(mail, "/admin/reset-password?token="));
    const token = new URL(link, "http://x").searchParams.get("token")!;
    expect(await db.selectFrom("password_resets").select("token_hash").where("token_hash", "=", token).executeTakeFirst()).toBeUndefined();

    expect(await (await request(link)).text()).toContain("Зберегти пароль");
    const mismatch = await request(link, { method: "POST", body: new URLSearchParams({ token, password: NEW_PASSWORD, confirm: "інший" }) });
    expect(mismatch.status).toBe(422);
    expect(await mismatch.text()).toContain("Паролі не збігаються");

    const done = await request(link, { method: "POST", body: new URLSearchParams({ token, password: NEW_PASSWORD, confirm: NEW_PASSWORD }) });
    expect(done.status).toBe(200);
    expect(await done.text()).toContain("Пароль змінено");
    // The session from before is over; the new password signs in; the old one does not.
    expect((await sendJson("GET", "/api/auth/me", bearer)).status).toBe(401);
    expect((await postJson("/api/auth/login", { username: "reset-me", password: NEW_PASSWORD }, { ip: "198.51.100.77" })).status).toBe(200);
    expect((await postJson("/api/auth/login", { username: "reset-me", password: "correct-horse" }, { ip: "198.51.100.78" })).status).toBe(401);

    // Once only.
    const again = await request(link, {
      method: "POST",
      body: new URLSearchParams({ token, password: "Inshyi-Parol-2026-x", confirm: "Inshyi-Parol-2026-x" }),
    });
    expect(again.status).toBe(410);
    expect(await (await request(link)).text()).toContain("Посилання недійсне");

    const audit = await db.selectFrom("audit_log").select(["username", "details"]).where("action", "=", "user.password_reset").execute();
    expect(audit).toHaveLength(1);
    expect(audit[0].username).toBe("reset-me");
    expect(audit[0].details).not.toContain(token);
  });

  it("a link older than an hour does not work", async () => {
    const user = await db.selectFrom("users").select("id").where("username", "=", "reset-me").executeTakeFirstOrThrow();
    const token = (await createPasswordReset({ userId: user.id, now: new Date(Date.now() - 61 * 60_000) }))!;
    expect(await (await request(`/admin/reset-password?token=${token}`)).text()).toContain("Посилання недійсне");
    const late = await request("/admin/reset-password", {
      method: "POST",
      body: new URLSearchParams({ token, password: NEW_PASSWORD + "x", confirm: NEW_PASSWORD + "x" }),
    });
    expect(late.status).toBe(410);
  });

  it("sends at most three links an hour to one person, with the same answer every time", async () => {
    const before = messagesTo(smtp, "Reset.Me@example.com").length;
    // Four at once: the limit holds however they interleave.
    const answers = await Promise.all(Array.from({ length: 4 }, () => ask("Reset.Me@example.com")));
    for (const answer of answers) expect(answer.text).toContain(SAME_ANSWER);
    await smtp.waitFor(before + 2);
    await settle();
    // One link was made earlier this hour: two more, and the fourth ask sends nothing.
    expect(messagesTo(smtp, "Reset.Me@example.com").length).toBe(before + 2);
  });
});
