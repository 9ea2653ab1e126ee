import { diffWords } from "diff";
import type { KeptFields } from "./revision-fields";

// The word-level comparison of a revision with the article's current text (issue 15). It runs in
// the CPU worker (app/workers/cpu-worker.ts, issue 25): a diff is quadratic in the worst case, so
// it never runs on the request thread; pages and the API get its parts.

/** One run of words: in both versions, only in the revision (removed) or only in the current text (added). */
export interface DiffPart {
  value: string;
  added?: true;
  removed?: true;
}

/** A kept field that differs, with its Ukrainian label and its parts. */
export interface DiffField {
  key: keyof KeptFields;
  label: string;
  parts: DiffPart[];
}

/** What a comparison needs: the two versions and the category names (ids are not shown). */
export interface VersionPair {
  revision: KeptFields;
  current: KeptFields;
  categories: Record<string, string>;
}

const LABELS: [keyof KeptFields, string][] = [
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

const asText = (value: unknown, categories: Record<string, string>, key: keyof KeptFields) => {
  if (Array.isArray(value)) return value.join(", ");
  if (key === "category_id" && typeof value === "string") return categories[value] ?? value;
  return value == null ? "" : String(value);
};

/** The texts a comparison works on: each kept field that differs, before and after. */
export function changedFields({ revision, current, categories }: VersionPair) {
  return LABELS.map(([key, label]) => ({ key, label, before: asText(revision[key], categories, key), after: asText(current[key], categories, key) })).filter(
    (f) => f.before !== f.after,
  );
}

// jsdiff's own word splitting knows Latin letters only: Cyrillic would be compared letter by
// letter, so words come from Intl.Segmenter. But jsdiff materialises every segment of a whole text
// at once, and V8 (Node 20) gives each segment object its own copy of the whole input: 5,000 words
// made ~700 MB of strings and 4 s, 60,000 words ran out of heap. Segmenting the text in pieces of
// about 1,000 characters, cut only where a word boundary is certain (after whitespace, before a
// letter or digit), gives the same words for a few megabytes: 49 ms for those 5,000 words.
const wordSegmenter = new Intl.Segmenter("uk", { granularity: "word" });
const PIECE = 1_000;
const CERTAIN_BOUNDARY = /\s(?=[\p{L}\p{N}])/gu;
const piecewiseSegmenter = {
  resolvedOptions: () => wordSegmenter.resolvedOptions(),
  *segment(text: string): Generator<{ segment: string }> {
    let start = 0;
    while (start < text.length) {
      let end = text.length;
      if (text.length - start > PIECE) {
        CERTAIN_BOUNDARY.lastIndex = start + PIECE;
        const cut = CERTAIN_BOUNDARY.exec(text);
        if (cut) end = cut.index + 1;
      }
      for (const { segment } of wordSegmenter.segment(text.slice(start, end))) yield { segment };
      start = end;
    }
  },
} as unknown as Intl.Segmenter;

/**
 * Word-level changes from one text to another, or undefined past the budget: jsdiff gives up after
 * `timeoutMs` or `maxEditLength` words changed (Myers' diff costs (n + m) × edits).
 */
export function wordDiff(before: string, after: string, budget: { timeoutMs: number; maxEditLength?: number }): DiffPart[] | undefined {
  const changes = diffWords(before, after, { intlSegmenter: piecewiseSegmenter, timeout: budget.timeoutMs, maxEditLength: budget.maxEditLength });
  return changes?.map((c) => (c.added ? { value: c.value, added: true } : c.removed ? { value: c.value, removed: true } : { value: c.value }));
}

/** Each kept field that differs, compared word by word; undefined when the budget runs out. */
export function diffVersions(pair: VersionPair, budget: { timeoutMs: number; maxEditLength?: number }): DiffField[] | undefined {
  const deadline = Date.now() + budget.timeoutMs;
  const fields: DiffField[] = [];
  for (const { key, label, before, after } of changedFields(pair)) {
    const parts = wordDiff(before, after, { ...budget, timeoutMs: Math.max(1, deadline - Date.now()) });
    if (!parts) return undefined;
    fields.push({ key, label, parts });
  }
  return fields;
}
