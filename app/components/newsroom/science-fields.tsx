import { useState } from "react";
import { useHydrated } from "remix-utils/use-hydrated";
import { CheckboxField } from "~/components/ui/field";
import type { FieldErrors } from "~/utils/forms";
import { SCIENCE_LIMITS, SOURCE_KIND_LABELS, SOURCE_KINDS, type ScienceValues, type SourceRow } from "~/utils/science-rules";

// Issue 29 items 3–5 (DESIGN §16): the editor's embargo, sources and correction fields, rendered
// inside the editor's form (article-editor.tsx `science`). Without JavaScript the sources table has
// a fixed number of rows (the saved ones and two empty); with it, "Додати джерело" adds rows and,
// when CROSSREF_LOOKUP=1, each row can be filled from Crossref by its DOI.

const EMPTY_ROW: SourceRow = { kind: "study", doi: "", title: "", publisher: "", year: "", review: "", url: "" };
const SPARE_ROWS = 2;

export interface ScienceFieldsProps {
  /** The saved values, or those posted by a save that failed. */
  values: ScienceValues;
  /** Whether the article is live now: only then can a save be a correction. */
  published: boolean;
  errors: FieldErrors;
  crossref: boolean;
}

function SourceRowFields({
  row,
  index,
  errors,
  crossref,
  onChange,
  onRemove,
}: {
  row: SourceRow;
  index: number;
  errors: FieldErrors;
  crossref: boolean;
  onChange: (row: SourceRow) => void;
  onRemove?: () => void;
}) {
  const hydrated = useHydrated();
  const [lookup, setLookup] = useState<{ busy: boolean; message: string | null }>({ busy: false, message: null });
  const id = (f: string) => `source-${index}-${f}`;
  const err = (f: string) => errors[`sources.${index}.${f}`];
  // Controlled (the lookup fills the row); without JavaScript the value attribute is a plain default.
  const bind = (f: keyof SourceRow) => ({ value: row[f], onChange: (e: { target: { value: string } }) => onChange({ ...row, [f]: e.target.value }) });
  const described = (f: string) => (err(f) ? { "aria-invalid": true as const, "aria-describedby": `${id(f)}-error` } : {});
  const errorLine = (f: string) =>
    err(f) ? (
      <p className="field-error" id={`${id(f)}-error`} role="alert">
        {err(f)}
      </p>
    ) : null;

  async function fill() {
    setLookup({ busy: true, message: "Шукаю в Crossref…" });
    try {
      const response = await fetch(`/api/sources/lookup?doi=${encodeURIComponent(row.doi)}`, { headers: { Accept: "application/json" } });
      const body = await response.json();
      if (!response.ok) return setLookup({ busy: false, message: body.detail ?? "Не вдалося знайти DOI" });
      onChange({
        kind: body.kind,
        doi: body.doi,
        title: body.title || row.title,
        publisher: body.publisher ?? row.publisher,
        year: body.year ? String(body.year) : row.year,
        review: body.peer_reviewed === null ? row.review : body.peer_reviewed ? "peer" : "preprint",
        url: body.url ?? row.url,
      });
      setLookup({ busy: false, message: "Заповнено з Crossref: перевірте й збережіть" });
    } catch {
      setLookup({ busy: false, message: "Crossref зараз недоступний: заповніть джерело вручну" });
    }
  }

  return (
    <fieldset className="source-row" data-testid="source-row">
      <legend>Джерело {index + 1}</legend>
      <div className="field">
        <label htmlFor={id("kind")}>Тип</label>
        <select id={id("kind")} name="source_kind" {...bind("kind")}>
          {SOURCE_KINDS.map((k) => (
            <option key={k} value={k}>
              {SOURCE_KIND_LABELS[k]}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={id("doi")}>DOI</label>
        <input id={id("doi")} name="source_doi" placeholder="10.1038/…" maxLength={SCIENCE_LIMITS.doi} {...bind("doi")} {...described("doi")} />
        {errorLine("doi")}
        {crossref && hydrated ? (
          <button type="button" className="button button-secondary button-small" disabled={lookup.busy || !row.doi.trim()} onClick={() => void fill()}>
            Заповнити з Crossref
          </button>
        ) : null}
        {lookup.message ? (
          <p className="muted small" role="status">
            {lookup.message}
          </p>
        ) : null}
      </div>
      <div className="field">
        <label htmlFor={id("title")}>Назва</label>
        <input id={id("title")} name="source_title" maxLength={SCIENCE_LIMITS.sourceTitle} {...bind("title")} {...described("title")} />
        {errorLine("title")}
      </div>
      <div className="field">
        <label htmlFor={id("publisher")}>Журнал чи видавець</label>
        <input id={id("publisher")} name="source_publisher" maxLength={SCIENCE_LIMITS.publisher} {...bind("publisher")} {...described("publisher")} />
        {errorLine("publisher")}
      </div>
      <div className="field">
        <label htmlFor={id("year")}>Рік</label>
        <input id={id("year")} name="source_year" inputMode="numeric" maxLength={4} {...bind("year")} {...described("year")} />
        {errorLine("year")}
      </div>
      <div className="field">
        <label htmlFor={id("review")}>Рецензування</label>
        <select id={id("review")} name="source_review" {...bind("review")}>
          <option value="">Невідомо</option>
          <option value="peer">Рецензоване</option>
          <option value="preprint">Препринт (без рецензування)</option>
        </select>
      </div>
      <div className="field">
        <label htmlFor={id("url")}>Посилання</label>
        <input id={id("url")} name="source_url" type="url" placeholder="https://" maxLength={SCIENCE_LIMITS.url} {...bind("url")} {...described("url")} />
        {errorLine("url")}
      </div>
      {onRemove ? (
        <button type="button" className="button button-secondary button-small" onClick={onRemove}>
          Прибрати джерело {index + 1}
        </button>
      ) : null}
    </fieldset>
  );
}

export function ScienceFields({ values, published, errors, crossref }: ScienceFieldsProps) {
  const hydrated = useHydrated();
  const [rows, setRows] = useState<SourceRow[]>(() => [...values.sources, ...Array.from({ length: SPARE_ROWS }, () => ({ ...EMPTY_ROW }))]);
  const [correction, setCorrection] = useState(values.correction);
  const err = (f: string) => errors[f];
  return (
    <>
      <input type="hidden" name="science" value="1" />
      {published ? (
        <div className="editor-panel" data-testid="correction-panel">
          <h3>Виправлення</h3>
          <CheckboxField label="Це виправлення" name="correction" defaultChecked={values.correction} onChange={(e) => setCorrection(e.target.checked)} />
          {correction || !hydrated || err("correction_note") ? (
            <div className="field">
              <label htmlFor="correction_note">Що виправлено (покажемо читачам)</label>
              <textarea
                id="correction_note"
                name="correction_note"
                rows={3}
                maxLength={SCIENCE_LIMITS.correctionNote}
                defaultValue={values.correction_note}
                aria-invalid={err("correction_note") ? true : undefined}
                aria-describedby={err("correction_note") ? "correction_note-error" : undefined}
              />
              {err("correction_note") ? (
                <p className="field-error" id="correction_note-error" role="alert">
                  {err("correction_note")}
                </p>
              ) : null}
            </div>
          ) : null}
          <CheckboxField label="Суттєве оновлення (змінює «Оновлено»)" name="significant_update" defaultChecked={values.significant_update} />
        </div>
      ) : null}
      <div className="editor-panel" data-testid="embargo-panel">
        <h3>Ембарго</h3>
        <div className="field">
          <label htmlFor="embargo_local">Не публікувати до (київський час)</label>
          <input
            id="embargo_local"
            type="datetime-local"
            name="embargo_local"
            defaultValue={values.embargo_local}
            aria-invalid={err("embargo_until") ? true : undefined}
            aria-describedby={err("embargo_until") ? "embargo-error" : "embargo-hint"}
          />
          <p className="muted small" id="embargo-hint">
            До цього часу статтю не опублікує ніхто; заплануйте її на час ембарго або пізніше.
          </p>
          {err("embargo_until") ? (
            <p className="field-error" id="embargo-error" role="alert">
              {err("embargo_until")}
            </p>
          ) : null}
        </div>
        <div className="field">
          <label htmlFor="embargo_note">Примітка до ембарго</label>
          <input
            id="embargo_note"
            name="embargo_note"
            placeholder="Nature, 16:00 Лондон"
            maxLength={SCIENCE_LIMITS.embargoNote}
            defaultValue={values.embargo_note}
          />
        </div>
      </div>
      <div className="editor-panel" data-testid="sources-panel">
        <h3>Джерела</h3>
        {err("sources") ? (
          <p className="field-error" role="alert">
            {err("sources")}
          </p>
        ) : null}
        {rows.map((row, i) => (
          <SourceRowFields
            // Rows are only added at the end or removed: the position is the row's identity.
            key={i}
            row={row}
            index={i}
            errors={errors}
            crossref={crossref}
            onChange={(next) => setRows((all) => all.map((r, j) => (j === i ? next : r)))}
            onRemove={hydrated && rows.length > 1 ? () => setRows((all) => all.filter((_, j) => j !== i)) : undefined}
          />
        ))}
        {hydrated ? (
          <button
            type="button"
            className="button button-secondary button-small"
            disabled={rows.length >= SCIENCE_LIMITS.sources}
            onClick={() => setRows((all) => [...all, { ...EMPTY_ROW }])}
          >
            Додати джерело
          </button>
        ) : (
          <p className="muted small">Порожні рядки не зберігаються; щоб додати більше джерел, збережіть статтю.</p>
        )}
      </div>
    </>
  );
}
