import { data, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData, useNavigation } from "@remix-run/react";
import type { AdminHandle } from "~/components/admin/nav";
import { Field } from "~/components/ui/field";
import { AuditFilterSchema, listAudit, type AuditFilter } from "~/models/audit.server";
import { listUsers } from "~/models/user.server";
import { requireRole } from "~/services/auth.server";
import styles from "~/styles/newsroom.css";
import { AUDIT_ACTION_NAMES, AUDIT_ACTIONS, AUDIT_OBJECT_LABELS, describeAuditDetails, type AuditObjectType } from "~/utils/audit-actions";
import { formatDateTimeSeconds } from "~/utils/format";
import { fieldErrors } from "~/utils/forms.server";
import { SCREEN_ROLES } from "~/utils/roles";

// The audit log's screen (issue 25, SECURITY.md 'Audit log'; admins only, DESIGN §5): every staff
// change, newest first, filtered by person, action and Kyiv calendar days with a GET form (works
// without JavaScript), paged, and exported as CSV with the same filter (/admin/audit.csv).

const TITLE = "Журнал дій";
const PAGE_SIZE = 50;

export const handle: AdminHandle = { title: TITLE };
export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];

const FILTER_NAMES = ["user", "action", "from", "to"] as const;

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, SCREEN_ROLES["/admin/audit"]);
  const params = new URL(request.url).searchParams;
  const raw = Object.fromEntries(FILTER_NAMES.map((name) => [name, params.get(name) ?? ""])) as Record<(typeof FILTER_NAMES)[number], string>;
  const page = Math.max(1, Math.min(1_000_000, Number.parseInt(params.get("page") ?? "1", 10) || 1));
  const { users } = await listUsers({ limit: 1000 });
  const people = users.map((u) => u.username);
  const parsed = AuditFilterSchema.safeParse(raw);
  if (!parsed.success) {
    // A filter that makes no sense is shown back with its message, nothing listed (422).
    return data({ raw, errors: fieldErrors(parsed.error), entries: [], total: 0, page: 1, pages: 1, query: "", people }, { status: 422 });
  }
  const filter: AuditFilter = parsed.data;
  const { entries, total } = await listAudit({ filter, skip: (page - 1) * PAGE_SIZE, limit: PAGE_SIZE });
  const query = new URLSearchParams(Object.entries(filter).filter((e): e is [string, string] => Boolean(e[1]))).toString();
  return { raw, errors: {} as Record<string, string>, entries, total, page, pages: Math.max(1, Math.ceil(total / PAGE_SIZE)), query, people };
}

export default function AuditScreen() {
  const { raw, errors, entries, total, page, pages, query, people } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const filtered = FILTER_NAMES.some((name) => raw[name]);
  const pageHref = (p: number) => `?${new URLSearchParams([...new URLSearchParams(query), ["page", String(p)]])}`;
  const exportHref = `/admin/audit.csv${query ? `?${query}` : ""}`;

  return (
    <section className="admin-card newsroom" aria-labelledby="audit-title">
      <div className="toolbar">
        <h2 id="audit-title">{TITLE}</h2>
        {/* A plain link: the CSV is a file, not a screen (reloadDocument lets the browser download it). */}
        <Link to={exportHref} reloadDocument className="button button-secondary" aria-disabled={Object.keys(errors).length ? true : undefined}>
          Експорт CSV
        </Link>
      </div>

      <Form method="get" className="filters" role="search" aria-label="Фільтри журналу">
        <Field label="Користувач" name="user" defaultValue={raw.user} key={`u-${raw.user}`} list="audit-people" autoComplete="off" error={errors.user} />
        <datalist id="audit-people">
          {people.map((name) => (
            <option key={name} value={name} />
          ))}
        </datalist>
        <Field as="select" label="Дія" name="action" defaultValue={raw.action} key={`a-${raw.action}`} error={errors.action}>
          <option value="">Усі дії</option>
          {AUDIT_ACTION_NAMES.map((action) => (
            <option key={action} value={action}>
              {AUDIT_ACTIONS[action]}
            </option>
          ))}
        </Field>
        <Field label="Від (дата)" name="from" type="date" defaultValue={raw.from} key={`f-${raw.from}`} error={errors.from} />
        <Field label="До (дата)" name="to" type="date" defaultValue={raw.to} key={`t-${raw.to}`} error={errors.to} />
        <button type="submit" className="button button-secondary">
          Показати
        </button>
        <Link to="/admin/audit" className="button button-secondary" aria-disabled={!filtered || undefined}>
          Скинути фільтри
        </Link>
      </Form>

      <p className="muted small" aria-live="polite">
        {navigation.state === "loading" && navigation.location.pathname === "/admin/audit" ? "Завантаження…" : `Знайдено записів: ${total}`}
      </p>

      {entries.length === 0 ? (
        <p className="empty-state">
          {Object.keys(errors).length ? "Виправте позначені поля фільтра." : filtered ? "За цими фільтрами записів немає." : "Журнал поки порожній."}
        </p>
      ) : (
        <div className="table-wrap">
          <table className="data-table audit-table">
            <caption className="visually-hidden">
              {TITLE}: найновіші записи першими, сторінка {page} з {pages}
            </caption>
            <thead>
              <tr>
                <th scope="col">Час (Київ)</th>
                <th scope="col">Хто</th>
                <th scope="col">Дія</th>
                <th scope="col">Об’єкт</th>
                <th scope="col">Адреса</th>
                <th scope="col">Подробиці</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((entry) => (
                <tr key={entry.id}>
                  <th scope="row" className="nowrap">
                    <time dateTime={entry.created_at}>{formatDateTimeSeconds(entry.created_at)}</time>
                  </th>
                  <td>{entry.username ?? (entry.user_id ? "—" : "Система")}</td>
                  <td>{entry.action_label}</td>
                  <td>
                    {entry.object_type ? (
                      <>
                        <span className="muted small">{AUDIT_OBJECT_LABELS[entry.object_type as AuditObjectType] ?? entry.object_type}</span>{" "}
                        {entry.object_label ?? entry.object_id ?? ""}
                      </>
                    ) : (
                      "—"
                    )}
                  </td>
                  <td className="nowrap">{entry.ip ?? "—"}</td>
                  <td className="small">{describeAuditDetails(entry.details) || "—"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      {pages > 1 ? (
        <nav className="pager" aria-label="Сторінки журналу">
          {page > 1 ? <Link to={pageHref(page - 1)}>← Попередня</Link> : null}
          {Array.from({ length: pages }, (_, i) => i + 1)
            .filter((p) => p === 1 || p === pages || Math.abs(p - page) <= 2)
            .map((p) =>
              p === page ? (
                <span key={p} aria-current="page" className="pager-current">
                  {p}
                </span>
              ) : (
                <Link key={p} to={pageHref(p)} aria-label={`Сторінка ${p}`}>
                  {p}
                </Link>
              ),
            )}
          {page < pages ? <Link to={pageHref(page + 1)}>Наступна →</Link> : null}
        </nav>
      ) : null}
    </section>
  );
}

export const meta: MetaFunction = () => [{ title: `${TITLE} — Admin Panel` }];

export { AdminErrorBoundary as ErrorBoundary } from "~/components/admin/error-boundary";
