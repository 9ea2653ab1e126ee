import type { Kysely } from "kysely";
import { autoId, now as nowIn, timestamp } from "./dialect";

// Issue 27 (DESIGN §14, docs/decisions/025): importing a WordPress or Ghost site, and our own export.
// - import_sources: what each imported thing was at its source (kind + the source's own id, within
//   one source site) and what it became here, so importing the same file twice changes nothing.
// - redirects: an old public path (`/2019/05/slug`, `/?p=123`, Ghost's `/slug`, `/category/x`,
//   `/tag/x`) and the path it now lives at; answered with a 301. The key is the decoded path
//   without its trailing slash (`/?p=123` keeps its query), looked up by primary key only.
// - import_jobs: one run started from /admin/import, with its progress and summary, so a reload
//   (or a no-JS meta refresh) shows where it is.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("import_sources")
    .addColumn("source", "text", (c) => c.notNull())
    .addColumn("site", "text", (c) => c.notNull())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("source_id", "text", (c) => c.notNull())
    .addColumn("target_id", "text", (c) => c.notNull())
    .addColumn("created_at", timestamp(db), (c) => c.notNull().defaultTo(nowIn(db)))
    .addPrimaryKeyConstraint("import_sources_pk", ["source", "site", "kind", "source_id"])
    .execute();
  await db.schema
    .createTable("redirects")
    .addColumn("old_path", "text", (c) => c.primaryKey())
    .addColumn("new_path", "text", (c) => c.notNull())
    .addColumn("created_at", timestamp(db), (c) => c.notNull().defaultTo(nowIn(db)))
    .execute();
  await db.schema
    .createTable("import_jobs")
    .$call(autoId(db))
    .addColumn("created_at", timestamp(db), (c) => c.notNull().defaultTo(nowIn(db)))
    .addColumn("finished_at", timestamp(db))
    .addColumn("user_id", "text")
    .addColumn("format", "text", (c) => c.notNull())
    .addColumn("file_name", "text", (c) => c.notNull())
    .addColumn("dry_run", "integer", (c) => c.notNull().defaultTo(0))
    // queued → running → done | failed
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("stage", "text")
    .addColumn("done", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("total", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("summary", "text")
    .addColumn("error", "text")
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("import_jobs").execute();
  await db.schema.dropTable("redirects").execute();
  await db.schema.dropTable("import_sources").execute();
}
