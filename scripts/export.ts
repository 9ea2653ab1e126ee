// npm run export -- FILE.json   (issue 27, DESIGN §14; the format: docs/import-export.md)
import { writeFile } from "node:fs/promises";
import { buildExport } from "../app/import/export.server";
import { closeDatabase, db } from "../db/index";
import { migrateToLatest } from "../db/migrate";

const file = process.argv[2];
if (!file) {
  console.error("Usage: npm run export -- FILE.json");
  process.exit(2);
}
migrateToLatest(db)
  .then(() => buildExport({ actor: null }))
  .then(async (doc) => {
    await writeFile(file, JSON.stringify(doc, null, 1));
    console.log(
      `Експортовано в ${file}: ${Object.entries(doc.counts)
        .map(([k, v]) => `${k} ${v}`)
        .join(", ")}`,
    );
  })
  .catch((error: Error) => {
    console.error(`Експорт не вдався: ${error.message}`);
    process.exitCode = 1;
  })
  .finally(() => closeDatabase());
