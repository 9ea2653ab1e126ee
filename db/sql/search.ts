import { sql, type RawBuilder } from "kysely";
import { engine, type EngineName } from "../index";

// Full-text search, the one concern where the two engines' SQL differs most (DESIGN §13):
// SQLite's FTS5 table `articles_fts` with MATCH and bm25; on PostgreSQL a table of the same name
// and columns whose generated `document` tsvector (title A, subtitle B, tags C, content D) has a
// GIN index, queried with to_tsquery and ranked by ts_rank. Rows are written the same way on both
// (rowid shared with the article), so only the reads below differ. Terms come from searchTerms
// (app/utils/search-query.ts): letters and digits only, never syntax from the reader.

/** A column filter: only words in the title, or only in the tags. */
export type FtsColumn = "title" | "tags";

const WEIGHT: Record<FtsColumn, string> = { title: "A", tags: "C" };

/**
 * The engine's query text: each term a prefix, all of them required (`"вакц"* "кліт"*` for FTS5
 * MATCH, `'вакц':* & 'кліт':*` for to_tsquery). Quotes are doubled, so no term is ever syntax.
 */
export function ftsExpression(terms: readonly string[], { on = engine(), column }: { on?: EngineName; column?: FtsColumn } = {}): string {
  if (on === "postgres") {
    const weight = column ? WEIGHT[column] : "";
    return terms.map((term) => `'${term.replace(/'/g, "''")}':*${weight}`).join(" & ");
  }
  const words = terms.map((term) => `"${term.replace(/"/g, '""')}"*`).join(" ");
  return column ? `{${column}} : (${words})` : words;
}

/**
 * The condition "this search row matches every term" (optionally only in one column), for a
 * query over `articles_fts` under `alias` (SQLite names the table itself in MATCH).
 */
export function ftsMatch(terms: readonly string[], { alias = "articles_fts", column }: { alias?: string; column?: FtsColumn } = {}): RawBuilder<boolean> {
  const query = ftsExpression(terms, { column });
  if (engine() === "postgres") return sql<boolean>`${sql.ref(`${alias}.document`)} @@ to_tsquery('simple', ${query})`;
  return sql<boolean>`articles_fts match ${query}`;
}

/**
 * An ORDER BY expression, best match first when ascending: title weighs 10, subtitle 4, tags 3,
 * content 1 (bm25 on SQLite, ts_rank with the same proportions on PostgreSQL).
 */
export function ftsRank(terms: readonly string[], { alias = "articles_fts" }: { alias?: string } = {}): RawBuilder<number> {
  if (engine() === "postgres") {
    return sql<number>`-ts_rank('{0.1, 0.3, 0.4, 1.0}', ${sql.ref(`${alias}.document`)}, to_tsquery('simple', ${ftsExpression(terms)}))`;
  }
  return sql<number>`bm25(articles_fts, 0, 10.0, 4.0, 1.0, 3.0)`;
}
