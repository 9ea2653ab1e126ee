import { sql, type RawBuilder } from "kysely";
import { jsonArrayFrom as postgresJsonArrayFrom } from "kysely/helpers/postgres";
import { jsonArrayFrom as sqliteJsonArrayFrom } from "kysely/helpers/sqlite";
import { engine } from "../index";

// JSON helpers whose SQL differs per engine (DESIGN §13).

/**
 * A JSON array of strings (one bound parameter) as a table `alias(key, value)`: `key` is the
 * 0-based position, `value` the element (SQLite json_each; PostgreSQL json_array_elements_text).
 */
export function jsonArrayRows(json: string, alias: string): RawBuilder<unknown> {
  if (engine() === "postgres") {
    return sql`(select value, ordinality - 1 as key from json_array_elements_text(cast(${json} as json)) with ordinality) as ${sql.raw(alias)}`;
  }
  return sql`json_each(${json}) as ${sql.raw(alias)}`;
}

/**
 * A subquery's rows as one JSON array column (Kysely's helper for the engine in use). SQLite hands
 * the array back as text, PostgreSQL as a parsed value: callers accept both.
 */
export const jsonArrayFrom: typeof sqliteJsonArrayFrom = (subquery) =>
  // The two helpers differ only in the SQL they write; their result types are the same list.
  engine() === "postgres" ? (postgresJsonArrayFrom(subquery) as never) : sqliteJsonArrayFrom(subquery);
