import { sql, type Kysely } from "kysely";
import { autoId, isPostgres, now as nowIn, timestamp } from "./dialect";

// Issue 29 items 3–5 (DESIGN §16, docs/decisions/029-corrections-embargo-sources.md):
// - `article_corrections`: one row per save marked a correction, with its note, who and when, and
//   the revision that save wrote (so the correction is part of the article's history);
// - articles gain `embargo_until` (UTC), `embargo_note` and `updated_significantly_at` (the
//   "Оновлено" time: set by a correction or a save marked a significant update);
// - `article_sources`: the article's sources in order (study, dataset, report, other).
// The embargo is also held by the database: a row can never be `published` while its embargo is
// ahead of the database's clock, whatever code writes it (a trigger on each engine). The app
// checks first and answers in Ukrainian; the trigger is the backstop for a path that forgot.
export async function up(db: Kysely<any>): Promise<void> {
  const ts = timestamp(db);
  const now = nowIn(db);
  await db.schema.alterTable("articles").addColumn("embargo_until", ts).execute();
  await db.schema.alterTable("articles").addColumn("embargo_note", "text").execute();
  await db.schema.alterTable("articles").addColumn("updated_significantly_at", ts).execute();
  // "What lifts next" on the dashboard and the list: only embargoed rows are in it.
  await db.schema.createIndex("articles_embargo_until").on("articles").column("embargo_until").where(sql.ref("embargo_until"), "is not", null).execute();

  await db.schema
    .createTable("article_corrections")
    .$call(autoId(db))
    .addColumn("article_id", "text", (c) => c.notNull().references("articles.id").onDelete("cascade"))
    .addColumn("note", "text", (c) => c.notNull())
    .addColumn("created_at", ts, (c) => c.notNull().defaultTo(now))
    .addColumn("created_by", "text", (c) => c.references("users.id").onDelete("set null"))
    // The revision the correcting save wrote; kept when history is pruned (set null).
    .addColumn("revision_id", "integer", (c) => c.references("article_revisions.id").onDelete("set null"))
    .execute();
  await db.schema.createIndex("article_corrections_article").on("article_corrections").columns(["article_id", "id"]).execute();
  await db.schema.createIndex("article_corrections_created").on("article_corrections").columns(["created_at", "id"]).execute();

  await db.schema
    .createTable("article_sources")
    .$call(autoId(db))
    .addColumn("article_id", "text", (c) => c.notNull().references("articles.id").onDelete("cascade"))
    .addColumn("position", "integer", (c) => c.notNull())
    .addColumn("kind", "text", (c) => c.notNull().check(sql`kind in ('study', 'dataset', 'report', 'other')`))
    .addColumn("doi", "text")
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("publisher", "text")
    .addColumn("year", "integer")
    // 1 peer reviewed, 0 not (a preprint), null unknown.
    .addColumn("peer_reviewed", "integer")
    .addColumn("url", "text")
    .execute();
  await db.schema.createIndex("article_sources_article").on("article_sources").columns(["article_id", "position"]).execute();

  const message = "embargo: an article cannot be published before its embargo_until";
  if (isPostgres(db)) {
    await sql
      .raw(
        `create function articles_embargo_guard() returns trigger language plpgsql as $$
      begin
        if new.status = 'published' and new.embargo_until is not null and new.embargo_until > now() then
          raise exception '${message}' using errcode = 'check_violation';
        end if;
        return new;
      end $$`,
      )
      .execute(db);
    await sql`create trigger articles_embargo_guard before insert or update of status, embargo_until on articles
      for each row execute function articles_embargo_guard()`.execute(db);
  } else {
    const when = `new.status = 'published' and new.embargo_until is not null and new.embargo_until > strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`;
    await sql.raw(`create trigger articles_embargo_insert before insert on articles when ${when} begin select raise(abort, '${message}'); end`).execute(db);
    await sql
      .raw(
        `create trigger articles_embargo_update before update of status, embargo_until on articles when ${when} begin select raise(abort, '${message}'); end`,
      )
      .execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    await sql`drop trigger if exists articles_embargo_guard on articles`.execute(db);
    await sql`drop function if exists articles_embargo_guard()`.execute(db);
  } else {
    await sql`drop trigger if exists articles_embargo_insert`.execute(db);
    await sql`drop trigger if exists articles_embargo_update`.execute(db);
  }
  await db.schema.dropTable("article_sources").execute();
  await db.schema.dropTable("article_corrections").execute();
  await db.schema.dropIndex("articles_embargo_until").execute();
  await db.schema.alterTable("articles").dropColumn("updated_significantly_at").execute();
  await db.schema.alterTable("articles").dropColumn("embargo_note").execute();
  await db.schema.alterTable("articles").dropColumn("embargo_until").execute();
}
