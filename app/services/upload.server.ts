import { randomBytes } from "node:crypto";
import { createWriteStream, mkdirSync } from "node:fs";
import { readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import busboy from "busboy";
import type { Actor } from "../models/audit.server";
import { MAX_IMAGE_BYTES, REFUSAL, cleanFileName, storeImage, uploadsDir, type MediaItem } from "../models/media.server";
import { DomainError } from "../utils/errors";
import { MAX_FILES_PER_REQUEST } from "../utils/upload-limits";

// Streaming multipart uploads for the media screen and POST /api/media (SECURITY.md 'Uploads').
// Each file part is streamed to a dot-file in the uploads folder (never served: express.static
// denies dotfiles); busboy cuts a part off at 5 MB and skips the rest of it, so one oversized file
// does not fail the others. The temp file is removed in every case (stored, refused, aborted
// request). busboy rather than Remix's multipart parser: that one refuses a file name containing
// `=` or `;` ("mismatched quotations"), which real users' files have.

export interface Rejection {
  name: string;
  reason: string;
  /** 413 too large, 415 not an accepted image type, 422 anything else. */
  status: 413 | 415 | 422;
}

export interface UploadResult {
  fields: FormData;
  stored: MediaItem[];
  rejected: Rejection[];
}

/** A text field of an upload form may hold at most this many bytes. */
const MAX_FIELD_BYTES = 10_000;

export class NotMultipartError extends Error {}
/** A text field of the upload form is larger than MAX_FIELD_BYTES. */
export class FieldTooLargeError extends Error {}
/** The request body ended or failed before the form was complete (a cancelled upload). */
export class UploadAbortedError extends Error {}

function rejection(name: string, error: unknown): Rejection {
  if (error instanceof DomainError) {
    const status = error.message.includes(REFUSAL.tooLarge) ? 413 : error.message.includes(REFUSAL.notImage) ? 415 : 422;
    return { name, reason: error.message, status };
  }
  throw error;
}

/**
 * Parses a multipart request with busboy: every file part is checked and stored with storeImage
 * for `actor` (each recorded in the audit log with its row), one after another in the order of the form; text fields (up to 10 KB each) come
 * back in `fields`. Throws NotMultipartError when the body is not
 * multipart/form-data, UploadAbortedError when it ends early or is malformed, and FieldTooLargeError
 * for a text field over 10 KB. File names are taken as sent (quotes, `=`, `;`, Cyrillic: a real
 * user's file name uploads) and cleaned by cleanFileName.
 */
export async function parseImageUpload(request: Request, { actor }: { actor: Actor }): Promise<UploadResult> {
  const type = request.headers.get("Content-Type") ?? "";
  if (!/^multipart\/form-data;\s*boundary=/i.test(type)) throw new NotMultipartError("not multipart");
  if (!request.body) throw new UploadAbortedError("no body");
  const fields = new FormData();
  const stored: MediaItem[] = [];
  const rejected: Rejection[] = [];
  const dir = uploadsDir();
  mkdirSync(dir, { recursive: true });
  let files = 0;
  let fieldTooLarge = false;
  const work: Promise<void>[] = [];

  const parser = busboy({
    headers: { "content-type": type },
    defParamCharset: "utf8",
    limits: { fieldSize: MAX_FIELD_BYTES, fileSize: MAX_IMAGE_BYTES },
  });
  parser.on("field", (name, value, info) => {
    if (info.valueTruncated) fieldTooLarge = true;
    else fields.append(name, value);
  });
  parser.on("file", (_field, stream, info) => {
    const filename = info.filename ?? "";
    const name = cleanFileName(filename);
    if (!filename) {
      stream.resume(); // "no file chosen" arrives as an empty part without a name
      return;
    }
    files += 1;
    if (files > MAX_FILES_PER_REQUEST) {
      stream.resume();
      rejected.push({ name, reason: `Файл «${name}» відхилено: за один раз можна завантажити не більше ${MAX_FILES_PER_REQUEST} файлів`, status: 422 });
      return;
    }
    const received = receiveFile(name, stream);
    previous = received;
    work.push(received);
  });

  /**
   * Streams one file part to a dot-file (never served) as it arrives, then stores it after the
   * files before it (so results keep the order of the form); the temp file always goes.
   */
  let previous: Promise<unknown> = Promise.resolve();
  async function receiveFile(name: string, stream: Readable & { truncated?: boolean }) {
    const temp = join(dir, `.incoming-${randomBytes(12).toString("hex")}`);
    const before = previous;
    try {
      await pipeline(stream, createWriteStream(temp, { flags: "wx" }));
      await before.catch(() => undefined);
      if (stream.truncated) {
        rejected.push({ name, reason: `Файл «${name}» відхилено: ${REFUSAL.tooLarge}`, status: 413 });
        return;
      }
      try {
        const item = await storeImage({ bytes: await readFile(temp), fileName: name, userId: actor.id, actor });
        stored.push(item);
      } catch (error) {
        rejected.push(rejection(name, error));
      }
    } finally {
      await rm(temp, { force: true });
    }
  }

  try {
    await pipeline(Readable.fromWeb(request.body as import("node:stream/web").ReadableStream), parser);
  } catch (error) {
    // Files finished before the break stay stored; the one in flight leaves no temp file behind.
    await Promise.allSettled(work);
    throw new UploadAbortedError(error instanceof Error ? error.message : String(error));
  }
  const results = await Promise.allSettled(work);
  const failed = results.find((r): r is PromiseRejectedResult => r.status === "rejected");
  if (failed) throw failed.reason;
  if (fieldTooLarge) throw new FieldTooLargeError("a text field is over 10 KB");
  return { fields, stored, rejected };
}
