import { randomBytes } from "node:crypto";
import { createWriteStream, mkdirSync } from "node:fs";
import { readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import {
  unstable_composeUploadHandlers,
  unstable_createMemoryUploadHandler,
  unstable_parseMultipartFormData,
  type UploadHandler,
} from "@remix-run/node";
import { MAX_IMAGE_BYTES, REFUSAL, cleanFileName, storeImage, uploadsDir, type MediaItem } from "../models/media.server";
import { DomainError } from "../utils/errors";
import { MAX_FILES_PER_REQUEST } from "../utils/upload-limits";

// Streaming multipart uploads for the media screen and POST /api/media (SECURITY.md 'Uploads').
// Each file part is streamed to a dot-file in the uploads folder (never served: express.static
// denies dotfiles) while its bytes are counted; past 5 MB the part is cut off, the file removed
// and the rest of the part drained, so one oversized file does not fail the others. The temp file
// is removed in every case (stored, refused, aborted request).


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

export class NotMultipartError extends Error {}
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
 * Parses a multipart request: every file part is checked and stored with storeImage for `userId`;
 * text fields (up to 10 KB each) come back in `fields`. Throws NotMultipartError when the body is
 * not multipart/form-data.
 */
export async function parseImageUpload(request: Request, { userId }: { userId: string | null }): Promise<UploadResult> {
  const type = request.headers.get("Content-Type") ?? "";
  if (!/^multipart\/form-data;\s*boundary=/i.test(type)) throw new NotMultipartError("not multipart");
  const stored: MediaItem[] = [];
  const rejected: Rejection[] = [];
  let files = 0;
  const dir = uploadsDir();
  mkdirSync(dir, { recursive: true });

  const imageHandler: UploadHandler = async ({ filename, data }) => {
    if (filename === undefined) return undefined; // a text field: the next handler takes it
    const name = cleanFileName(filename);
    if (!filename) {
      for await (const _ of data); // "no file chosen" arrives as an empty part without a name
      return "";
    }
    files += 1;
    if (files > MAX_FILES_PER_REQUEST) {
      for await (const _ of data);
      rejected.push({ name, reason: `Файл «${name}» відхилено: за один раз можна завантажити не більше ${MAX_FILES_PER_REQUEST} файлів`, status: 422 });
      return "";
    }
    const temp = join(dir, `.incoming-${randomBytes(12).toString("hex")}`);
    const out = createWriteStream(temp, { flags: "wx" });
    const closed = new Promise<void>((resolve, reject) => {
      out.on("close", resolve);
      out.on("error", reject);
    });
    // A client that drops mid-upload ends the loop below with an error while a write is in
    // flight; destroying `out` then fails that write. Nobody awaits `closed` on that path, and an
    // unhandled rejection would stop the whole server (issue 7, faults.test.ts).
    closed.catch(() => undefined);
    let size = 0;
    let tooLarge = false;
    try {
      for await (const chunk of data) {
        if (tooLarge) continue; // drain the rest of this part without keeping it
        size += chunk.byteLength;
        if (size > MAX_IMAGE_BYTES) {
          tooLarge = true;
          out.destroy();
          continue;
        }
        if (!out.write(chunk)) await new Promise<void>((resolve) => out.once("drain", () => resolve()));
      }
      out.end();
      await closed.catch(() => undefined);
      if (tooLarge) {
        rejected.push({ name, reason: `Файл «${name}» відхилено: ${REFUSAL.tooLarge}`, status: 413 });
        return "";
      }
      try {
        const item = await storeImage({ bytes: await readFile(temp), fileName: name, userId });
        stored.push(item);
        return item.id;
      } catch (error) {
        rejected.push(rejection(name, error));
        return "";
      }
    } finally {
      out.destroy();
      await rm(temp, { force: true });
    }
  };

  let fields: FormData;
  try {
    fields = await unstable_parseMultipartFormData(
      request,
      unstable_composeUploadHandlers(imageHandler, unstable_createMemoryUploadHandler({ maxPartSize: 10_000 })),
    );
  } catch (error) {
    if (error instanceof TypeError && /FormData/.test(error.message)) throw new NotMultipartError(error.message);
    if (error instanceof Error && error.name === "MaxPartSizeExceededError") throw error;
    // Files finished before the break stay stored; the one in flight left no temp file behind.
    throw new UploadAbortedError(error instanceof Error ? error.message : String(error));
  }
  return { fields, stored, rejected };
}
