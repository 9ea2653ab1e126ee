import type { DigestArticle } from "../models/newsletter-issue.server";

// The emails the site sends (issue 28, issue 31 item 20): each an HTML and a plain-text part in
// Ukrainian with the site's name. Newsletter issues carry `{{unsubscribe_url}}`, replaced per
// recipient by the sender, which also adds the RFC 8058 headers.

export const UNSUBSCRIBE_PLACEHOLDER = "{{unsubscribe_url}}";

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function layout({ site, title, body, footer }: { site: string; title: string; body: string; footer: string }) {
  return (
    `<!doctype html><html lang="uk"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>` +
    `<body style="font-family:Arial,sans-serif;line-height:1.5;color:#1f2937;max-width:600px;margin:0 auto;padding:16px">` +
    `<p style="font-size:20px;font-weight:bold;margin:0 0 16px">${escapeHtml(site)}</p>${body}` +
    `<hr style="border:none;border-top:1px solid #e5e7eb;margin:24px 0"><p style="font-size:13px;color:#6b7280">${footer}</p></body></html>`
  );
}

/** The double opt-in email: the confirmation link (48 hours). */
export function confirmationEmail({ site, confirmUrl }: { site: string; confirmUrl: string }) {
  const subject = `Підтвердіть підписку на розсилку «${site}»`;
  const text =
    `Вітаємо!\n\nХтось (сподіваємося, ви) підписав цю адресу на розсилку «${site}». ` +
    `Щоб отримувати листи, підтвердіть підписку за посиланням (воно дійсне 48 годин):\n\n${confirmUrl}\n\n` +
    `Якщо ви не підписувалися, просто проігноруйте цей лист: без підтвердження ми більше нічого не надішлемо.\n\n— ${site}\n`;
  const html = layout({
    site,
    title: subject,
    body:
      `<p>Вітаємо!</p><p>Хтось (сподіваємося, ви) підписав цю адресу на розсилку «${escapeHtml(site)}». Щоб отримувати листи, підтвердіть підписку (посилання дійсне 48 годин):</p>` +
      `<p><a href="${escapeHtml(confirmUrl)}" style="display:inline-block;background:#2563eb;color:#fff;padding:10px 16px;border-radius:6px;text-decoration:none">Підтвердити підписку</a></p>` +
      `<p style="font-size:13px">${escapeHtml(confirmUrl)}</p>`,
    footer: "Якщо ви не підписувалися, проігноруйте цей лист: без підтвердження ми більше нічого не надішлемо.",
  });
  return { subject, text, html };
}

const unsubscribeFooter = (site: string) => ({
  text: `\n—\nВи отримали цей лист, бо підписалися на розсилку «${site}».\nВідписатися: ${UNSUBSCRIBE_PLACEHOLDER}\n`,
  html: `Ви отримали цей лист, бо підписалися на розсилку «${escapeHtml(site)}». <a href="${UNSUBSCRIBE_PLACEHOLDER}">Відписатися</a>`,
});

function articleList(articles: DigestArticle[], publicUrl: string) {
  const url = (a: DigestArticle) => `${publicUrl}/article/${encodeURIComponent(a.slug)}`;
  return {
    text: articles.map((a) => `• ${a.title}${a.subtitle ? `\n  ${a.subtitle}` : ""}\n  ${url(a)}`).join("\n\n"),
    html:
      `<ul style="padding-left:18px">` +
      articles
        .map(
          (a) =>
            `<li style="margin-bottom:12px"><a href="${escapeHtml(url(a))}">${escapeHtml(a.title)}</a>${a.subtitle ? `<br><span style="color:#4b5563">${escapeHtml(a.subtitle)}</span>` : ""}</li>`,
        )
        .join("") +
      `</ul>`,
  };
}

/** The weekly digest: the week's most-read and newest articles. */
export function digestEmail({ site, publicUrl, mostRead, newest }: { site: string; publicUrl: string; mostRead: DigestArticle[]; newest: DigestArticle[] }) {
  const subject = `${site}: головне за тиждень`;
  const footer = unsubscribeFooter(site);
  const parts: { title: string; list: ReturnType<typeof articleList> }[] = [];
  if (mostRead.length) parts.push({ title: "Найчитаніше за тиждень", list: articleList(mostRead, publicUrl) });
  if (newest.length) parts.push({ title: "Нове за тиждень", list: articleList(newest, publicUrl) });
  const text = `${site}: головне за тиждень\n\n` + parts.map((p) => `${p.title}\n\n${p.list.text}`).join("\n\n") + `\n\n${publicUrl}\n${footer.text}`;
  const html = layout({
    site,
    title: subject,
    body: parts.map((p) => `<h2 style="font-size:18px">${p.title}</h2>${p.list.html}`).join(""),
    footer: footer.html,
  });
  return { subject, text, html };
}

/** "Send this article now": one breaking story. */
export function articleEmail({ site, publicUrl, article }: { site: string; publicUrl: string; article: DigestArticle }) {
  const subject = `${site}: ${article.title}`;
  const url = `${publicUrl}/article/${encodeURIComponent(article.slug)}`;
  const footer = unsubscribeFooter(site);
  const text = `${article.title}\n\n${article.subtitle ? `${article.subtitle}\n\n` : ""}Читати: ${url}\n${footer.text}`;
  const html = layout({
    site,
    title: subject,
    body:
      `<h1 style="font-size:22px">${escapeHtml(article.title)}</h1>${article.subtitle ? `<p>${escapeHtml(article.subtitle)}</p>` : ""}` +
      `<p><a href="${escapeHtml(url)}">Читати статтю</a></p>`,
    footer: footer.html,
  });
  return { subject, text, html };
}

/** "Forgot password": the reset link (an hour, once). */
export function passwordResetEmail({ site, resetUrl, username }: { site: string; resetUrl: string; username: string }) {
  const subject = `Відновлення пароля — ${site}`;
  const text =
    `Вітаємо, ${username}!\n\nХтось (сподіваємося, ви) попросив відновити пароль до панелі керування «${site}». ` +
    `Щоб задати новий пароль, відкрийте посилання (воно дійсне одну годину і спрацює один раз):\n\n${resetUrl}\n\n` +
    `Якщо ви не просили, проігноруйте цей лист: пароль залишиться тим самим.\n\n— ${site}\n`;
  const html = layout({
    site,
    title: subject,
    body:
      `<p>Вітаємо, ${escapeHtml(username)}!</p><p>Хтось (сподіваємося, ви) попросив відновити пароль до панелі керування «${escapeHtml(site)}». Посилання дійсне одну годину і спрацює один раз:</p>` +
      `<p><a href="${escapeHtml(resetUrl)}">Задати новий пароль</a></p><p style="font-size:13px">${escapeHtml(resetUrl)}</p>`,
    footer: "Якщо ви не просили відновити пароль, проігноруйте цей лист: пароль залишиться тим самим.",
  });
  return { subject, text, html };
}
