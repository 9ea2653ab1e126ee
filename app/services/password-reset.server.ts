import { createPasswordReset, resetCandidates } from "../models/password-reset.server";
import { getSettings } from "../models/settings.server";
import { getEnv } from "../utils/env.server";
import { mailConfigured, mailFrom, sendMail } from "./mail.server";
import { passwordResetEmail } from "./newsletter-mail.server";

// "Forgot password" (issue 31 item 20, docs/decisions/027): the request answers the same whether
// or not the address belongs to anyone; the links are made and mailed after the answer (in the
// background), so neither the text nor the time of the answer tells who has an account here.

export const RESET_PATH = "/admin/reset-password";

/** Makes and mails reset links to the active people with this email; returns at once. */
export function requestPasswordReset({ email, now = new Date() }: { email: string; now?: Date }): Promise<void> {
  const work = (async () => {
    if (!mailConfigured()) return;
    const people = await resetCandidates({ email });
    if (!people.length) return;
    const site = (await getSettings("seo")).site_title;
    for (const person of people) {
      const token = await createPasswordReset({ userId: person.id, now });
      if (!token) continue;
      const mail = passwordResetEmail({ site, username: person.username, resetUrl: `${getEnv().PUBLIC_URL}${RESET_PATH}?token=${token}` });
      await sendMail({ ...mail, to: person.email, from: mailFrom(site) });
    }
  })().catch((error) => console.error(`Password reset email failed: ${(error as Error)?.message ?? error}`));
  void work;
  return Promise.resolve();
}
