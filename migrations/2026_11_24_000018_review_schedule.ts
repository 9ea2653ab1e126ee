import { sql, type Kysely } from "kysely";

// Issue 14 (DESIGN §11): two more article statuses, `review` and `scheduled`, and the desk's notes
// (a reporter's note on submit, an editor's note on return: who and when).
//
// SQLite cannot change a CHECK constraint in place, so the articles table is rebuilt by SQLite's
// own recipe (https://sqlite.org/lang_altertable.html, "other kinds of table schema changes"):
// foreign keys off, copy into a new table made from the stored definition with the wider check,
// keeping every rowid (articles_fts rows share them), drop, rename, recreate the indexes, check
// the foreign keys, commit. The definition is read from sqlite_master, so columns added by earlier
// migrations travel along unchanged.

const OLD_CHECK = "status in ('draft', 'published', 'archived')";
const NEW_CHECK = "status in ('draft', 'published', 'archived', 'review', 'scheduled')";

async function rebuildArticles(db: Kysely<any>, from: string, to: string): Promise<void> {
  const table = await sql<{ sql: string }>`select sql from sqlite_master where type = 'table' and name = 'articles'`.execute(db);
  const definition = table.rows[0]?.sql ?? "";
  if (!definition.includes(from)) throw new Error(`articles: expected the check "${from}" in its definition`);
  const indexes = await sql<{ sql: string }>`select sql from sqlite_master where type = 'index' and tbl_name = 'articles' and sql is not null`.execute(db);
  const columns = await sql<{ name: string }>`select name from pragma_table_info('articles')`.execute(db);
  const list = columns.rows.map((c) => `"${c.name.replace(/"/g, '""')}"`).join(", ");
  const created = definition.replace(from, to).replace(/^create table\s+("articles"|articles)/i, 'create table "articles_rebuild"');

  await sql`pragma foreign_keys = off`.execute(db);
  try {
    await sql`begin immediate`.execute(db);
    try {
      await sql.raw(created).execute(db);
      await sql.raw(`insert into "articles_rebuild" (rowid, ${list}) select rowid, ${list} from "articles"`).execute(db);
      await sql`drop table "articles"`.execute(db);
      await sql`alter table "articles_rebuild" rename to "articles"`.execute(db);
      for (const index of indexes.rows) await sql.raw(index.sql).execute(db);
      const broken = await sql`pragma foreign_key_check`.execute(db);
      if (broken.rows.length) throw new Error("articles rebuild: foreign key check failed");
      await sql`commit`.execute(db);
    } catch (error) {
      await sql`rollback`.execute(db);
      throw error;
    }
  } finally {
    await sql`pragma foreign_keys = on`.execute(db);
  }
}

export async function up(db: Kysely<any>): Promise<void> {
  await rebuildArticles(db, OLD_CHECK, NEW_CHECK);
  await db.schema
    .createTable("article_desk_notes")
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    .addColumn("article_id", "text", (c) => c.notNull().references("articles.id").onDelete("cascade"))
    .addColumn("kind", "text", (c) => c.notNull().check(sql`kind in ('submit', 'return')`))
    .addColumn("note", "text")
    .addColumn("user_id", "text", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("article_desk_notes_article").on("article_desk_notes").columns(["article_id", "id"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("article_desk_notes").execute();
  await sql`update articles set status = 'draft' where status in ('review', 'scheduled')`.execute(db);
  await rebuildArticles(db, NEW_CHECK, OLD_CHECK);
}
