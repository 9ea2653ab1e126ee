import { randomBytes } from "node:crypto";
import { createWriteStream, mkdirSync } from "node:fs";
import { readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import busboy from "busboy";
import { dataDir, db, writeTransaction } from "../../db/index";
import { recordAudit, type Actor } from "../models/audit.server";
import { DomainError } from "../utils/errors";
import { IMPORT_MAX_BYTES, IMPORT_MEDIA_MAX_BYTES, mediaTooLargeMessage, tooLargeMessage } from "./limits.server";
import { openMediaZip, type MediaZip } from "./media-zip.server";
import type { ImportFormat } from "./parse.server";
import { runImport, type ImportSummary } from "./run-import.server";
import { isActiveRun, type ImportRunStatus } from "./run-status";
import { ImportRefusal } from "./types";

// /admin/import's runs (issue 27): the uploaded file, and the zip of the old uploads when one is sent,
// are streamed to DATA_DIR/imports (each cut off at its size limit; the zip is checked whole), a job row is written, and the import runs in the background of this process while
// the row carries its stage and progress (a reload or the no-JS meta refresh shows them), then the
// summary or the refusal. A job left running by a stopped server reads as failed after two hours.

const FORMATS = ["auto", "wordpress", "ghost", "ours"] as const;
const running = new Set<number>();

export interface ImportJobView {
  id: number;
  createdAt: string;
  finishedAt: string | null;
  format: string;
  fileName: string;
  dryRun: boolean;
  status: ImportRunStatus;
  stage: string | null;
  done: number;
  total: number;
  summary: ImportSummary | null;
  error: string | null;
}

export async function listImportJobs(limit = 10): Promise<ImportJobView[]> {
  const rows = await db.selectFrom("import_jobs").selectAll().orderBy("id", "desc").limit(limit).execute();
  return rows.map((r) => {
    // A run still "running" after two hours was left behind by a stopped server (another process of
    // this site may be running a younger one, so a row is not judged by this process's own runs).
    const lost = isActiveRun(r.status) && !running.has(r.id) && Date.parse(r.created_at) < Date.now() - 2 * 3_600_000;
    return {
      id: r.id,
      createdAt: r.created_at,
      finishedAt: r.finished_at,
      format: r.format,
      fileName: r.file_name,
      dryRun: Boolean(r.dry_run),
      status: lost ? "failed" : r.status,
      stage: r.stage,
      done: Number(r.done),
      total: Number(r.total),
      summary: r.summary ? (JSON.parse(r.summary) as ImportSummary) : null,
      error: lost ? "Імпорт перервано: сервер зупинився. Запустіть його ще раз: уже імпортоване не повториться" : r.error,
    };
  });
}

interface Upload {
  format: ImportFormat;
  dryRun: boolean;
  fileName: string;
  path: string;
  /** The zip of the old uploads, when one was sent (checked whole before the run starts). */
  mediaPath: string | null;
  mediaZip?: MediaZip;
}

/** Passes a file's bytes on up to `max`; past it, drops the rest (the upload is refused afterwards) while the form goes on being read. */
function capAt(max: number, over: () => void) {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      seen += chunk.length;
      if (seen <= max) return callback(null, chunk);
      over();
      callback();
    },
  });
}

/** The submitted fields that a refused form shows again (a file input cannot be refilled). */
export interface ImportFormValues {
  format: ImportFormat;
  dryRun: boolean;
}

/** A refusal of the upload form, with the field it concerns and the values to show again. */
export class ImportFormError extends DomainError {
  constructor(
    error: DomainError,
    readonly values: ImportFormValues,
  ) {
    super(error.status, error.message, error.field);
  }
}

/**
 * Reads the upload form (format, dry_run, file, media) streaming both files to disk, each with its
 * own limit; refuses a file over its limit and a zip of uploads that is not one or looks hostile.
 */
async function receiveUpload(request: Request): Promise<Upload> {
  const type = request.headers.get("Content-Type") ?? "";
  if (!/^multipart\/form-data;\s*boundary=/i.test(type) || !request.body) throw new DomainError(400, "Надішліть файл через форму завантаження", "file");
  const dir = join(dataDir(), "imports");
  mkdirSync(dir, { recursive: true });
  const token = randomBytes(12).toString("hex");
  const paths = { file: join(dir, `.upload-${token}`), media: join(dir, `.media-${token}.zip`) };
  const limits = { file: IMPORT_MAX_BYTES, media: IMPORT_MEDIA_MAX_BYTES };
  const fields = new Map<string, string>();
  const names: Partial<Record<"file" | "media", string>> = {};
  const over = new Set<string>();
  const written: Promise<void>[] = [];
  const parser = busboy({ headers: { "content-type": type }, defParamCharset: "utf8", limits: { files: 2, fieldSize: 1000 } });
  parser.on("field", (name, value) => fields.set(name, value));
  parser.on("file", (name, stream, info) => {
    if ((name !== "file" && name !== "media") || !info.filename || names[name] !== undefined) return stream.resume();
    names[name] = info.filename.slice(0, 200);
    written.push(
      pipeline(
        stream,
        capAt(limits[name], () => over.add(name)),
        createWriteStream(paths[name], { flags: "wx" }),
      ),
    );
  });
  const removeAll = () => Promise.all([rm(paths.file, { force: true }), rm(paths.media, { force: true })]);
  try {
    await pipeline(Readable.fromWeb(request.body as import("node:stream/web").ReadableStream), parser);
    await Promise.all(written);
  } catch {
    await removeAll();
    throw new DomainError(400, "Завантаження перервано: спробуйте ще раз", "file");
  }
  const values: ImportFormValues = {
    format: (FORMATS as readonly string[]).includes(fields.get("format") ?? "") ? (fields.get("format") as ImportFormat) : "auto",
    dryRun: fields.get("dry_run") === "1",
  };
  const refuse = async (error: DomainError): Promise<never> => {
    await removeAll();
    throw new ImportFormError(error, values);
  };
  if (!names.file) return refuse(new DomainError(422, "Виберіть файл експорту", "file"));
  if (over.has("file")) return refuse(new DomainError(413, tooLargeMessage(), "file"));
  if (over.has("media")) return refuse(new DomainError(413, mediaTooLargeMessage(), "media"));
  const upload: Upload = { ...values, fileName: names.file, path: paths.file, mediaPath: names.media ? paths.media : null };
  if (upload.mediaPath) {
    try {
      upload.mediaZip = await openMediaZip(upload.mediaPath);
    } catch (error) {
      if (error instanceof DomainError) return refuse(error);
      throw error;
    }
  }
  return upload;
}

/** Takes the upload and starts the run in the background; answers the job id. */
export async function startImportJob(request: Request, actor: Actor): Promise<number> {
  const upload = await receiveUpload(request);
  const row = await db
    .insertInto("import_jobs")
    .values({
      user_id: actor.id,
      format: upload.format,
      file_name: upload.fileName,
      dry_run: upload.dryRun ? 1 : 0,
      status: "running",
      stage: "parse",
      created_at: new Date().toISOString(),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const id = Number(row.id);
  running.add(id);
  void runJob(id, upload, actor).finally(() => running.delete(id));
  return id;
}

async function runJob(id: number, upload: Upload, actor: Actor) {
  let lastWrite = 0;
  const onProgress = (stage: string, done: number, total: number) => {
    const now = Date.now();
    if (now - lastWrite < 500 && done !== total) return;
    lastWrite = now;
    void db
      .updateTable("import_jobs")
      .set({ stage, done, total })
      .where("id", "=", id)
      .execute()
      .catch(() => undefined);
  };
  try {
    const text = await readFile(upload.path, "utf8");
    const summary = await runImport({ format: upload.format, text, actor, dryRun: upload.dryRun, mediaZip: upload.mediaZip, onProgress });
    await db
      .updateTable("import_jobs")
      .set({ status: "done", stage: "done", summary: JSON.stringify(summary), finished_at: new Date().toISOString() })
      .where("id", "=", id)
      .execute();
  } catch (error) {
    const message = error instanceof ImportRefusal ? error.message : `Імпорт не вдався: ${(error as Error)?.message ?? error}`;
    if (!(error instanceof ImportRefusal)) console.error(error);
    await writeTransaction(async (trx) => {
      await trx.updateTable("import_jobs").set({ status: "failed", error: message, finished_at: new Date().toISOString() }).where("id", "=", id).execute();
      await recordAudit(trx, {
        actor,
        action: "site.import_failed",
        object: { type: "import", label: upload.fileName },
        details: { reason: message.slice(0, 200) },
      });
    }).catch(() => undefined);
  } finally {
    upload.mediaZip?.close();
    await rm(upload.path, { force: true });
    if (upload.mediaPath) await rm(upload.mediaPath, { force: true });
  }
}

/** Waits for a job to end (tests). */
export async function waitForImportJob(id: number, timeoutMs = 60_000): Promise<ImportJobView | undefined> {
  const until = Date.now() + timeoutMs;
  while (running.has(id) && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
  return (await listImportJobs(50)).find((j) => j.id === id);
}
