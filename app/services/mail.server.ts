import nodemailer, { type Transporter } from "nodemailer";
import { getEnv } from "../utils/env.server";

// Mail by SMTP (issue 28 item 4, DESIGN §15, docs/decisions/027): nodemailer with SMTP_URL
// (smtp://user:pass@host:port, or smtps://), sender MAIL_FROM. The variables are checked with the
// rest of the environment at boot (app/utils/env.server.ts). Without SMTP_URL mail is not set up:
// mailConfigured() is false, the screens say so, and nothing is sent or queued. This module is the
// only place the site sends mail from.

export const MAIL_NOT_SET_UP =
  "Пошту не налаштовано: сайт не може надсилати листи. Адміністратор сервера має вказати SMTP_URL і MAIL_FROM (README, «Налаштування»).";

/** One email: always an HTML and a plain-text part. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  headers?: Record<string, string>;
}

let transport: { url: string; transporter: Transporter } | undefined;

/** Whether the site can send mail (SMTP_URL is set). */
export function mailConfigured(): boolean {
  return Boolean(getEnv().SMTP_URL);
}

/** Who the site's mail comes from: MAIL_FROM, else noreply at PUBLIC_URL's host. */
export function mailFrom(siteName: string): string {
  const env = getEnv();
  if (env.MAIL_FROM) return env.MAIL_FROM;
  const host = new URL(env.PUBLIC_URL).hostname;
  return `"${siteName.replace(/["\\\r\n]/g, "")}" <noreply@${host.includes(".") ? host : `${host}.localdomain`}>`;
}

function transporter(): Transporter {
  const url = getEnv().SMTP_URL;
  if (!url) throw new Error("mail is not set up (SMTP_URL)");
  if (transport?.url !== url) {
    transport?.transporter.close();
    // Short timeouts: a send that hangs holds its queue row in `sending` (never sent twice, decision 027).
    transport = { url, transporter: nodemailer.createTransport({ url, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 }) };
  }
  return transport.transporter;
}

/** Sends one email; throws when the SMTP server refuses it or cannot be reached. */
export async function sendMail(message: MailMessage & { from: string }): Promise<void> {
  await transporter().sendMail({
    from: message.from,
    to: message.to,
    subject: message.subject,
    text: message.text,
    html: message.html,
    headers: message.headers,
    textEncoding: "quoted-printable",
  });
}

/** Closes the SMTP connections (shutdown, tests). */
export function closeMail(): void {
  transport?.transporter.close();
  transport = undefined;
}
