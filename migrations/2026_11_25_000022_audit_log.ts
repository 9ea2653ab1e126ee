import { sql, type Kysely } from "kysely";
import { autoId, isPostgres, now as nowIn, timestamp } from "./dialect";

// Issue 25 (item 11): the audit log (SECURITY.md 'Audit log', docs/decisions/024). One row per staff
// change, written in the change's own transaction: who (user id and username at the time, so an
// entry outlives its user: no foreign key), the action, the object (type, id and a short label),
// when, from which address, and a small JSON of details. Append-only, and the database holds it to
// that: an UPDATE is refused, and so is a DELETE of an entry less than 360 days old (the only
// deletion is the hourly prune of entries older than a year; the margin keeps an application
// clock a little ahead of the database's from tripping it).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("audit_log")
    .$call(autoId(db))
    .addColumn("created_at", timestamp(db), (c) => c.notNull().defaultTo(nowIn(db)))
    .addColumn("user_id", "text")
    .addColumn("username", "text")
    .addColumn("action", "text", (c) => c.notNull())
    .addColumn("object_type", "text")
    .addColumn("object_id", "text")
    .addColumn("object_label", "text")
    .addColumn("ip", "text")
    // JSON text on both engines: small, written once, read only to be shown.
    .addColumn("details", "text")
    .execute();
  // Newest first by id, filtered by date range, person or action; the prune walks created_at.
  await db.schema.createIndex("audit_log_created_at").on("audit_log").column("created_at").execute();
  await db.schema.createIndex("audit_log_username").on("audit_log").columns(["username", "id"]).execute();
  await db.schema.createIndex("audit_log_action").on("audit_log").columns(["action", "id"]).execute();

  if (isPostgres(db)) {
    await sql`create function audit_log_append_only() returns trigger language plpgsql as $$
      begin
        if tg_op = 'UPDATE' then raise exception 'audit_log is append-only: entries are never changed'; end if;
        if old.created_at > now() - interval '360 days' then
          raise exception 'audit_log is append-only: entries younger than a year are never deleted';
        end if;
        return old;
      end $$`.execute(db);
    await sql`create trigger audit_log_append_only before update or delete on audit_log
      for each row execute function audit_log_append_only()`.execute(db);
  } else {
    await sql`create trigger audit_log_no_update before update on audit_log
      begin select raise(abort, 'audit_log is append-only: entries are never changed'); end`.execute(db);
    await sql`create trigger audit_log_no_early_delete before delete on audit_log
      when old.created_at > strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-360 days')
      begin select raise(abort, 'audit_log is append-only: entries younger than a year are never deleted'); end`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("audit_log").execute();
  if (isPostgres(db)) await sql`drop function if exists audit_log_append_only()`.execute(db);
}
