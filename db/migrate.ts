import { Migrator, type Migration, type MigrationProvider } from "kysely";
import * as initial from "../migrations/2026_11_22_000001_initial";
import * as imageText from "../migrations/2026_11_24_000017_image_text";
import * as reviewSchedule from "../migrations/2026_11_24_000018_review_schedule";
import * as revisionsPreviews from "../migrations/2026_11_24_000019_revisions_previews";
import * as articleColumns from "../migrations/2026_11_24_000020_article_columns";
import * as twoFactor from "../migrations/2026_11_25_000021_two_factor";
import * as auditLog from "../migrations/2026_11_25_000022_audit_log";
import * as importTables from "../migrations/2026_11_25_000023_import";
import * as comments from "../migrations/2026_11_25_000024_comments";
import * as newsletter from "../migrations/2026_11_25_000025_newsletter";
import * as bylines from "../migrations/2026_11_25_000026_bylines";
import * as correctionsEmbargoSources from "../migrations/2026_11_25_000027_corrections_embargo_sources";
import * as searchStems from "../migrations/2026_11_25_000028_search_stems";
import * as pagesMenus from "../migrations/2026_11_25_000029_pages_menus";
import * as newcomerRound2 from "../migrations/2026_11_25_000030_newcomer_round_2";
import * as menus from "../migrations/2026_12_01_000031_menus";
import type { DB } from "./index";

// Migrations are imported here rather than read from disk so they travel inside the compiled
// server; add each new file to this list (names sort in the order they run).
const migrations: Record<string, Migration> = {
  "2026_11_22_000001_initial": initial,
  "2026_11_24_000017_image_text": imageText,
  "2026_11_24_000018_review_schedule": reviewSchedule,
  "2026_11_24_000019_revisions_previews": revisionsPreviews,
  "2026_11_24_000020_article_columns": articleColumns,
  "2026_11_25_000021_two_factor": twoFactor,
  "2026_11_25_000022_audit_log": auditLog,
  "2026_11_25_000023_import": importTables,
  "2026_11_25_000024_comments": comments,
  "2026_11_25_000025_newsletter": newsletter,
  "2026_11_25_000026_bylines": bylines,
  "2026_11_25_000027_corrections_embargo_sources": correctionsEmbargoSources,
  "2026_11_25_000028_search_stems": searchStems,
  "2026_11_25_000029_pages_menus": pagesMenus,
  "2026_11_25_000030_newcomer_round_2": newcomerRound2,
  "2026_12_01_000031_menus": menus,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

/** Brings the database up to date; refuses a database migrated by newer code. */
export async function migrateToLatest(db: DB): Promise<void> {
  const migrator = new Migrator({ db, provider });
  const known = new Set(Object.keys(migrations));
  // Kysely also refuses unknown applied migrations; checking first gives a clearer message.
  const tables = await db.introspection.getTables({ withInternalKyselyTables: true });
  const applied = tables.some((t) => t.name === "kysely_migration")
    ? await db
        .selectFrom("kysely_migration" as any)
        .select("name")
        .execute()
    : [];
  const unknown = applied.map((r: any) => r.name as string).filter((name) => !known.has(name));
  if (unknown.length) {
    throw new Error(
      `The database was migrated by a newer version of the site: it has ` +
        `migration${unknown.length > 1 ? "s" : ""} this code does not know (${unknown.join(", ")}). ` +
        "Upgrade the code to that version (git pull, npm ci, npm run build), or restore a backup made " +
        "with this version. Nothing was changed.",
    );
  }
  const { error, results } = await migrator.migrateToLatest();
  for (const result of results ?? []) {
    if (result.status === "Error") console.error(`migration ${result.migrationName} failed`);
  }
  if (error) throw error;
}
