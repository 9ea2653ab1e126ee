import { sql, type Kysely } from "kysely";

/**
 * Rebuilds the articles table by SQLite's own recipe (https://sqlite.org/lang_altertable.html,
 * "other kinds of table schema changes"): foreign keys off, copy into a new table made from the
 * stored definition as `change` rewrites it, keeping every rowid (articles_fts rows share them),
 * drop, rename, recreate the indexes, check the foreign keys, commit. The definition is read from
 * sqlite_master, so columns added by earlier migrations travel along unchanged. Used by migrations
 * 000018 (a wider status check) and 000020 (the long text columns last).
 */
export async function rebuildArticles(db: Kysely<any>, change: (definition: string) => string): Promise<void> {
  const table = await sql<{ sql: string }>`select sql from sqlite_master where type = 'table' and name = 'articles'`.execute(db);
  const definition = table.rows[0]?.sql ?? "";
  const indexes = await sql<{ sql: string }>`select sql from sqlite_master where type = 'index' and tbl_name = 'articles' and sql is not null`.execute(db);
  const columns = await sql<{ name: string }>`select name from pragma_table_info('articles')`.execute(db);
  const list = columns.rows.map((c) => `"${c.name.replace(/"/g, '""')}"`).join(", ");
  const created = change(definition).replace(/^create table\s+(if not exists\s+)?("articles"|articles)/i, 'create table "articles_rebuild"');

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

/** The column definitions of a CREATE TABLE statement, split at its top-level commas. */
export function columnDefinitions(definition: string): { head: string; parts: string[] } {
  const open = definition.indexOf("(");
  const close = definition.lastIndexOf(")");
  const body = definition.slice(open + 1, close);
  const parts: string[] = [];
  let depth = 0;
  let quote: string | undefined;
  let start = 0;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (quote) {
      if (c === quote) quote = undefined;
    } else if (c === "'" || c === '"' || c === "`") quote = c;
    else if (c === "(") depth++;
    else if (c === ")") depth--;
    else if (c === "," && depth === 0) {
      parts.push(body.slice(start, i).trim());
      start = i + 1;
    }
  }
  parts.push(body.slice(start).trim());
  return { head: definition.slice(0, open), parts };
}
