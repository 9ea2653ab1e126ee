import type { ImportJobsTable } from "../../db/schema-site";

// The states of an /admin/import run (issue 27), one list for the runner (jobs.server.ts) and the
// screen (app/components/admin/import-jobs.tsx): queued → running → done | failed.

export const IMPORT_RUN_STATUSES = ["queued", "running", "done", "failed"] as const satisfies readonly ImportJobsTable["status"][];
export type ImportRunStatus = (typeof IMPORT_RUN_STATUSES)[number];

export const IMPORT_RUN_STATUS_LABELS: Record<ImportRunStatus, string> = { queued: "у черзі", running: "триває", done: "завершено", failed: "відхилено" };

/** A run not yet ended (the screen refreshes itself while one is). */
export const isActiveRun = (status: ImportRunStatus) => status === "queued" || status === "running";

/** The stages a running import reports (run-import.server.ts's progress), as the screen names them. */
export const IMPORT_STAGE_LABELS: Record<string, string> = {
  parse: "Читання файлу",
  images: "Зображення",
  convert: "Перетворення тексту",
  write: "Запис статей",
  comments: "Коментарі",
  done: "Готово",
};
