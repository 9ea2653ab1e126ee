import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { withDatabaseOf } from "../database-of";
import { request, startServer, type RunningServer } from "../server-process";
import { messagesTo, startSmtp, type TestSmtp } from "../smtp";
import { formSignIn, formSend } from "../staff-client";

// Issue 28 item 4 against the real server: "send this article now" from the editor's form, the
// server killed (SIGKILL) in the middle of the send, started again: every subscriber has exactly
// one copy (the one in flight at the kill is never sent again: docs/decisions/027). Then RFC 8058's
// one-click POST from a mail provider (another origin, no session, no form of ours) unsubscribes.

const dataDir = mkdtempSync(join(tmpdir(), "news-newsletter-"));
let server: RunningServer | undefined;
let smtp: TestSmtp | undefined;

afterAll(async () => {
  await server?.stop("SIGKILL");
  await smtp?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const ADDRESSES = Array.from({ length: 6 }, (_, i) => `reader${i + 1}@example.com`);

describe("a send survives a restart without sending anyone the same issue twice", () => {
  it("kills the server mid-queue, starts it again, and finds one copy per subscriber", async () => {
    smtp = await startSmtp();
    const env = { SMTP_URL: smtp.url, MAIL_RATE_PER_MINUTE: "60" };
    server = await startServer({ dataDir, env });
    await withDatabaseOf(dataDir, async (db) => {
      for (const email of ADDRESSES)
        await db
          .insertInto("newsletter_subscribers")
          .values({
            email,
            email_key: email,
            status: "confirmed",
            confirm_token_hash: null,
            confirm_expires_at: null,
            unsubscribe_token: randomBytes(32).toString("base64url"),
            created_at: new Date().toISOString(),
            confirmed_at: new Date().toISOString(),
          })
          .execute();
    });
    const editor = await formSignIn(server.url, "editor", "editor123");
    const [article] = (await (await fetch(`${server.url}/api/articles/?limit=1`)).json()).data as { id: string; title: string }[];

    // At the third email, before the mail server answers it, the sending process dies.
    const running = server;
    let killed: Promise<number | null> | undefined;
    smtp.onMessage = async () => {
      if (smtp!.messages.length !== 3) return;
      killed = running.stop("SIGKILL");
      await killed;
    };
    const sent = await formSend(editor, "/admin/newsletter", { intent: "send-article", article_id: article.id, back: `/admin/articles/edit/${article.id}` });
    expect(sent.status).toBe(302);
    expect(sent.location).toBe(`/admin/articles/edit/${article.id}`);
    await smtp.waitFor(3, 60_000);
    await killed;
    expect(smtp.messages).toHaveLength(3);
    smtp.onMessage = undefined;

    server = await startServer({ dataDir, env });
    await smtp.waitFor(ADDRESSES.length, 60_000);
    // Time for a copy too many to arrive, if the queue were to send one.
    await new Promise((r) => setTimeout(r, 2_500));
    expect(smtp.messages).toHaveLength(ADDRESSES.length);
    for (const address of ADDRESSES) expect(messagesTo(smtp, address)).toHaveLength(1);
    for (const m of smtp.messages) expect(m.mail.subject).toBe(`Наука UA: ${article.title}`);

    const rows = await withDatabaseOf(dataDir, (db) =>
      db
        .selectFrom("newsletter_queue as q")
        .innerJoin("newsletter_subscribers as s", "s.id", "q.subscriber_id")
        .select(["s.email", "q.status"])
        .orderBy("q.id")
        .execute(),
    );
    // The one in flight at the kill stays `sending` (it may or may not have arrived: never again).
    expect(rows.filter((r) => r.status === "sending").map((r) => r.email)).toEqual([smtp.messages[2].to[0]]);
    expect(rows.filter((r) => r.status === "sent")).toHaveLength(ADDRESSES.length - 1);
  }, 120_000);

  it("unsubscribes by the List-Unsubscribe-Post one-click POST from another origin, without a session", async () => {
    const message = smtp!.messages[0];
    const header = message.raw.replace(/\r\n[ \t]+/g, " ").match(/^List-Unsubscribe: <([^>]+)>/m)![1];
    expect(message.raw).toContain("List-Unsubscribe-Post: List-Unsubscribe=One-Click");
    const target = new URL(header);
    const path = `${target.pathname}${target.search}`;
    // What a mail provider sends (RFC 8058 §3.1): a form body, from its own servers.
    const oneClick = await request(server!.url, path, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: "https://mail.example.net" },
      body: "List-Unsubscribe=One-Click",
    });
    expect(oneClick.status).toBe(200);
    const left = await withDatabaseOf(dataDir, (db) =>
      db.selectFrom("newsletter_subscribers").select("email").where("email_key", "=", message.to[0]).executeTakeFirst(),
    );
    expect(left).toBeUndefined();

    // Every other cross-site POST is still refused, the subscribe form's included.
    const foreign = await request(server!.url, "/newsletter", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: "https://evil.example" },
      body: "email=x%40example.com",
    });
    expect(foreign.status).toBe(403);
  }, 120_000);

  it("with WORKERS=2 (a sender in each process on one queue), each subscriber still gets one copy", async () => {
    expect(await server!.stop("SIGTERM")).toBe(0);
    const more = Array.from({ length: 20 }, (_, i) => `crowd${i + 1}@example.com`);
    await withDatabaseOf(dataDir, async (db) => {
      for (const email of more)
        await db
          .insertInto("newsletter_subscribers")
          .values({
            email,
            email_key: email,
            status: "confirmed",
            confirm_token_hash: null,
            confirm_expires_at: null,
            unsubscribe_token: randomBytes(32).toString("base64url"),
            created_at: new Date().toISOString(),
            confirmed_at: new Date().toISOString(),
          })
          .execute();
    });
    const recipients = await withDatabaseOf(dataDir, (db) =>
      db.selectFrom("newsletter_subscribers").select("email").where("status", "=", "confirmed").execute(),
    );
    server = await startServer({ dataDir, env: { SMTP_URL: smtp!.url, MAIL_RATE_PER_MINUTE: "600", WORKERS: "2" } });
    const base = smtp!.messages.length;
    const editor = await formSignIn(server.url, "editor", "editor123");
    const [article] = (await (await fetch(`${server.url}/api/articles/?limit=1&skip=1`)).json()).data as { id: string; title: string }[];
    const sent = await formSend(editor, "/admin/newsletter", { intent: "send-article", article_id: article.id, back: "/admin/newsletter" });
    expect(sent.status).toBe(302);
    await smtp!.waitFor(base + recipients.length, 60_000);
    await new Promise((r) => setTimeout(r, 2_500));
    const got = smtp!.messages.slice(base);
    expect(got).toHaveLength(recipients.length);
    expect(new Set(got.map((m) => m.to[0])).size).toBe(recipients.length);
    for (const m of got) expect(m.mail.subject).toBe(`Наука UA: ${article.title}`);
  }, 120_000);
});
