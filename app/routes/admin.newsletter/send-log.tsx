import { formatDateTime } from "~/utils/format";

// The send log of /admin/newsletter (issue 28 item 3): one row per issue with its counts, and the
// failed addresses with their last error under it.

export interface LogIssue {
  id: number;
  kind: "digest" | "article";
  subject: string;
  status: "sending" | "done";
  created_at: string;
  total: number;
  sent: number;
  failed: number;
  waiting: number;
  failures: { id: number; email: string | null; attempts: number; last_error: string | null }[];
}

export function SendLog({ issues }: { issues: LogIssue[] }) {
  if (!issues.length) return <p className="muted">Розсилок ще не було.</p>;
  return (
    <table className="data-table">
      <caption className="visually-hidden">Журнал розсилок</caption>
      <thead>
        <tr>
          <th scope="col">Коли</th>
          <th scope="col">Лист</th>
          <th scope="col">Отримувачів</th>
          <th scope="col">Надіслано</th>
          <th scope="col">У черзі</th>
          <th scope="col">Помилки</th>
        </tr>
      </thead>
      <tbody>
        {issues.map((issue) => (
          <tr key={issue.id}>
            <td>{formatDateTime(issue.created_at)}</td>
            <td>
              <span className="muted">{issue.kind === "digest" ? "Дайджест" : "Стаття"}:</span> {issue.subject}
              {issue.status === "sending" ? <span className="muted"> (надсилається)</span> : null}
            </td>
            <td>{issue.total}</td>
            <td>{issue.sent}</td>
            <td>{issue.waiting}</td>
            <td>
              {issue.failed}
              {issue.failures.length ? (
                <details>
                  <summary>Адреси з помилками</summary>
                  <ul>
                    {issue.failures.map((f) => (
                      <li key={f.id}>
                        {f.email ?? "(підписника видалено)"} — спроб: {f.attempts}
                        {f.last_error ? `; ${f.last_error}` : ""}
                      </li>
                    ))}
                  </ul>
                </details>
              ) : null}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
