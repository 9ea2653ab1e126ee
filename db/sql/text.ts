import { sql, type Expression, type RawBuilder } from "kysely";
import { engine } from "../index";

// Text comparisons whose SQL differs per engine (DESIGN §13): Ukrainian alphabetical order and
// case-insensitive substring search. SQLite's own NOCASE and LOWER() fold ASCII only, so the
// SQLite connection registers uk_sort_key() and unicode_lower() (db/engines/sqlite.ts);
// PostgreSQL has an ICU collation (`uk_sort`, made by the first migration) and a Unicode lower().

/** ORDER BY this for Ukrainian alphabet order, case and punctuation aside. */
export function ukOrder(expression: Expression<string | null>): RawBuilder<string> {
  return engine() === "postgres" ? sql<string>`${expression} collate uk_sort` : sql<string>`uk_sort_key(${expression})`;
}

/** `expression` contains `needle` (compared as given: no case folding). */
export function contains(expression: Expression<string | null>, needle: string): RawBuilder<boolean> {
  return engine() === "postgres" ? sql<boolean>`strpos(${expression}, ${needle}) > 0` : sql<boolean>`instr(${expression}, ${needle}) > 0`;
}

/** `expression` in lower case, Cyrillic included (as JavaScript's toLowerCase). */
export function lowerCase(expression: Expression<string | null>): RawBuilder<string> {
  return engine() === "postgres" ? sql<string>`lower(${expression})` : sql<string>`unicode_lower(${expression})`;
}

/** `expression` contains `needle` whatever the case of either, Cyrillic included. */
export function containsFolded(expression: Expression<string | null>, needle: string): RawBuilder<boolean> {
  const folded = needle.toLowerCase();
  return engine() === "postgres" ? sql<boolean>`strpos(lower(${expression}), ${folded}) > 0` : sql<boolean>`instr(unicode_lower(${expression}), ${folded}) > 0`;
}

/**
 * The value of `expression`, hidden from SQLite's planner so that it does not drive the query by
 * that column's index (a unary `+`); PostgreSQL's planner needs no such hint (and has no unary + on text).
 */
export function unindexed<T>(expression: Expression<T>): RawBuilder<T> {
  return engine() === "postgres" ? sql<T>`${expression}` : sql<T>`+${expression}`;
}
