import { sql, type Kysely } from "kysely";
import { autoId, isPostgres, timestamp } from "./dialect";
import { rebuildArticles } from "./rebuild-articles";

// Issue 14 (DESIGN §11): two more article statuses, `review` and `scheduled`, and the desk's notes
// (a reporter's note on submit, an editor's note on return: who and when).
//
// SQLite cannot change a CHECK constraint in place, so the articles table is rebuilt
// (./rebuild-articles.ts); PostgreSQL replaces the constraint.

const OLD_CHECK = "status in ('draft', 'published', 'archived')";
const NEW_CHECK = "status in ('draft', 'published', 'archived', 'review', 'scheduled')";

const widenCheck = (from: string, to: string) => (definition: string) => {
  if (!definition.includes(from)) throw new Error(`articles: expected the check "${from}" in its definition`);
  return definition.replace(from, to);
};

/** Replaces the status check: PostgreSQL in place, SQLite by rebuilding the table. */
async function changeCheck(db: Kysely<any>, from: string, to: string) {
  if (!isPostgres(db)) return rebuildArticles(db, widenCheck(from, to));
  await sql`alter table articles drop constraint articles_status_check`.execute(db);
  await sql.raw(`alter table articles add constraint articles_status_check check (${to})`).execute(db);
}

export async function up(db: Kysely<any>): Promise<void> {
  await changeCheck(db, OLD_CHECK, NEW_CHECK);
  await db.schema
    .createTable("article_desk_notes")
    .$call(autoId(db))
    .addColumn("article_id", "text", (c) => c.notNull().references("articles.id").onDelete("cascade"))
    .addColumn("kind", "text", (c) => c.notNull().check(sql`kind in ('submit', 'return')`))
    .addColumn("note", "text")
    .addColumn("user_id", "text", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("created_at", timestamp(db), (c) => c.notNull())
    .execute();
  await db.schema.createIndex("article_desk_notes_article").on("article_desk_notes").columns(["article_id", "id"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("article_desk_notes").execute();
  await sql`update articles set status = 'draft' where status in ('review', 'scheduled')`.execute(db);
  await changeCheck(db, NEW_CHECK, OLD_CHECK);
}
