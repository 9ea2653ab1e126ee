import { PostgresAdapter, sql, type CreateTableBuilder, type Kysely } from "kysely";

// One migration list runs on both engines (DESIGN §13). The few column types and defaults that
// differ are named here, so each migration reads the same on both; imports nothing from the app.
// On SQLite every helper yields exactly what the migrations wrote before PostgreSQL came.

/** True when the migration runs on PostgreSQL. */
export function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** A point in time: ISO-8601 UTC text on SQLite, `timestamptz` on PostgreSQL. */
export function timestamp(db: Kysely<any>) {
  return isPostgres(db) ? ("timestamptz" as const) : ("text" as const);
}

/** The current time as a column default, in that column's form. */
export function now(db: Kysely<any>) {
  return isPostgres(db) ? sql`now()` : sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`;
}

/** Adds an integer key `id` the database numbers: `integer primary key autoincrement` / `serial primary key`. */
export function autoId(db: Kysely<any>) {
  return <T extends CreateTableBuilder<any, any>>(table: T): T =>
    (isPostgres(db) ? table.addColumn("id", "serial", (c) => c.primaryKey()) : table.addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())) as T;
}

/** On PostgreSQL, an explicit `rowid` column numbered like SQLite's implicit one (the search index and newest-first walks use it). */
export function rowid(db: Kysely<any>) {
  return <T extends CreateTableBuilder<any, any>>(table: T): T =>
    (isPostgres(db) ? table.addColumn("rowid", "bigint", (c) => c.notNull().unique().generatedByDefaultAsIdentity()) : table) as T;
}
