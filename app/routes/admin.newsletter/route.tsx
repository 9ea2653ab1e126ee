import { data, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData, useNavigation } from "@remix-run/react";
import { z } from "zod";
import type { AdminHandle } from "~/components/admin/nav";
import { Field } from "~/components/ui/field";
import { listFailures, listIssues, saveDigestSchedule } from "~/models/newsletter-issue.server";
import { listSubscribers, removeSubscriber, subscriberCounts } from "~/models/newsletter.server";
import { getSettings, NewsletterSettingsSchema } from "~/models/settings.server";
import { requireRole } from "~/services/auth.server";
import { redirectWithFlash, takeFlash } from "~/services/flash.server";
import { MAIL_NOT_SET_UP, mailConfigured } from "~/services/mail.server";
import { sendArticleNow } from "~/services/newsletter.server";
import styles from "~/styles/newsroom.css";
import { DomainError } from "~/utils/errors";
import { formatDateTime } from "~/utils/format";
import { SCREEN_ROLES } from "~/utils/roles";
import { safePath } from "~/utils/safe-path";
import pageStyles from "./newsletter.css";
import { SendLog } from "./send-log";

// /admin/newsletter (issue 28 item 3; admin and editor, DESIGN §5): subscriber counts, search,
// CSV export and removal, the weekly digest's day and hour (admins change them, like every
// setting), and the send log. Also the action behind the editor's "Надіслати розсилку зараз".
// Every form works without JavaScript.

const TITLE = "Розсилка";
const PAGE_SIZE = 50;
const DAYS = ["понеділок", "вівторок", "середа", "четвер", "пʼятниця", "субота", "неділя"];

export const handle: AdminHandle = { title: TITLE };
export const links: LinksFunction = () => [
  { rel: "stylesheet", href: styles },
  { rel: "stylesheet", href: pageStyles },
];

const FilterSchema = z.object({
  q: z.string().trim().max(254).catch(""),
  status: z.enum(["pending", "confirmed"]).optional().catch(undefined),
  page: z.coerce.number().int().min(1).max(100_000).catch(1),
});

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRole(request, SCREEN_ROLES["/admin/newsletter"]);
  const params = new URL(request.url).searchParams;
  const filter = FilterSchema.parse({ q: params.get("q") ?? "", status: params.get("status") || undefined, page: params.get("page") ?? 1 });
  const [subscribers, counts, log, digest, { flash, headers }] = await Promise.all([
    listSubscribers({ q: filter.q, status: filter.status, skip: (filter.page - 1) * PAGE_SIZE, limit: PAGE_SIZE }),
    subscriberCounts(),
    listIssues({ limit: 20 }),
    getSettings("newsletter"),
    takeFlash(request),
  ]);
  const issues = await Promise.all(log.data.map(async (i) => ({ ...i, failures: i.failed ? await listFailures({ issueId: i.id, limit: 20 }) : [] })));
  return data(
    { mail: mailConfigured() ? null : MAIL_NOT_SET_UP, filter, subscribers, counts, issues, digest, canEditDigest: user.role === "admin", flash },
    { headers },
  );
}

// Built on the server only: NewsletterSettingsSchema lives in a .server module (empty in the browser).
const digestSchema = () =>
  z.object({
    digest_enabled: z.preprocess((v) => v === "on", z.boolean()),
    digest_day: NewsletterSettingsSchema.shape.digest_day,
    digest_hour: NewsletterSettingsSchema.shape.digest_hour,
  });

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireRole(request, SCREEN_ROLES["/admin/newsletter"]);
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  if (intent === "remove") {
    const id = Number(form.get("id"));
    if (!Number.isInteger(id) || id < 1) throw new Response("Not found", { status: 404 });
    const removed = await removeSubscriber({ id, actor: user });
    return redirectWithFlash(request, "/admin/newsletter", removed ? "Підписника видалено." : "Такого підписника вже немає.");
  }
  if (intent === "digest") {
    if (user.role !== "admin") throw new Response("Access Denied", { status: 403 });
    const parsed = digestSchema().safeParse(Object.fromEntries(form));
    if (!parsed.success) return data({ formError: parsed.error.issues[0].message }, { status: 422 });
    await saveDigestSchedule({ value: parsed.data, actor: user });
    return redirectWithFlash(request, "/admin/newsletter", "Розклад дайджесту збережено.");
  }
  if (intent === "send-article") {
    const back = safePath(form.get("back"), "/admin/newsletter", "/admin/");
    try {
      const issue = await sendArticleNow({ articleId: String(form.get("article_id") ?? ""), actor: user });
      return redirectWithFlash(request, back, `Розсилку поставлено в чергу: ${issue.queued} підписник(ів).`);
    } catch (error) {
      if (error instanceof DomainError) return redirectWithFlash(request, back, error.message);
      throw error;
    }
  }
  return data({ formError: "Невідома дія" }, { status: 400 });
}

export default function NewsletterAdmin() {
  const { mail, filter, subscribers, counts, issues, digest, canEditDigest, flash } = useLoaderData<typeof loader>();
  const busy = useNavigation().state === "submitting";
  const pages = Math.max(1, Math.ceil(subscribers.total / PAGE_SIZE));
  const pageHref = (p: number) =>
    `?${new URLSearchParams({ ...(filter.q ? { q: filter.q } : {}), ...(filter.status ? { status: filter.status } : {}), page: String(p) })}`;
  return (
    <section className="admin-card newsroom newsletter-admin" aria-labelledby="newsletter-title">
      <div className="toolbar">
        <h2 id="newsletter-title">{TITLE}</h2>
        <Link to="/admin/newsletter.csv" reloadDocument className="button button-secondary">
          Експорт CSV
        </Link>
      </div>
      {flash ? (
        <p className="flash flash-ok" role="status">
          {flash}
        </p>
      ) : null}
      {mail ? (
        <p className="flash flash-error" role="alert">
          {mail}
        </p>
      ) : null}
      <p>
        Підтверджених підписників: <strong>{counts.confirmed}</strong> · очікують підтвердження: <strong>{counts.pending}</strong>
      </p>

      <h3>Тижневий дайджест</h3>
      <Form method="post">
        <fieldset disabled={!canEditDigest} className="newsletter-row">
          <legend className="visually-hidden">Розклад дайджесту (Київ)</legend>
          <label className="newsletter-check">
            <input type="checkbox" name="digest_enabled" defaultChecked={digest.digest_enabled} /> Надсилати щотижня
          </label>
          <Field as="select" label="День" name="digest_day" defaultValue={String(digest.digest_day)}>
            {DAYS.map((d, i) => (
              <option key={d} value={i + 1}>
                {d}
              </option>
            ))}
          </Field>
          <Field as="select" label="Година (Київ)" name="digest_hour" defaultValue={String(digest.digest_hour)}>
            {Array.from({ length: 24 }, (_, h) => (
              <option key={h} value={h}>
                {String(h).padStart(2, "0")}:00
              </option>
            ))}
          </Field>
          {canEditDigest ? (
            <button type="submit" name="intent" value="digest" className="button button-secondary" disabled={busy}>
              Зберегти розклад
            </button>
          ) : (
            <p className="muted">Розклад змінює адміністратор.</p>
          )}
        </fieldset>
      </Form>

      <h3>Підписники</h3>
      <Form method="get" role="search" className="newsletter-row">
        <Field label="Пошук за email" name="q" type="search" defaultValue={filter.q} />
        <Field as="select" label="Статус" name="status" defaultValue={filter.status ?? ""}>
          <option value="">усі</option>
          <option value="confirmed">підтверджені</option>
          <option value="pending">очікують підтвердження</option>
        </Field>
        <button type="submit" className="button button-secondary">
          Знайти
        </button>
      </Form>
      {subscribers.data.length ? (
        <table className="data-table">
          <caption className="visually-hidden">Підписники</caption>
          <thead>
            <tr>
              <th scope="col">Email</th>
              <th scope="col">Статус</th>
              <th scope="col">Підписався</th>
              <th scope="col">Дії</th>
            </tr>
          </thead>
          <tbody>
            {subscribers.data.map((s) => (
              <tr key={s.id}>
                <td>{s.email}</td>
                <td>{s.status === "confirmed" ? "підтверджено" : "очікує підтвердження"}</td>
                <td>{formatDateTime(s.confirmed_at ?? s.created_at)}</td>
                <td>
                  <Form method="post">
                    <input type="hidden" name="id" value={s.id} />
                    <button type="submit" name="intent" value="remove" className="button button-danger button-small" aria-label={`Видалити ${s.email}`}>
                      Видалити
                    </button>
                  </Form>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p className="muted">{filter.q || filter.status ? "Нікого не знайдено." : "Підписників ще немає."}</p>
      )}
      {pages > 1 ? (
        <nav aria-label="Сторінки підписників" className="pagination">
          {filter.page > 1 ? <Link to={pageHref(filter.page - 1)}>← Попередня</Link> : null}
          <span>
            Сторінка {filter.page} з {pages}
          </span>
          {filter.page < pages ? <Link to={pageHref(filter.page + 1)}>Наступна →</Link> : null}
        </nav>
      ) : null}

      <h3>Журнал розсилок</h3>
      <SendLog issues={issues} />
    </section>
  );
}

export const meta: MetaFunction = () => [{ title: `${TITLE} — Admin Panel` }];
