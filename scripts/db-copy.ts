// npm run db:copy -- --to postgres://user:pass@host:5432/db   (DESIGN §13)
// Copies this site's SQLite database (DATA_DIR/news.db) to an empty PostgreSQL database: every
// table with its ids, the search index rebuilt, row counts and a content hash checked. Uploads stay
// where they are (DATA_DIR/uploads, or UPLOADS_DIR). Then start the site with DATABASE_URL set.
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { copySqliteToPostgres } from "../db/copy";
import { redactedUrl } from "../db/index";

const args = process.argv.slice(2);
const at = args.indexOf("--to");
const url = at >= 0 ? args[at + 1] : undefined;
if (!url || !/^postgres(ql)?:\/\//.test(url)) {
  console.error("Usage: npm run db:copy -- --to postgres://user:password@host:5432/database");
  process.exit(2);
}
const file = join(resolve(process.env.DATA_DIR || "./data"), "news.db");
if (!existsSync(file)) {
  console.error(`No SQLite database at ${file}: set DATA_DIR to the site's data folder.`);
  process.exit(1);
}
const started = Date.now();
console.log(`Copying ${file} → ${redactedUrl(url)}`);
copySqliteToPostgres({ file, url, onTable: (table, rows) => console.log(`  ${table.padEnd(20)} ${String(rows).padStart(9)} rows`) })
  .then((report) => {
    console.log(`  ${"articles_fts".padEnd(20)} ${String(report.searchRows).padStart(9)} rows (rebuilt)`);
    console.log(`Done in ${((Date.now() - started) / 1000).toFixed(1)} s: row counts match, content hash ${report.hash.slice(0, 16)} on both sides.`);
    console.log(`Start the site on it with DATABASE_URL=${redactedUrl(url)} npm start`);
  })
  .catch((error: Error) => {
    console.error(`Copy failed, nothing was kept in the target: ${error.message}`);
    process.exit(1);
  });
