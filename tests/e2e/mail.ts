import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { simpleParser, type ParsedMail } from "mailparser";

// The emails the e2e site sent (tests/e2e/mail-sink.mjs writes each to E2E_MAIL_DIR).

const dir = () => process.env.E2E_MAIL_DIR!;

/** Waits for an email to `address` whose subject contains `subject`, and answers it parsed. */
export async function waitForMail(address: string, subject: string, timeoutMs = 10_000): Promise<ParsedMail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    let files: string[] = [];
    try {
      files = readdirSync(dir()).sort();
    } catch {
      // nothing yet
    }
    for (const file of files.reverse()) {
      const mail = await simpleParser(readFileSync(join(dir(), file)));
      const to = Array.isArray(mail.to) ? mail.to.flatMap((t) => t.value) : (mail.to?.value ?? []);
      if (to.some((t) => t.address?.toLowerCase() === address.toLowerCase()) && mail.subject?.includes(subject)) return mail;
    }
    if (Date.now() > deadline) throw new Error(`no email to ${address} about "${subject}" within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The path and query of the first link in the email's text that contains `part`. */
export function pathIn(mail: ParsedMail, part: string): string {
  const link = (mail.text ?? "").match(/https?:\/\/\S+/g)?.find((l) => l.includes(part));
  if (!link) throw new Error(`no link with ${part}`);
  const url = new URL(link);
  return `${url.pathname}${url.search}`;
}
