import { sql, type Kysely } from "kysely";
import { isPostgres, now as nowIn, timestamp } from "./dialect";

// Issue 31 items 8, 13, 14 and 16 (newcomer round 2):
// - category names and user emails are unique whatever their case. PostgreSQL compares them with
//   the ICU collation `tag_name_ci` (made by the first migration; Cyrillic folds too); SQLite with
//   `collate nocase` (ASCII only; the models also check with a Unicode lower case inside the write
//   transaction, and SQLite runs one write transaction at a time). A database that already holds
//   such twins keeps them: the index is then left out (a warning says which), and the models still
//   refuse new ones;
// - one-time form tokens for the new-article form without JavaScript (a token spent once; a
//   repeated submit finds the article the first one made);
// - a SHA-256 of each media file's content, to reuse an identical upload.
export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  const fold = (column: string) => (pg ? sql`${sql.ref(column)} collate tag_name_ci` : sql`${sql.ref(column)} collate nocase`);

  for (const { table, column, index } of [
    { table: "categories", column: "name", index: "categories_name_ci" },
    { table: "users", column: "email", index: "users_email_ci" },
  ]) {
    const twins = await sql<{
      n: number;
    }>`select count(*) as n from (select 1 from ${sql.table(table)} group by ${fold(column)} having count(*) > 1) t`.execute(db);
    if (Number(twins.rows[0]?.n ?? 0) > 0) {
      console.warn(`migration 000030: ${table}.${column} holds values that differ only in case; ${index} not created`);
      continue;
    }
    await sql`create unique index ${sql.id(index)} on ${sql.table(table)} (${fold(column)})`.execute(db);
  }

  await db.schema
    .createTable("form_tokens")
    .addColumn("token", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull())
    .addColumn("article_id", "text")
    .addColumn("created_at", timestamp(db), (c) => c.notNull().defaultTo(nowIn(db)))
    .execute();
  await db.schema.createIndex("form_tokens_created_at").on("form_tokens").column("created_at").execute();

  await db.schema.alterTable("media").addColumn("sha256", "text").execute();
  await db.schema.createIndex("media_sha256").on("media").column("sha256").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("media_sha256").execute();
  await db.schema.alterTable("media").dropColumn("sha256").execute();
  await db.schema.dropTable("form_tokens").execute();
  await db.schema.dropIndex("users_email_ci").ifExists().execute();
  await db.schema.dropIndex("categories_name_ci").ifExists().execute();
}
