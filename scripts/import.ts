// npm run import -- wordpress FILE.xml [--media DIR|uploads.zip] [--dry-run]     (issue 27, DESIGN §14)
// npm run import -- ghost FILE.json [--media DIR] [--source-url https://old.site] [--dry-run]
// npm run import -- ours FILE.json          (our own export; `npm run import -- FILE` detects the format)
// Imports into the site of DATA_DIR (or DATABASE_URL) with a progress bar and a summary table.
import { readFile, stat } from "node:fs/promises";
import { IMPORT_MAX_BYTES, tooLargeMessage } from "../app/import/limits.server";
import { openMediaZip, type MediaZip } from "../app/import/media-zip.server";
import type { ImportFormat } from "../app/import/parse.server";
import { runImport, stopImportPool } from "../app/import/run-import.server";
import { summaryRows } from "../app/import/summary";
import { ImportRefusal } from "../app/import/types";
import { stopCpuPool } from "../app/utils/cpu-pool.server";
import { closeDatabase, db } from "../db/index";
import { migrateToLatest } from "../db/migrate";

const USAGE = "Usage: npm run import -- wordpress|ghost|ours FILE [--media DIR|FILE.zip] [--source-url URL] [--dry-run]";
const args = process.argv.slice(2);
const flag = (name: string) => {
  const at = args.indexOf(name);
  if (at < 0) return undefined;
  const value = args[at + 1];
  args.splice(at, 2);
  return value;
};
const dryRun = args.includes("--dry-run");
if (dryRun) args.splice(args.indexOf("--dry-run"), 1);
const mediaDir = flag("--media");
const sourceUrl = flag("--source-url");
const formats = ["wordpress", "ghost", "ours"];
const format = (formats.includes(args[0]) ? args.shift() : "auto") as ImportFormat;
const file = args[0];
if (!file) {
  console.error(USAGE);
  process.exit(2);
}

let last = "";
const bar = (stage: string, done: number, total: number) => {
  if (!process.stderr.isTTY && stage === last && done !== total) return;
  last = stage;
  const width = 30;
  const filled = total ? Math.round((done / total) * width) : 0;
  const line = `${stage.padEnd(8)} [${"#".repeat(filled)}${".".repeat(width - filled)}] ${done}/${total}`;
  process.stderr.write(process.stderr.isTTY ? `\r${line}` : `${line}\n`);
};

let mediaZip: MediaZip | undefined;

async function main() {
  const info = await stat(file).catch(() => null);
  if (!info?.isFile()) throw new ImportRefusal(`Файл ${file} не знайдено`);
  if (info.size > IMPORT_MAX_BYTES) throw new ImportRefusal(tooLargeMessage(info.size));
  // A zip of the old uploads is checked whole, as on the screen (app/import/media-zip.server.ts).
  if (mediaDir && /\.zip$/i.test(mediaDir) && (await stat(mediaDir).catch(() => null))?.isFile())
    mediaZip = await openMediaZip(mediaDir).catch((error: Error) => {
      throw new ImportRefusal(error.message);
    });
  await migrateToLatest(db);
  const summary = await runImport({
    format,
    text: await readFile(file, "utf8"),
    actor: null,
    dryRun,
    mediaDir: mediaZip ? undefined : mediaDir,
    mediaZip,
    sourceUrl,
    onProgress: bar,
  });
  process.stderr.write("\n");
  console.table(Object.fromEntries(summaryRows(summary).map(([label, value]) => [label, { "": value }])));
  for (const f of summary.images.failed) console.log(`  зображення не імпортовано: ${f.url} (${f.reason})`);
  for (const f of summary.failures) console.log(`  статтю не імпортовано: ${f.title} (${f.reason})`);
}

main()
  .catch((error: Error) => {
    process.stderr.write("\n");
    console.error(error instanceof ImportRefusal ? error.message : `Імпорт не вдався: ${error.message}`);
    process.exitCode = 1;
  })
  .finally(async () => {
    mediaZip?.close();
    await stopImportPool();
    await stopCpuPool();
    await closeDatabase();
  });
