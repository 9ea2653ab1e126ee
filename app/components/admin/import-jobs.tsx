import type { ImportSummary } from "~/import/run-import.server";
import { IMPORT_RUN_STATUS_LABELS, IMPORT_STAGE_LABELS, isActiveRun, type ImportRunStatus } from "~/import/run-status";
import { summaryRows } from "~/import/summary";
import { formatDateTime } from "~/utils/format";

// The runs of /admin/import (issue 27): the newest with its progress or summary table, the older ones listed.

interface Job {
  id: number;
  createdAt: string;
  fileName: string;
  dryRun: boolean;
  status: ImportRunStatus;
  stage: string | null;
  done: number;
  total: number;
  summary: ImportSummary | null;
  error: string | null;
}

export function ImportJobs({ jobs }: { jobs: Job[] }) {
  if (!jobs.length) return <p className="empty-state">Імпорту ще не було.</p>;
  const [latest, ...older] = jobs;
  return (
    <>
      <div className="import-job" aria-live="polite" data-testid="import-latest">
        <p>
          <strong>{latest.fileName}</strong> ({formatDateTime(latest.createdAt)}){latest.dryRun ? ", лише перевірка" : ""}:{" "}
          {IMPORT_RUN_STATUS_LABELS[latest.status]}
        </p>
        {isActiveRun(latest.status) ? (
          <p>
            {IMPORT_STAGE_LABELS[latest.stage ?? "parse"] ?? latest.stage}
            {latest.total ? `: ${latest.done} з ${latest.total}` : "…"}{" "}
            <progress max={latest.total || 1} value={latest.total ? latest.done : undefined} aria-label="Поступ імпорту" />
          </p>
        ) : null}
        {latest.status === "failed" && latest.error ? (
          <p className="form-error" role="alert">
            {latest.error}
          </p>
        ) : null}
        {latest.summary ? <Summary summary={latest.summary} /> : null}
      </div>
      {older.length ? (
        <ul className="plain-list">
          {older.map((j) => (
            <li key={j.id}>
              {formatDateTime(j.createdAt)}, {j.fileName}: {IMPORT_RUN_STATUS_LABELS[j.status]}
              {j.summary ? `, статей ${j.summary.articles.created}` : ""}
            </li>
          ))}
        </ul>
      ) : null}
    </>
  );
}

function Summary({ summary }: { summary: ImportSummary }) {
  return (
    <>
      <div className="table-wrap">
        <table className="data-table">
          <caption>Підсумок імпорту</caption>
          <tbody>
            {summaryRows(summary).map(([label, value]) => (
              <tr key={label}>
                <th scope="row">{label}</th>
                <td>{value}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {summary.images.failed.length ? (
        <details>
          <summary>Зображення, яких не вдалося отримати ({summary.images.failed.length})</summary>
          <ul>
            {summary.images.failed.map((f) => (
              <li key={f.url}>
                <code>{f.url}</code>: {f.reason}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
      {summary.failures.length ? (
        <details>
          <summary>Статті з помилкою ({summary.failures.length})</summary>
          <ul>
            {summary.failures.map((f, i) => (
              <li key={i}>
                {f.title}: {f.reason}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </>
  );
}
