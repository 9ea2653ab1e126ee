import { z } from "zod";

// Issue 29 items 3–5 (DESIGN §16): the input rules of corrections, embargoes and sources, one copy
// for the editor's form, the JSON API and the editor's hints (client-safe: no server imports).

export const SOURCE_KINDS = ["study", "dataset", "report", "other"] as const;
export type SourceKind = (typeof SOURCE_KINDS)[number];

export const SOURCE_KIND_LABELS: Record<SourceKind, string> = {
  study: "Дослідження",
  dataset: "Набір даних",
  report: "Звіт",
  other: "Інше",
};

export const SCIENCE_LIMITS = {
  sources: 30,
  sourceTitle: 500,
  publisher: 300,
  url: 2_000,
  doi: 300,
  embargoNote: 300,
  correctionNote: 2_000,
} as const;

export const SCIENCE_MESSAGES = {
  correctionNoteRequired: "Опишіть виправлення: примітка обов'язкова",
  correctionNote: `Примітка до виправлення — не більше ${SCIENCE_LIMITS.correctionNote} символів`,
  correctionNotPublished: "Виправленням можна позначити лише збереження опублікованої статті",
  embargoMalformed: "Ембарго: дата й час ISO 8601 зі зсувом, наприклад 2026-11-25T16:00:00+02:00",
  embargoLocalMalformed: "Вкажіть дату й час ембарго (за київським часом)",
  embargoNote: `Примітка до ембарго — не більше ${SCIENCE_LIMITS.embargoNote} символів`,
  doi: "DOI має вигляд 10.NNNN/…, наприклад 10.1038/s41586-020-2649-2",
  sourceTitle: "Назва джерела обов'язкова (або вкажіть DOI й заповніть з Crossref)",
  sourceTitleLong: `Назва джерела — не більше ${SCIENCE_LIMITS.sourceTitle} символів`,
  publisher: `Видання — не більше ${SCIENCE_LIMITS.publisher} символів`,
  year: "Рік — чотири цифри, від 1600 до наступного року",
  url: "Посилання на джерело має починатися з http:// або https://",
  kind: "Тип джерела: study, dataset, report або other",
  sources: `Не більше ${SCIENCE_LIMITS.sources} джерел`,
} as const;

const DOI_SHAPE = /^10\.\d{4,9}\/\S+$/;

/**
 * A DOI as stored: without `https://doi.org/`, `http://dx.doi.org/` or `doi:`, trimmed, lower case
 * (DOIs are case-insensitive). Undefined when what is left does not have the shape `10.NNNN/…`.
 */
export function normaliseDoi(value: string): string | undefined {
  let doi = value.trim();
  doi = doi.replace(/^https?:\/\/(dx\.)?doi\.org\//i, "").replace(/^doi:\s*/i, "");
  try {
    doi = decodeURIComponent(doi);
  } catch {
    // A stray % is part of the DOI as written.
  }
  doi = doi.trim().toLowerCase();
  return DOI_SHAPE.test(doi) && doi.length <= SCIENCE_LIMITS.doi ? doi : undefined;
}

const text = (max: number, message: string) =>
  z
    .string({ invalid_type_error: "Має бути текстом" })
    .trim()
    .max(max, message)
    .nullish()
    .transform((v) => v || null);

/** One source of an article (DESIGN §16): `{kind, doi?, title, publisher, year, peer_reviewed, url}`. */
export const SourceSchema = z.object({
  kind: z.enum(SOURCE_KINDS, { errorMap: () => ({ message: SCIENCE_MESSAGES.kind }) }).default("study"),
  doi: z
    .string({ invalid_type_error: SCIENCE_MESSAGES.doi })
    .nullish()
    .transform((v, ctx) => {
      if (!v?.trim()) return null;
      const doi = normaliseDoi(v);
      if (!doi) ctx.addIssue({ code: z.ZodIssueCode.custom, message: SCIENCE_MESSAGES.doi });
      return doi ?? null;
    }),
  title: z
    .string({ invalid_type_error: "Має бути текстом", required_error: SCIENCE_MESSAGES.sourceTitle })
    .trim()
    .min(1, SCIENCE_MESSAGES.sourceTitle)
    .max(SCIENCE_LIMITS.sourceTitle, SCIENCE_MESSAGES.sourceTitleLong),
  publisher: text(SCIENCE_LIMITS.publisher, SCIENCE_MESSAGES.publisher),
  year: z
    .union([z.number(), z.string()], { invalid_type_error: SCIENCE_MESSAGES.year })
    .nullish()
    .transform((v, ctx) => {
      if (v === null || v === undefined || v === "") return null;
      const year = typeof v === "number" ? v : /^\d{4}$/.test(v.trim()) ? Number(v.trim()) : NaN;
      if (!Number.isInteger(year) || year < 1600 || year > new Date().getUTCFullYear() + 1) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, message: SCIENCE_MESSAGES.year });
        return null;
      }
      return year;
    }),
  /** true peer reviewed, false a preprint (shown "без рецензування"), null unknown. */
  peer_reviewed: z
    .boolean({ invalid_type_error: "peer_reviewed: true, false або null" })
    .nullish()
    .transform((v) => v ?? null),
  url: z
    .string({ invalid_type_error: SCIENCE_MESSAGES.url })
    .trim()
    .max(SCIENCE_LIMITS.url, SCIENCE_MESSAGES.url)
    .refine((v) => v === "" || /^https?:\/\/\S+$/i.test(v), SCIENCE_MESSAGES.url)
    .nullish()
    .transform((v) => v || null),
});

export type SourceInput = z.infer<typeof SourceSchema>;

const ISO_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i;

/**
 * The fields issue 29 adds to the article body (POST/PUT /api/articles and the editor's form). Each
 * is optional: left out, a save keeps what the article has (`embargo_until: null` lifts it).
 */
export const SCIENCE_INPUT = {
  embargo_until: z
    .string({ invalid_type_error: SCIENCE_MESSAGES.embargoMalformed })
    .nullish()
    .transform((v, ctx) => {
      if (v === undefined) return undefined;
      if (v === null || v.trim() === "") return null;
      const at = ISO_WITH_OFFSET.test(v.trim()) ? new Date(v.trim()) : null;
      if (!at || Number.isNaN(at.getTime())) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, message: SCIENCE_MESSAGES.embargoMalformed });
        return undefined;
      }
      return at.toISOString();
    }),
  embargo_note: z
    .string({ invalid_type_error: "Має бути текстом" })
    .trim()
    .max(SCIENCE_LIMITS.embargoNote, SCIENCE_MESSAGES.embargoNote)
    .nullish()
    .transform((v) => (v === undefined ? undefined : v || null)),
  sources: z.array(SourceSchema, { invalid_type_error: "sources: список джерел" }).max(SCIENCE_LIMITS.sources, SCIENCE_MESSAGES.sources).optional(),
  /** Marks a save of a published article as a correction; `correction_note` is then required. */
  correction: z.boolean({ invalid_type_error: "correction: true або false" }).optional(),
  correction_note: z
    .string({ invalid_type_error: "Має бути текстом" })
    .trim()
    .max(SCIENCE_LIMITS.correctionNote, SCIENCE_MESSAGES.correctionNote)
    .nullish()
    .transform((v) => v || undefined),
  /** A significant update that is not a correction (new findings added): moves "Оновлено". */
  significant_update: z.boolean({ invalid_type_error: "significant_update: true або false" }).optional(),
};

/** The object-level rule: a correction carries its note (the schema's superRefine). */
export function requireCorrectionNote(value: { correction?: boolean; correction_note?: string | null }, ctx: z.RefinementCtx) {
  if (value.correction && !value.correction_note) {
    ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["correction_note"], message: SCIENCE_MESSAGES.correctionNoteRequired });
  }
}

/** One row of the editor's sources table, as the form posts it (`review`: peer, preprint or empty). */
export interface SourceRow {
  kind: string;
  doi: string;
  title: string;
  publisher: string;
  year: string;
  review: string;
  url: string;
}

/** The editor's embargo, sources and correction fields, as the form posts them. */
export interface ScienceValues {
  /** Kyiv wall clock, `datetime-local`. */
  embargo_local: string;
  embargo_note: string;
  sources: SourceRow[];
  correction: boolean;
  correction_note: string;
  significant_update: boolean;
}
