import { diffWords } from "diff";
import type { KeptFields } from "~/utils/revision-fields";

// A word-level comparison of a revision with the article's current text (issue 15), used by the
// History page (no JavaScript) and the editor's History panel. `diff` (jsdiff) does the work.

/** The kept fields of a version, as the revision API answers them. */
export type VersionFields = KeptFields;

const LABELS: [keyof VersionFields, string][] = [
  ["title", "Заголовок"],
  ["subtitle", "Підзаголовок"],
  ["content", "Вміст"],
  ["tags", "Теги"],
  ["category_id", "Категорія"],
  ["seo_title", "SEO-заголовок"],
  ["seo_description", "SEO-опис"],
  ["featured_image", "Головне зображення"],
  ["featured_image_alt", "Опис зображення"],
  ["featured_image_caption", "Підпис зображення"],
];

// jsdiff's own word splitting knows Latin letters only: Cyrillic would be compared letter by
// letter. Intl.Segmenter splits Ukrainian into words (Node 20 and current browsers have it).
const segmenter = typeof Intl !== "undefined" && "Segmenter" in Intl ? new Intl.Segmenter("uk", { granularity: "word" }) : undefined;

/** Word-level changes from one text to another. */
export function wordDiff(before: string, after: string) {
  return segmenter ? diffWords(before, after, { intlSegmenter: segmenter }) : diffWords(before, after);
}

const asText = (value: unknown, categories: Record<string, string>, key: keyof VersionFields) => {
  if (Array.isArray(value)) return value.join(", ");
  if (key === "category_id" && typeof value === "string") return categories[value] ?? value;
  return value == null ? "" : String(value);
};

/** Each kept field that differs, as removed (revision only) and added (current only) words. */
export function RevisionDiff({ revision, current, categories = {} }: { revision: VersionFields; current: VersionFields; categories?: Record<string, string> }) {
  const fields = LABELS.map(([key, label]) => ({
    key,
    label,
    before: asText(revision[key], categories, key),
    after: asText(current[key], categories, key),
  })).filter((f) => f.before !== f.after);
  if (!fields.length) return <p className="muted">Ця версія збігається з поточним текстом.</p>;
  return (
    <div className="revision-diff" data-testid="revision-diff">
      <p className="muted small">
        <del>Закреслене</del> є лише у цій версії, <ins>підкреслене</ins> — лише в поточному тексті.
      </p>
      {fields.map((f) => (
        <section key={f.key} className="revision-diff-field">
          <h4>{f.label}</h4>
          <p className="revision-diff-text">
            {wordDiff(f.before, f.after).map((part, i) =>
              part.added ? <ins key={i}>{part.value}</ins> : part.removed ? <del key={i}>{part.value}</del> : <span key={i}>{part.value}</span>,
            )}
          </p>
        </section>
      ))}
    </div>
  );
}
