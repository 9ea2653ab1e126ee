import { StemmerUk } from "@nlpjs/lang-uk";

// What the search index holds and how a query is read (issue 30 item 2, issue 31 item 6;
// docs/decisions/030-search-stemming.md). One normalisation serves the index, the query and the
// highlight, on both engines: NFC, lower case, combining marks (stress accents) dropped, the four
// apostrophes a Ukrainian word may carry (U+02BC ʼ, U+0027 ', U+2019 ’, U+0060 `) removed inside a
// word, so "компʼютери", "комп'ютери" and "комп’ютери" are all the word "компютери". Words are
// runs of letters and digits only, so neither FTS5's unicode61 nor PostgreSQL's parser can split
// them differently. Each word is also stemmed (@nlpjs/lang-uk's StemmerUk: вакцина, вакцини,
// вакцинами, вакциною → "вакцин"); the stems are what an ordinary query matches, the words what
// a phrase in quotes matches.

const MAX_WORD_LENGTH = 60;
const MAX_TERMS = 8;
const MAX_INPUT = 200;

const APOSTROPHE_INSIDE = /(?<=[\p{L}\p{N}])[ʼ'’`]+(?=[\p{L}\p{N}])/gu;
const WORD = /[\p{L}\p{N}]+/gu;

/**
 * Text as the index reads it: NFC, lower case, no combining marks, no apostrophes inside words. A ʼ
 * left over (a letter to Unicode, so it would stick to a word) stands at a word's edge and is
 * dropped; the text keeps its spaces where they were (firstMatch relies on it).
 */
export function normalizeText(text: string): string {
  return text
    .normalize("NFC")
    .toLowerCase()
    .replace(/\p{M}+/gu, "")
    .replace(APOSTROPHE_INSIDE, "")
    .replace(/ʼ/g, "");
}

/** The words of a text as the index holds them (letters and digits, normalised, at most 60 characters each). */
export function indexWords(text: string): string[] {
  return (normalizeText(text).match(WORD) ?? []).map((word) => (word.length > MAX_WORD_LENGTH ? word.slice(0, MAX_WORD_LENGTH) : word));
}

const stemmer = new StemmerUk();
// Stemming is a few regular expressions per word; a news archive repeats its words, so stems are
// remembered (bounded: emptied when full).
const stems = new Map<string, string>();
const MAX_REMEMBERED = 50_000;

/** The stem of one normalised word (Latin words and numbers stay as they are). */
export function stemWord(word: string): string {
  let stem = stems.get(word);
  if (stem === undefined) {
    stem = /[а-яіїєґ]/.test(word) ? stemmer.stemWord(word) || word : word;
    if (stems.size >= MAX_REMEMBERED) stems.clear();
    stems.set(word, stem);
  }
  return stem;
}

/** The searchable fields of an article. */
export interface SearchFields {
  title: string;
  subtitle: string | null;
  content: string;
  tags: readonly string[];
}

/** One article's two search rows: its words (`forms`, for phrases) and their stems, field by field, space-separated. */
export interface SearchRows {
  forms: { title: string; subtitle: string; content: string; tags: string };
  stems: { title: string; subtitle: string; content: string; tags: string };
}

/** The text written to the search tables for an article (docs/decisions/030). */
export function searchRows(a: SearchFields): SearchRows {
  const fields = { title: a.title, subtitle: a.subtitle ?? "", content: a.content, tags: a.tags.join(" ") };
  const forms = {} as SearchRows["forms"];
  const stemmed = {} as SearchRows["stems"];
  for (const key of ["title", "subtitle", "content", "tags"] as const) {
    const words = indexWords(fields[key]);
    forms[key] = words.join(" ");
    stemmed[key] = words.map(stemWord).join(" ");
  }
  return { forms, stems: stemmed };
}

/** A reader's query: words matched by stem (all required) and phrases in quotes matched word for word. */
export interface SearchQuery {
  /** Stems of the words outside quotes, each once. */
  stems: string[];
  /** Phrases in quotes, each its normalised words in order (a quoted single word is an exact word). */
  phrases: string[][];
}

const QUOTES = /["«»„“”]/;

/** Reads the search box: nothing the reader types reaches the index as syntax (operators, stars, columns are dropped characters). */
export function parseSearch(input: string | null | undefined): SearchQuery {
  const parts = (input ?? "").slice(0, MAX_INPUT).split(QUOTES);
  const query: SearchQuery = { stems: [], phrases: [] };
  let terms = 0;
  parts.forEach((part, i) => {
    const words = indexWords(part);
    // Odd parts are inside quotes; an unclosed quote's tail is read as plain words.
    const quoted = i % 2 === 1 && i < parts.length - 1;
    if (quoted && words.length > 0) {
      const phrase = words.slice(0, MAX_TERMS - terms);
      if (phrase.length && !query.phrases.some((p) => p.join(" ") === phrase.join(" "))) {
        query.phrases.push(phrase);
        terms += phrase.length;
      }
      return;
    }
    for (const word of words) {
      const stem = stemWord(word);
      if (terms < MAX_TERMS && !query.stems.includes(stem)) {
        query.stems.push(stem);
        terms++;
      }
    }
  });
  return query;
}

/** Whether a query has anything to look up. */
export const isEmptyQuery = (query: SearchQuery) => !query.stems.length && !query.phrases.length;

const DISPLAY_WORD = /[\p{L}\p{N}\p{M}]+(?:[ʼ'’`][\p{L}\p{N}\p{M}]+)*/gu;

/**
 * Marks (\u0001…\u0002) the words of a text that a query matched: a word whose stem is one of the
 * query's stems, or a run of words that is one of its phrases. The marker characters already in
 * the text are dropped first, so no text can open or close a mark (MarkedText renders only text).
 */
export function markMatches(text: string, query: SearchQuery): string {
  const clean = text.replace(/[\u0001\u0002]/g, "");
  const words = [...clean.matchAll(DISPLAY_WORD)].map((m) => ({ at: m.index!, end: m.index! + m[0].length, norm: indexWords(m[0]).join("") }));
  const marked = new Array<boolean>(words.length).fill(false);
  words.forEach((word, i) => {
    if (word.norm && query.stems.includes(stemWord(word.norm))) marked[i] = true;
    for (const phrase of query.phrases) {
      if (phrase.every((p, k) => words[i + k]?.norm === p)) for (let k = 0; k < phrase.length; k++) marked[i + k] = true;
    }
  });
  let out = "";
  let from = 0;
  words.forEach((word, i) => {
    if (!marked[i]) return;
    out += `${clean.slice(from, word.at)}\u0001${clean.slice(word.at, word.end)}\u0002`;
    from = word.end;
  });
  return out + clean.slice(from);
}

/**
 * The index of the first of `words` (a text split at spaces) where the query matches: a word of
 * one of its stems or the start of one of its phrases; -1 if none. The whole text is normalised
 * once (it keeps its spaces, so a character offset gives the word's index) and searched with
 * regular expressions for words starting with a stem, each then stemmed to confirm: a long body
 * costs little.
 */
export function firstMatch(words: readonly string[], query: SearchQuery): number {
  const normalized = normalizeText(words.join(" "));
  let first = -1;
  const consider = (at: number) => {
    if (first === -1 || at < first) first = at;
  };
  for (const stem of query.stems) {
    for (const m of normalized.matchAll(new RegExp(`(?<![\\p{L}\\p{N}])${stem}[\\p{L}\\p{N}]*`, "gu"))) {
      if (first !== -1 && m.index >= first) break;
      if (stemWord(m[0].slice(0, MAX_WORD_LENGTH)) === stem) {
        consider(m.index);
        break;
      }
    }
  }
  for (const phrase of query.phrases) {
    for (const m of normalized.matchAll(new RegExp(`(?<![\\p{L}\\p{N}])${phrase[0]}(?![\\p{L}\\p{N}])`, "gu"))) {
      if (first !== -1 && m.index >= first) break;
      const following = normalized.slice(m.index).match(WORD)?.slice(0, phrase.length) ?? [];
      if (phrase.every((w, k) => following[k]?.slice(0, MAX_WORD_LENGTH) === w)) {
        consider(m.index);
        break;
      }
    }
  }
  return first === -1 ? -1 : normalized.slice(0, first).split(" ").length - 1;
}
