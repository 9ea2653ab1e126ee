import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createIssue, saveDigestSchedule, sweepSends } from "../../app/models/newsletter-issue.server";
import { confirmSubscription, subscribe } from "../../app/models/newsletter.server";
import { runDigest, sendDueMail } from "../../app/services/newsletter.server";
import { db } from "../../db/index";
import { migrated, request, TEST_ACTOR } from "../helpers";
import { linkIn, startSmtp, type TestSmtp } from "../smtp";

// Issue 28 items 3–4 with a real SMTP server in this process (tests/smtp.ts): subscribe, confirm,
// a second subscribe, an expired link, unsubscribe by the page, the weekly digest at its hour with
// the week's articles, pacing, and a mail server that is down (retries, then failed). The
// one-click POST and a restart mid-send run against the real server: newsletter-restart.test.ts.

let smtp: TestSmtp;

beforeAll(async () => {
  smtp = await startSmtp();
  process.env.SMTP_URL = smtp.url;
  process.env.MAIL_FROM = '"Наука UA" <news@example.org>';
  process.env.MAIL_RATE_PER_MINUTE = "2";
  await migrated();
});

afterAll(async () => {
  const { closeMail } = await import("../../app/services/mail.server");
  closeMail();
  await smtp.close();
});

const pathOf = (link: string) => {
  const url = new URL(link);
  return `${url.pathname}${url.search}`;
};

async function subscribeForm(email: string) {
  const res = await request("/newsletter", { method: "POST", body: new URLSearchParams({ email }) });
  return { status: res.status, text: await res.text() };
}

const statusOf = async (email: string) =>
  (await db.selectFrom("newsletter_subscribers").select("status").where("email_key", "=", email.toLowerCase()).executeTakeFirst())?.status;

describe("subscribing (double opt-in)", () => {
  it("mails a confirmation link once; the link confirms; a second subscribe sends nothing while the link is valid", async () => {
    const first = await subscribeForm("Reader.One@example.com");
    expect(first.status).toBe(200);
    expect(first.text).toContain("Майже готово");
    const [mail] = await smtp.waitFor(1);
    expect(mail.to).toEqual(["Reader.One@example.com"]);
    expect(mail.mail.subject).toBe("Підтвердіть підписку на розсилку «Наука UA»");
    expect(mail.mail.text).toContain("48 годин");
    expect(mail.mail.html).toContain("Підтвердити підписку");
    expect(await statusOf("reader.one@example.com")).toBe("pending");

    // The same address again, in another case: no second email, a kind word instead.
    const again = await subscribeForm("reader.one@EXAMPLE.com");
    expect(again.status).toBe(200);
    expect(again.text).toContain("повторно не надсилаємо");
    await new Promise((r) => setTimeout(r, 300));
    expect(smtp.messages).toHaveLength(1);

    const confirm = await request(pathOf(linkIn(mail, "/newsletter/confirm?token=")));
    expect(confirm.status).toBe(200);
    expect(await confirm.text()).toContain("Підписку підтверджено");
    expect(await statusOf("reader.one@example.com")).toBe("confirmed");
    // Opening the link again changes nothing and says the same.
    expect((await request(pathOf(linkIn(mail, "/newsletter/confirm?token=")))).status).toBe(200);
    // A confirmed address is not mailed again either.
    expect((await subscribeForm("reader.one@example.com")).text).toContain("повторно не надсилаємо");
    expect(smtp.messages).toHaveLength(1);
  });

  it("refuses a malformed address and an unknown token", async () => {
    const bad = await subscribeForm("not-an-email<script>");
    expect(bad.status).toBe(422);
    expect(bad.text).toContain("Невірний формат email");
    expect(bad.text).not.toContain("<script>");
    expect((await request("/newsletter/confirm?token=nope")).status).toBe(404);
  });

  it("a link older than 48 hours no longer confirms; subscribing again sends a new one", async () => {
    const long = new Date(Date.now() - 49 * 3_600_000);
    const outcome = await subscribe({ email: "late@example.com", now: long });
    expect(outcome.kind).toBe("confirm");
    const token = outcome.kind === "confirm" ? outcome.token : "";
    const page = await request(`/newsletter/confirm?token=${token}`);
    expect(page.status).toBe(410);
    expect(await page.text()).toContain("застаріло");
    expect(await statusOf("late@example.com")).toBe("pending");
    expect(await confirmSubscription({ token })).toBe("expired");

    const before = smtp.messages.length;
    expect((await subscribeForm("late@example.com")).text).toContain("Майже готово");
    const [mail] = (await smtp.waitFor(before + 1)).slice(before);
    expect(mail.to).toEqual(["late@example.com"]);
    expect((await request(pathOf(linkIn(mail, "/newsletter/confirm?token=")))).status).toBe(200);
    expect(await statusOf("late@example.com")).toBe("confirmed");
  });
});

describe("unsubscribing by the link's page", () => {
  it("shows the address and a button (a GET removes nobody); the button's POST deletes the row", async () => {
    const row = await db
      .selectFrom("newsletter_subscribers")
      .select(["unsubscribe_token"])
      .where("email_key", "=", "late@example.com")
      .executeTakeFirstOrThrow();
    const page = await request(`/newsletter/unsubscribe?token=${row.unsubscribe_token}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("late@example.com");
    expect(html).toContain("Відписатися");
    expect(await statusOf("late@example.com")).toBe("confirmed");

    const done = await request("/newsletter/unsubscribe", { method: "POST", body: new URLSearchParams({ token: row.unsubscribe_token }) });
    expect(done.status).toBe(200);
    expect(await done.text()).toContain("видалено зі списку");
    expect(await statusOf("late@example.com")).toBeUndefined();
    // The link again: nobody there.
    expect(await (await request(`/newsletter/unsubscribe?token=${row.unsubscribe_token}`)).text()).toContain("Цієї адреси немає");
  });
});

// Kyiv is UTC+2 in November: Wednesday 09:00 Kyiv is 07:00 UTC.
const WEDNESDAY_9_KYIV = new Date("2026-11-25T07:00:00.000Z");

async function article(title: string, publishedAt: string, status = "published") {
  const id = randomUUID();
  await db
    .insertInto("articles")
    .values({
      id,
      slug: `nl-${id.slice(0, 8)}`,
      title,
      subtitle: null,
      category_id: null,
      author_id: null,
      status: status as "published",
      published_at: publishedAt,
      created_at: publishedAt,
      updated_at: publishedAt,
      updated_by: null,
      seo_title: null,
      seo_description: null,
      meta_keywords: null,
      og_image: null,
      canonical_url: null,
      featured_image: null,
      featured_image_alt: null,
      featured_image_caption: null,
    })
    .execute();
  return id;
}

describe("the weekly digest", () => {
  it("is made at its day and hour (Kyiv), once a week, with the week's most-read and newest articles", async () => {
    await saveDigestSchedule({ value: { digest_enabled: true, digest_day: 3, digest_hour: 9 }, actor: TEST_ACTOR });
    const audited = await db.selectFrom("audit_log").select("details").where("action", "=", "settings.save").execute();
    expect(JSON.parse(audited.at(-1)!.details!).keys).toEqual(["newsletter.digest_day"]);
    const newest = await article("Свіжа стаття тижня", "2026-11-24T10:00:00.000Z");
    const read = await article("Популярна стаття тижня", "2026-11-20T10:00:00.000Z");
    const oldButRead = await article("Стара, але найчитаніша", "2026-11-01T10:00:00.000Z");
    await article("Стаття з майбутнього", "2026-11-26T10:00:00.000Z");
    await article("Давня стаття без переглядів", "2026-11-01T09:00:00.000Z");
    await article("Чернетка", "2026-11-24T11:00:00.000Z", "draft");
    await db
      .insertInto("page_views")
      .values([
        { day: "2026-11-23", path: "/a", article_id: oldButRead, views: 500 },
        { day: "2026-11-22", path: "/b", article_id: read, views: 100 },
        { day: "2026-10-01", path: "/c", article_id: newest, views: 9999 },
      ])
      .execute();

    expect(await runDigest({ now: new Date(WEDNESDAY_9_KYIV.getTime() - 60_000) })).toBeUndefined();
    expect(await runDigest({ now: new Date("2026-11-24T07:00:00.000Z") })).toBeUndefined();
    const made = await runDigest({ now: WEDNESDAY_9_KYIV });
    expect(made?.queued).toBe(1);
    // Later that day (or from another process): the week has its digest.
    expect(await runDigest({ now: new Date(WEDNESDAY_9_KYIV.getTime() + 3_600_000) })).toBeUndefined();

    const before = smtp.messages.length;
    expect(await sendDueMail({ now: WEDNESDAY_9_KYIV })).toBe(1);
    const [mail] = (await smtp.waitFor(before + 1)).slice(before);
    expect(mail.to).toEqual(["Reader.One@example.com"]);
    expect(mail.mail.subject).toBe("Наука UA: головне за тиждень");
    const text = mail.mail.text ?? "";
    expect(text.indexOf("Стара, але найчитаніша")).toBeLessThan(text.indexOf("Популярна стаття тижня"));
    expect(text).toContain("Найчитаніше за тиждень");
    expect(text).toContain("Нове за тиждень");
    expect(text).toContain("Свіжа стаття тижня");
    for (const absent of ["Стаття з майбутнього", "Давня стаття без переглядів", "Чернетка"]) expect(text).not.toContain(absent);
    expect(mail.mail.html).toContain("Свіжа стаття тижня");
    // Every newsletter email: both parts, the unsubscribe link and RFC 8058's two headers.
    const unsubscribe = linkIn(mail, "/newsletter/unsubscribe?token=");
    expect(mail.raw).toContain("List-Unsubscribe-Post: List-Unsubscribe=One-Click\r\n");
    // Long headers are folded (RFC 5322): read them unfolded.
    expect(mail.raw.replace(/\r\n[ \t]+/g, " ")).toContain(`List-Unsubscribe: <${unsubscribe}>`);
    expect(mail.mail.html).toContain(unsubscribe);

    // Each issue is in the audit log, by the system for the digest.
    const sends = await db.selectFrom("audit_log").select(["username", "details"]).where("action", "=", "newsletter.send").execute();
    expect(sends).toHaveLength(1);
    expect(sends[0].username).toBeNull();
    expect(JSON.parse(sends[0].details!)).toEqual({ kind: "digest", recipients: 1 });

    // The next week's digest comes on the next Wednesday.
    expect(await runDigest({ now: new Date(WEDNESDAY_9_KYIV.getTime() + 7 * 24 * 3_600_000) })).toBeDefined();
  });
});

describe("the send queue", () => {
  it("sends each subscriber one copy, at the set pace", async () => {
    await db.deleteFrom("newsletter_queue").execute();
    for (const email of ["pace1@example.com", "pace2@example.com"]) {
      const outcome = await subscribe({ email });
      if (outcome.kind === "confirm") await confirmSubscription({ token: outcome.token });
    }
    const at = new Date("2026-12-01T10:00:00.000Z");
    const issue = await createIssue({
      content: { kind: "article", subject: "Термінова новина", html: "<p>Новина</p><a href='{{unsubscribe_url}}'>x</a>", text: "Новина {{unsubscribe_url}}" },
      now: at,
    });
    expect(issue?.queued).toBe(3);
    const before = smtp.messages.length;
    // MAIL_RATE_PER_MINUTE=2: two in this minute, however often the sender asks.
    expect(await sendDueMail({ now: at, limit: 10 })).toBe(2);
    expect(await sendDueMail({ now: new Date(at.getTime() + 30_000), limit: 10 })).toBe(0);
    expect(await sendDueMail({ now: new Date(at.getTime() + 61_000), limit: 10 })).toBe(1);
    expect(await sendDueMail({ now: new Date(at.getTime() + 200_000), limit: 10 })).toBe(0);
    const got = (await smtp.waitFor(before + 3)).slice(before);
    expect(got.map((m) => m.to[0]).sort()).toEqual(["Reader.One@example.com", "pace1@example.com", "pace2@example.com"]);
    await sweepSends({ now: new Date(at.getTime() + 200_000) });
    const log = await db.selectFrom("newsletter_issues").select("status").where("id", "=", issue!.id).executeTakeFirstOrThrow();
    expect(log.status).toBe("done");
  });

  it("retries an address while the mail server is down, three attempts in all, then marks it failed", async () => {
    await db.deleteFrom("newsletter_queue").execute();
    await db.deleteFrom("newsletter_subscribers").where("email_key", "!=", "pace1@example.com").execute();
    const at = new Date("2026-12-02T10:00:00.000Z");
    const issue = await createIssue({ content: { kind: "article", subject: "Поки пошта лежить", html: "<p>x</p>", text: "x" }, now: at });
    expect(issue?.queued).toBe(1);
    smtp.refuse = "451 Mailbox temporarily unavailable";
    const row = () =>
      db.selectFrom("newsletter_queue").select(["status", "attempts", "last_error"]).where("issue_id", "=", issue!.id).executeTakeFirstOrThrow();
    expect(await sendDueMail({ now: at })).toBe(0);
    expect(await row()).toMatchObject({ status: "queued", attempts: 1 });
    // Not before its time: the retry waits a minute.
    expect(await sendDueMail({ now: new Date(at.getTime() + 30_000) })).toBe(0);
    expect((await row()).attempts).toBe(1);
    expect(await sendDueMail({ now: new Date(at.getTime() + 61_000) })).toBe(0);
    expect(await row()).toMatchObject({ status: "queued", attempts: 2 });
    expect(await sendDueMail({ now: new Date(at.getTime() + 200_000) })).toBe(0);
    const failed = await row();
    expect(failed).toMatchObject({ status: "failed", attempts: 3 });
    expect(failed.last_error).toContain("Mailbox temporarily unavailable");
    smtp.refuse = undefined;
    // Failed stays failed: no fourth attempt.
    expect(await sendDueMail({ now: new Date(at.getTime() + 3_600_000) })).toBe(0);

    // And a mail server that is not there at all: the same retries, the connection error kept.
    const down = await startSmtp();
    await down.close();
    process.env.SMTP_URL = down.url;
    const { getEnv } = await import("../../app/utils/env.server");
    // getEnv keeps its parse per data folder; the test changes the variable under it on purpose.
    (getEnv() as { SMTP_URL?: string }).SMTP_URL = down.url;
    const later = new Date("2026-12-03T10:00:00.000Z");
    const second = await createIssue({ content: { kind: "article", subject: "Сервер пошти вимкнено", html: "<p>x</p>", text: "x" }, now: later });
    for (const offset of [0, 61_000, 200_000]) await sendDueMail({ now: new Date(later.getTime() + offset) });
    const gone = await db
      .selectFrom("newsletter_queue")
      .select(["status", "attempts", "last_error"])
      .where("issue_id", "=", second!.id)
      .executeTakeFirstOrThrow();
    expect(gone).toMatchObject({ status: "failed", attempts: 3 });
    expect(gone.last_error).toMatch(/ECONNREFUSED|connect/i);
    (getEnv() as { SMTP_URL?: string }).SMTP_URL = smtp.url;
    process.env.SMTP_URL = smtp.url;
  });
});
