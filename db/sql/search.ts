import { sql, type Expression, type RawBuilder } from "kysely";
import { engine, type DB, type EngineName } from "../index";

// Full-text search, the one concern where the two engines' SQL differs most (DESIGN §13;
// docs/decisions/030-search-stemming.md). The search rows are written by our code when an article
// is saved (app/utils/search-text.server.ts), rowid shared with the article:
// - stems of each field's words (вакцинами → "вакцин") for ordinary words: SQLite's FTS5 tables
//   `articles_stems` (all four fields) and `articles_headings` (title, subtitle, tags);
//   PostgreSQL's `articles_stems` with the tsvectors `document` (title A, subtitle B, tags C,
//   content D) and `heading` (A, B, C), each with a GIN index;
// - the words themselves, normalised, for phrases in quotes: `articles_fts` (FTS5 / `document`).
// SQLite tokenizes with unicode61 keeping diacritics and PostgreSQL with `simple`: the text is
// already normalised to letters, digits and spaces, so both see the same tokens. No prefix terms:
// a stem matches its word's forms, and a prefix query reads every term under the prefix.
// Terms come from parseSearch: letters and digits only, never syntax from the reader.

/** Where every term must match: the title, or the heading (title, subtitle, tags); none: anywhere. */
export type SearchTier = "title" | "heading";

/** The parsed query (app/utils/search-text.server.ts SearchQuery). */
export interface SearchTerms {
  stems: readonly string[];
  phrases: readonly (readonly string[])[];
}

type Table = "articles_stems" | "articles_headings" | "articles_fts";

const fts5String = (text: string) => `"${text.replace(/"/g, '""')}"`;
const tsLexeme = (text: string, weight: string) => `'${text.replace(/'/g, "''")}'${weight ? `:${weight}` : ""}`;

/**
 * The engine's query text for terms that must all match (stems as words, `"вакцин" "прот"` /
 * `'вакцин' & 'прот'`; phrases `"чорна діра"` / `('чорна' <-> 'діра')`), only in the columns
 * `columns` (FTS5 column names) or `weight` (tsvector weights) when given.
 */
export function ftsExpression(
  terms: { words?: readonly string[]; phrases?: readonly (readonly string[])[] },
  { on = engine(), columns, weight = "" }: { on?: EngineName; columns?: string; weight?: string } = {},
): string {
  const groups = [...(terms.words ?? []).map((w) => [w]), ...(terms.phrases ?? [])];
  if (on === "postgres") {
    return groups.map((g) => (g.length === 1 ? tsLexeme(g[0], weight) : `(${g.map((w) => tsLexeme(w, weight)).join(" <-> ")})`)).join(" & ");
  }
  const text = groups.map((g) => fts5String(g.join(" "))).join(" ");
  return columns ? `{${columns}} : (${text})` : text;
}

/** A table's match condition on its rows under `alias`: FTS5 MATCH names the table, PostgreSQL a tsvector column. */
function tableMatch(table: Table, expression: string, alias: string, vector = "document"): RawBuilder<boolean> {
  if (engine() === "postgres") return sql<boolean>`${sql.ref(`${alias}.${vector}`)} @@ to_tsquery('simple', ${expression})`;
  return sql<boolean>`${sql.raw(table)} match ${expression}`;
}

/**
 * The search's driving table and its condition on rows under `alias`. The tier applies to the
 * words when there are any (heading tiers read only the heading index), else to the phrases; a
 * query with both filters the words' rows by the phrases' rowids.
 */
function driving(query: SearchTerms, alias: string, tier?: SearchTier): { table: Table; where: RawBuilder<boolean> } {
  const pg = engine() === "postgres";
  if (!query.stems.length) {
    const columns = tier === "title" ? "title" : tier === "heading" ? "title subtitle tags" : undefined;
    const weight = tier === "title" ? "A" : tier === "heading" ? "ABC" : "";
    return { table: "articles_fts", where: tableMatch("articles_fts", ftsExpression({ phrases: query.phrases }, { columns, weight }), alias) };
  }
  let table: Table = "articles_stems";
  let words: RawBuilder<boolean>;
  if (!tier) words = tableMatch(table, ftsExpression({ words: query.stems }), alias);
  else if (pg) words = tableMatch(table, ftsExpression({ words: query.stems }, { weight: tier === "title" ? "A" : "" }), alias, "heading");
  else {
    table = "articles_headings";
    words = tableMatch(table, ftsExpression({ words: query.stems }, { columns: tier === "title" ? "title" : undefined }), alias);
  }
  if (!query.phrases.length) return { table, where: words };
  const phrases = tableMatch("articles_fts", ftsExpression({ phrases: query.phrases }), "p");
  return { table, where: sql<boolean>`${words} and ${sql.ref(`${alias}.rowid`)} in (select p.rowid from articles_fts p where ${phrases})` };
}

/** The rowids of every article (any status) the query matches: a subquery for `rowid in (…)`. */
export function matchingRowids(query: SearchTerms): RawBuilder<{ rowid: number }> {
  const { table, where } = driving(query, "m");
  return sql<{ rowid: number }>`select m.rowid from ${sql.raw(table)} m where ${where}`;
}

/**
 * Whether the article whose rowid is `rowid` matches the query: one probe of the index at that
 * rowid (FTS5 seeks the rowid in each term's doclist; PostgreSQL reads the row by its key), for a
 * walk over another index that tests each row it meets, where `rowid in (matchingRowids)` would
 * first read every match of a common word.
 */
export function matchesRowid(query: SearchTerms, rowid: Expression<number>): RawBuilder<boolean> {
  const { table, where } = driving(query, "m");
  return sql<boolean>`exists (select 1 from ${sql.raw(table)} m where m.rowid = ${rowid} and ${where})`;
}

/**
 * The newest `limit` published articles the query matches (in `tier` when given), newest first:
 * the index is walked by rowid from the newest and the walk stops at `limit`, so a word in every
 * article costs what a word in a hundred does.
 */
export function newestMatches(query: SearchTerms, { tier, limit }: { tier?: SearchTier; limit: number }): RawBuilder<{ r: number }> {
  const { table, where } = driving(query, "f", tier);
  return sql<{ r: number }>`select f.rowid as r from ${sql.raw(table)} f join articles a on a.rowid = f.rowid
    where ${where} and a.status = 'published'
    order by f.rowid desc limit ${limit}`;
}

/** One article's search text, field by field (app/utils/search-text.server.ts searchRows). */
export interface SearchRowText {
  forms: { title: string; subtitle: string; content: string; tags: string };
  stems: { title: string; subtitle: string; content: string; tags: string };
}

/** Removes an article's search rows (they share the article's rowid). */
export async function deleteSearchRows(trx: DB, articleId: string): Promise<void> {
  const rowid = sql`(select rowid from articles where id = ${articleId})`;
  await sql`delete from articles_fts where rowid = ${rowid}`.execute(trx);
  await sql`delete from articles_stems where rowid = ${rowid}`.execute(trx);
  if (engine() === "sqlite") await sql`delete from articles_headings where rowid = ${rowid}`.execute(trx);
}

/** Writes an article's search rows (after deleteSearchRows when replacing them). */
export async function insertSearchRows(trx: DB, articleId: string, { forms, stems }: SearchRowText): Promise<void> {
  await sql`insert into articles_fts (rowid, article_id, title, subtitle, content, tags)
    select rowid, id, ${forms.title}, ${forms.subtitle}, ${forms.content}, ${forms.tags}
    from articles where id = ${articleId}`.execute(trx);
  await sql`insert into articles_stems (rowid, title, subtitle, content, tags)
    select rowid, ${stems.title}, ${stems.subtitle}, ${stems.content}, ${stems.tags}
    from articles where id = ${articleId}`.execute(trx);
  // SQLite's heading index is a table of its own; PostgreSQL's is a generated column of articles_stems.
  if (engine() === "sqlite") {
    await sql`insert into articles_headings (rowid, title, subtitle, tags)
      select rowid, ${stems.title}, ${stems.subtitle}, ${stems.tags} from articles where id = ${articleId}`.execute(trx);
  }
}
