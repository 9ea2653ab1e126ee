import type { ArticleView } from "../models/article-queries.server";
import { isoToKyivLocal, kyivLocalToIso } from "../utils/dates";
import type { FieldErrors } from "../utils/forms";
import { SCIENCE_MESSAGES, type ScienceValues, type SourceRow } from "../utils/science-rules";

// Issue 29: the editor's embargo, sources and correction fields (science-fields.tsx) as the save's
// input. The block posts `science=1`; a form without it (an older page) leaves all three as they are.

const SOURCE_FIELDS = ["kind", "doi", "title", "publisher", "year", "review", "url"] as const;

const text = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
};

/** The block's values as posted (to send back on a failure, so nothing typed is lost). */
export function scienceValues(form: FormData): ScienceValues | null {
  if (form.get("science") !== "1") return null;
  const columns = Object.fromEntries(SOURCE_FIELDS.map((f) => [f, form.getAll(`source_${f}`).map((v) => (typeof v === "string" ? v : ""))]));
  const rows = Math.min(60, Math.max(0, ...SOURCE_FIELDS.map((f) => columns[f].length)));
  const sources: SourceRow[] = [];
  for (let i = 0; i < rows; i++) sources.push(Object.fromEntries(SOURCE_FIELDS.map((f) => [f, columns[f][i] ?? ""])) as unknown as SourceRow);
  return {
    embargo_local: text(form, "embargo_local"),
    embargo_note: text(form, "embargo_note"),
    sources,
    correction: form.get("correction") === "on",
    correction_note: text(form, "correction_note"),
    significant_update: form.get("significant_update") === "on",
  };
}

const blank = (row: SourceRow) => !row.doi.trim() && !row.title.trim() && !row.url.trim() && !row.publisher.trim() && !row.year.trim();

/** The block as the article input's fields (app/utils/science-rules.ts SCIENCE_INPUT), or a field error. */
export function scienceInput(values: ScienceValues | null): { input: Record<string, unknown> } | { errors: FieldErrors } {
  if (!values) return { input: {} };
  let embargo: string | null = null;
  if (values.embargo_local.trim()) {
    embargo = kyivLocalToIso(values.embargo_local);
    if (!embargo) return { errors: { embargo_until: SCIENCE_MESSAGES.embargoLocalMalformed } };
  }
  return {
    input: {
      embargo_until: embargo,
      embargo_note: values.embargo_note,
      sources: values.sources
        .filter((row) => !blank(row))
        .map((row) => ({
          kind: row.kind || "study",
          doi: row.doi,
          title: row.title,
          publisher: row.publisher,
          year: row.year,
          peer_reviewed: row.review === "peer" ? true : row.review === "preprint" ? false : null,
          url: row.url,
        })),
      correction: values.correction,
      correction_note: values.correction_note,
      significant_update: values.significant_update,
    },
  };
}

/** Zod's `sources.N.field` errors name the form's rows after the blank ones were left out: map them back. */
export function sourceErrorsToRows(values: ScienceValues | null, errors: FieldErrors): FieldErrors {
  if (!values) return errors;
  const kept = values.sources.map((row, i) => (blank(row) ? -1 : i)).filter((i) => i >= 0);
  const out: FieldErrors = {};
  for (const [key, message] of Object.entries(errors)) {
    const m = /^sources\.(\d+)\.(\w+)$/.exec(key);
    if (!m) out[key] = message;
    else out[`sources.${kept[Number(m[1])] ?? m[1]}.${m[2] === "peer_reviewed" ? "review" : m[2]}`] = message;
  }
  return out;
}

/** The block's values of a saved article (the edit screen's loader). */
export function savedScienceValues(a: Pick<ArticleView, "embargo_until" | "embargo_note" | "sources"> | null): ScienceValues {
  return {
    embargo_local: isoToKyivLocal(a?.embargo_until),
    embargo_note: a?.embargo_note ?? "",
    sources: (a?.sources ?? []).map((s) => ({
      kind: s.kind,
      doi: s.doi ?? "",
      title: s.title,
      publisher: s.publisher ?? "",
      year: s.year === null ? "" : String(s.year),
      review: s.peer_reviewed === null ? "" : s.peer_reviewed ? "peer" : "preprint",
      url: s.url ?? "",
    })),
    correction: false,
    correction_note: "",
    significant_update: false,
  };
}
