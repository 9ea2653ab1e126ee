import { createHash } from "node:crypto";
import type SQLite from "better-sqlite3";
import { sql } from "kysely";
import { searchRows as searchRowsOf } from "../app/utils/search-text.server";
import { openPostgres, redactedUrl } from "./engines/postgres";
import { openSqlite } from "./engines/sqlite";
import type { DB } from "./engines/types";
import { migrateToLatest } from "./migrate";

// `npm run db:copy -- --to postgres://…` (DESIGN §13, scripts/db-copy.ts): a SQLite site moves to
// an empty PostgreSQL database. Every table is copied with its ids (and the articles' rowids, which
// the search index shares), in one PostgreSQL transaction, from one SQLite read snapshot (a site
// may keep running: WAL readers see one consistent state). The search index is rebuilt from the
// articles and their tags; sequences are moved past the copied ids; then row counts and a content
// hash of every table are compared on both sides. A target that holds any table is refused.

/** Tables in an order that satisfies every foreign key; the search tables (articles_fts, articles_stems) are rebuilt, not copied. */
export const COPIED_TABLES = [
  "users",
  "sessions",
  "categories",
  "articles",
  "tags",
  "article_tags",
  "slug_redirects",
  "page_views",
  "homepage_blocks",
  "settings",
  "media",
  "login_attempts",
  "article_revisions",
  "article_autosaves",
  "preview_links",
  "article_desk_notes",
  "user_two_factor",
  "user_recovery_codes",
  "sign_in_challenges",
  "audit_log",
  "comments",
  "guest_authors",
  "article_authors",
  "newsletter_subscribers",
  "newsletter_issues",
  "newsletter_queue",
  "password_resets",
  "article_corrections",
  "article_sources",
  "pages",
  "menu_items",
  "import_sources",
  "redirects",
  "import_jobs",
  "form_tokens",
] as const;

/** Tables a migration fills on a new site: emptied on the target before the copy. */
const SEEDED_BY_MIGRATIONS = ["menu_items", "pages"] as const;

/** Tables whose SQLite rowid is an explicit column on PostgreSQL (migrations/dialect.ts `rowid`). */
const WITH_ROWID = new Set(["articles", "article_tags"]);
/** Integer keys the database numbers: their sequences move past the copied ids. */
const SERIAL_KEYS: Record<string, string> = {
  tags: "id",
  login_attempts: "id",
  article_revisions: "id",
  article_desk_notes: "id",
  user_recovery_codes: "id",
  audit_log: "id",
  newsletter_subscribers: "id",
  newsletter_issues: "id",
  newsletter_queue: "id",
  article_corrections: "id",
  article_sources: "id",
  import_jobs: "id",
};

export interface CopyReport {
  tables: { table: string; rows: number }[];
  hash: string;
  searchRows: number;
}

export class CopyRefused extends Error {
  override name = "CopyRefused";
}

/** Copies the SQLite database at `file` into the empty PostgreSQL database at `url`. */
export async function copySqliteToPostgres({
  file,
  url,
  onTable,
}: {
  file: string;
  url: string;
  onTable?: (table: string, rows: number) => void;
}): Promise<CopyReport> {
  const source = openSqlite(file);
  const target = openPostgres(url, { max: 1 });
  try {
    const existing = await sql<{ n: number }>`select count(*) as n from information_schema.tables where table_schema = current_schema()`.execute(target.db);
    if (existing.rows[0].n > 0) {
      throw new CopyRefused(`The target database ${redactedUrl(url)} is not empty (${existing.rows[0].n} tables): copy into a new, empty database.`);
    }
    await migrateToLatest(source.db);
    try {
      return await copyInto(source, target, onTable);
    } catch (error) {
      // The target was empty: leave it so (the migrations ran in transactions of their own).
      const tables = await sql<{ name: string }>`select table_name as name from information_schema.tables where table_schema = current_schema()`.execute(
        target.db,
      );
      for (const { name } of tables.rows) await sql`drop table if exists ${sql.table(name)} cascade`.execute(target.db);
      throw error;
    }
  } finally {
    await target.close();
    await source.close();
  }
}

async function copyInto(
  source: ReturnType<typeof openSqlite>,
  target: ReturnType<typeof openPostgres>,
  onTable?: (table: string, rows: number) => void,
): Promise<CopyReport> {
  {
    await migrateToLatest(target.db);
    const { sqlite } = source;
    // One read snapshot of the source for the copy and its checks.
    sqlite.exec("begin");
    try {
      const tables: CopyReport["tables"] = [];
      await target.db.transaction().execute(async (trx) => {
        // Rows the migrations write on a new site (the six draft pages, migration 000029, and the
        // menus that link them, 000031) are replaced by the source's own.
        for (const table of SEEDED_BY_MIGRATIONS) await trx.deleteFrom(table).execute();
        for (const table of COPIED_TABLES) {
          const columns = (sqlite.prepare(`select name from pragma_table_info('${table}')`).all() as { name: string }[]).map((c) => c.name);
          const selected = WITH_ROWID.has(table) ? ["rowid", ...columns] : columns;
          const types = await columnTypes(trx, table);
          let rows = 0;
          let batch: Record<string, unknown>[] = [];
          // PostgreSQL takes at most 65,535 parameters in one statement.
          const perBatch = Math.max(1, Math.floor(30_000 / selected.length));
          const flush = async () => {
            if (!batch.length) return;
            await trx
              .insertInto(table as never)
              .values(batch as never)
              .execute();
            rows += batch.length;
            batch = [];
          };
          for (const row of sqlite.prepare(`select ${selected.map((c) => `"${c}"`).join(", ")} from "${table}"`).iterate() as Iterable<
            Record<string, unknown>
          >) {
            const converted: Record<string, unknown> = {};
            for (const column of selected) converted[column] = toPostgres(row[column], types.get(column));
            batch.push(converted);
            if (batch.length >= perBatch) await flush();
          }
          await flush();
          tables.push({ table, rows });
          onTable?.(table, rows);
        }
        await rebuildSearchRows(sqlite, trx);
        for (const [table, column] of Object.entries(SERIAL_KEYS)) {
          await sql`select setval(pg_get_serial_sequence(${table}, ${column}), coalesce((select max(${sql.ref(column)}) from ${sql.table(table)}), 0) + 1, false)`.execute(
            trx,
          );
        }
        for (const table of WITH_ROWID) {
          await sql`select setval(pg_get_serial_sequence(${table}, 'rowid'), coalesce((select max(rowid) from ${sql.table(table)}), 0) + 1, false)`.execute(
            trx,
          );
        }
      });
      const searchRows = Number((await sql<{ n: number }>`select count(*) as n from articles_fts`.execute(target.db)).rows[0].n);
      // The check: the same rows and the same content on both sides, table by table.
      const digest = createHash("sha256");
      for (const { table, rows } of tables) {
        const counted = Number((await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`.execute(target.db)).rows[0].n);
        if (counted !== rows) throw new Error(`${table}: ${rows} rows read, ${counted} in the target`);
        const shape = hashColumns(sqlite, table);
        const [fromSource, fromTarget] = [sourceTableHash(sqlite, table, shape), await targetTableHash(target.db, table, shape)];
        if (fromSource !== fromTarget)
          throw new Error(`${table}: the copied content differs from the source (hash ${fromSource.slice(0, 12)} ≠ ${fromTarget.slice(0, 12)})`);
        digest.update(`${table}:${fromSource}\n`);
      }
      const articles = tables.find((t) => t.table === "articles")!.rows;
      if (searchRows !== articles) throw new Error(`search index: ${searchRows} rows for ${articles} articles`);
      return { tables, hash: digest.digest("hex"), searchRows };
    } finally {
      sqlite.exec("rollback");
    }
  }
}

async function columnTypes(executor: DB, table: string): Promise<Map<string, string>> {
  const result = await sql<{ column_name: string; data_type: string }>`select column_name, data_type from information_schema.columns
    where table_schema = current_schema() and table_name = ${table}`.execute(executor);
  return new Map(result.rows.map((r) => [r.column_name, r.data_type]));
}

/** SQLite's text times become timestamptz values; everything else is taken as it is. */
function toPostgres(value: unknown, type: string | undefined): unknown {
  if (value == null) return null;
  if (type === "timestamp with time zone") return new Date(String(value)).toISOString();
  if (typeof value === "bigint") return Number(value);
  return value;
}

/** A value as the hash sees it on either side: times as ISO UTC with milliseconds, numbers as numbers. */
function canonical(value: unknown, isTime: boolean): string {
  if (value == null) return "\u0000";
  if (isTime) return new Date(String(value)).toISOString();
  if (typeof value === "number" || typeof value === "bigint") return String(Number(value));
  return String(value);
}

/** Columns of a table in a fixed order, and the ones that hold times (by name, as the schema does). */
function hashColumns(sqlite: SQLite.Database, table: string) {
  const columns = (sqlite.prepare(`select name from pragma_table_info('${table}')`).all() as { name: string }[]).map((c) => c.name).sort();
  const times = new Set(columns.filter((c) => /_at$|^last_login$/.test(c)));
  return { columns, times };
}

function rowDigest(rows: Record<string, unknown>[], columns: string[], times: Set<string>): string {
  const lines = rows.map((row) => columns.map((c) => canonical(row[c], times.has(c))).join("\u0001")).sort();
  const hash = createHash("sha256");
  for (const line of lines) hash.update(line + "\n");
  return hash.digest("hex");
}

type Shape = ReturnType<typeof hashColumns>;

function sourceTableHash(sqlite: SQLite.Database, table: string, { columns, times }: Shape): string {
  const rows = sqlite.prepare(`select ${columns.map((c) => `"${c}"`).join(", ")} from "${table}"`).all() as Record<string, unknown>[];
  return rowDigest(rows, columns, times);
}

async function targetTableHash(db: DB, table: string, { columns, times }: Shape): Promise<string> {
  const result = await sql<Record<string, unknown>>`select ${sql.join(columns.map((c) => sql.ref(c)))} from ${sql.table(table)}`.execute(db);
  return rowDigest(result.rows, columns, times);
}

/** The search rows of every copied article (issue 30: words and stems are made by our code, docs/decisions/030), 500 at a time. */
async function rebuildSearchRows(sqlite: SQLite.Database, trx: DB) {
  const articles = sqlite
    .prepare(
      `select a.rowid, a.id, a.title, a.subtitle, a.content,
        coalesce((select group_concat(name, char(10)) from (select t.name from article_tags at join tags t on t.id = at.tag_id
          where at.article_id = a.id order by at.position)), '') as tags
      from articles a order by a.rowid`,
    )
    .iterate() as Iterable<{ rowid: number; id: string; title: string; subtitle: string | null; content: string; tags: string }>;
  let forms: Record<string, unknown>[] = [];
  let stems: Record<string, unknown>[] = [];
  const flush = async () => {
    if (!forms.length) return;
    await trx
      .insertInto("articles_fts")
      .values(forms as never)
      .execute();
    await trx
      .insertInto("articles_stems")
      .values(stems as never)
      .execute();
    forms = [];
    stems = [];
  };
  for (const a of articles) {
    const rows = searchRowsOf({ title: a.title, subtitle: a.subtitle, content: a.content, tags: a.tags ? a.tags.split("\n") : [] });
    forms.push({ rowid: a.rowid, article_id: a.id, ...rows.forms });
    stems.push({ rowid: a.rowid, ...rows.stems });
    if (forms.length >= 500) await flush();
  }
  await flush();
}
