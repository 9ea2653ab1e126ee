import { createHash, randomBytes, randomUUID } from "node:crypto";
import { mkdirSync } from "node:fs";
import { rm, writeFile } from "node:fs/promises";
import { basename, resolve, sep } from "node:path";
import { sql } from "kysely";
import type Sharp from "sharp";
import { db, uploadsDir, writeTransaction, type DB } from "../../db/index";
import type { Media } from "../../db/schema";
import { contains, containsFolded } from "../../db/sql/text";
import { daysBefore } from "../utils/dates";
import { DomainError } from "../utils/errors";
import { MEDIA_TYPES, type MediaTypeFilter } from "../utils/media-types";
import { VARIANT_WIDTHS } from "../utils/media-url";
import type { Role } from "../utils/roles";
import { MAX_IMAGE_BYTES } from "../utils/upload-limits";
import { recordAudit, type Actor } from "./audit.server";

// sharp (libvips) is loaded with the first image a staff member stores, not at start: it costs a
// process ~20 MB resident and four threads (measured: a bare Node 39 MB, 59 MB after importing it),
// and readers never need it (issue 30 item 4).
let sharpLoaded: Promise<typeof Sharp> | undefined;
const loadSharp = (): Promise<typeof Sharp> => (sharpLoaded ??= import("sharp").then((module) => module.default));

// The media library (SPEC §2 'Media library', §3 'Media item'; DESIGN §8; SECURITY.md 'Uploads').
// Files live in DATA_DIR/uploads under random server-made names: /media/<name>.<ext> for the
// original and /media/<name>-w<width>.webp for each resized variant (app/utils/media-url.ts).
// Nothing a client sends ever names a path: the original file name is only a label.

export { MAX_IMAGE_BYTES };
/** Decompression bombs: a small file that decodes to a huge bitmap is refused. */
export const MAX_IMAGE_PIXELS = 40_000_000;
/** Longest file name kept as a label. */
const MAX_NAME_LENGTH = 200;

export type ImageMime = "image/jpeg" | "image/png" | "image/gif" | "image/webp";

export interface MediaItem {
  id: string;
  name: string;
  url: string;
  type: "image";
  mime: string;
  size: number;
  width: number | null;
  height: number | null;
  /** "1920x1080" (empty when unknown). */
  dimensions: string;
  /** ISO date. */
  uploadedAt: string;
  /** The uploader's user id (null once that user is deleted). */
  uploadedBy: string | null;
  /** What the image shows, for readers who cannot see it (issue 17); used when it is inserted. */
  alt: string | null;
}

export { uploadsDir };

// ---------------------------------------------------------------------------------------------
// Byte sniffing: the type comes from the file's first bytes, never from its name or the browser.

const EXTENSIONS: Record<ImageMime, string> = {
  "image/jpeg": "jpg",
  "image/png": "png",
  "image/gif": "gif",
  "image/webp": "webp",
};

/** The image type of `bytes` (JPEG, PNG, GIF, WebP), or null for anything else (SVG included). */
export function sniffImageType(bytes: Uint8Array): { mime: ImageMime; ext: string } | null {
  const b = bytes;
  const at = (offset: number, ...values: number[]) => b.length >= offset + values.length && values.every((v, i) => b[offset + i] === v);
  let mime: ImageMime | null = null;
  if (at(0, 0xff, 0xd8, 0xff)) mime = "image/jpeg";
  else if (at(0, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) mime = "image/png";
  else if (at(0, 0x47, 0x49, 0x46, 0x38, 0x37, 0x61) || at(0, 0x47, 0x49, 0x46, 0x38, 0x39, 0x61)) mime = "image/gif";
  else if (at(0, 0x52, 0x49, 0x46, 0x46) && at(8, 0x57, 0x45, 0x42, 0x50)) mime = "image/webp";
  return mime ? { mime, ext: EXTENSIONS[mime] } : null;
}

/** A display label from a client's file name: no folders, no control characters, bounded. */
export function cleanFileName(fileName: string): string {
  // Stripping control characters is the point of this pattern (the lint rule no-control-regex flags it).
  const base = basename(String(fileName).replace(/\\/g, "/"))
    .replace(/[\u0000-\u001f\u007f]/g, "")
    .trim();
  const name = base.length > MAX_NAME_LENGTH ? base.slice(0, MAX_NAME_LENGTH) : base;
  return name || "image";
}

// ---------------------------------------------------------------------------------------------
// Path handling: only names of the server's own making resolve, and only inside the uploads folder.

const STORED_NAME = /^[a-f0-9]{32}(?:-w\d{1,5})?\.(?:jpg|png|gif|webp)$/;

/** The absolute path of a stored file name, or null if the name is not one the server makes. */
export function storedFilePath(storedName: string): string | null {
  if (!STORED_NAME.test(storedName)) return null;
  const root = resolve(uploadsDir());
  const path = resolve(root, storedName);
  return path.startsWith(root + sep) ? path : null;
}

function variantNames(storedName: string): string[] {
  const stem = storedName.replace(/\.[a-z]+$/, "");
  return VARIANT_WIDTHS.map((w) => `${stem}-w${w}.webp`);
}

// ---------------------------------------------------------------------------------------------
// Storing

function refuse(fileName: string, reason: string): never {
  throw new DomainError(422, `Файл «${fileName}» відхилено: ${reason}`, "file");
}

export const REFUSAL = {
  tooLarge: "розмір перевищує 5 МБ",
  empty: "файл порожній",
  notImage: "це не зображення JPG, PNG, GIF чи WebP (SVG та інші формати не приймаються)",
  broken: "зображення пошкоджене або не читається",
  tooManyPixels: `зображення завелике (більше ${MAX_IMAGE_PIXELS / 1_000_000} мегапікселів)`,
} as const;

/**
 * Checks and stores one image: type from the bytes, 5 MB, the pixel limit, dimensions read with
 * sharp, WebP variants for VARIANT_WIDTHS (never enlarged), a `media` row. Refusals throw
 * DomainError(422) with a Ukrainian message naming the file and the reason; nothing is left on
 * disk or in the database then. With `actor`, the upload is a staff action of its own (the media
 * library, the editor's file field): its row and its `media.upload` audit entry commit together.
 * Without, it is part of something else (an article save's embedded images, a script).
 */
export async function storeImage(
  { bytes, fileName, userId, actor }: { bytes: Buffer | Uint8Array; fileName: string; userId: string | null; actor?: Actor },
  executor: DB = db,
): Promise<MediaItem> {
  const name = cleanFileName(fileName);
  const buffer = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buffer.byteLength === 0) refuse(name, REFUSAL.empty);
  if (buffer.byteLength > MAX_IMAGE_BYTES) refuse(name, REFUSAL.tooLarge);
  const type = sniffImageType(buffer);
  if (!type) refuse(name, REFUSAL.notImage);
  // Issue 31 item 16: a staff upload of a file the same person already put in the library reuses
  // that item (theirs: they may delete it and change its alt, as with a fresh upload).
  const sha256 = createHash("sha256").update(buffer).digest("hex");
  if (actor && userId) {
    const same = await executor
      .selectFrom("media")
      .select("id")
      .where("sha256", "=", sha256)
      .where("uploaded_by", "=", userId)
      .orderBy("created_at")
      .executeTakeFirst();
    const existing = same && (await getMedia({ id: same.id }, executor));
    if (existing) return existing;
  }

  const sharp = await loadSharp();
  let width: number;
  let height: number;
  try {
    const meta = await sharp(buffer, { limitInputPixels: false }).metadata();
    // The first frame of an animated image, turned as its EXIF orientation says.
    width = meta.autoOrient?.width ?? meta.width;
    height = meta.autoOrient?.height ?? meta.height;
  } catch {
    refuse(name, REFUSAL.broken);
  }
  if (!width || !height) refuse(name, REFUSAL.broken);
  if (width * height > MAX_IMAGE_PIXELS) refuse(name, REFUSAL.tooManyPixels);

  const dir = uploadsDir();
  mkdirSync(dir, { recursive: true });
  const stem = randomBytes(16).toString("hex");
  const storedName = `${stem}.${type.ext}`;
  const written: string[] = [];
  try {
    const original = storedFilePath(storedName)!;
    await writeFile(original, buffer, { flag: "wx" });
    written.push(original);
    for (const [index, variant] of variantNames(storedName).entries()) {
      const path = storedFilePath(variant)!;
      written.push(path);
      try {
        await sharp(buffer, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: "error" })
          .autoOrient()
          .resize({ width: VARIANT_WIDTHS[index], withoutEnlargement: true })
          .webp({ quality: 80 })
          .toFile(path);
      } catch (error) {
        // A file-system failure carries a code (ENOSPC, EACCES) and stays a server error; anything
        // else from the decoder ('libspng read error', truncated data) means the file is broken.
        if ((error as NodeJS.ErrnoException).code) throw error;
        refuse(name, REFUSAL.broken);
      }
    }
    const id = randomUUID();
    const now = new Date().toISOString();
    const insert = (trx: DB) =>
      trx
        .insertInto("media")
        .values({
          id,
          file_name: name,
          stored_path: storedName,
          mime: type.mime,
          size: buffer.byteLength,
          width,
          height,
          uploaded_by: userId,
          created_at: now,
          sha256,
        })
        .execute();
    if (actor) {
      await writeTransaction(async (trx) => {
        await insert(trx);
        await recordAudit(trx, { actor, action: "media.upload", object: { type: "media", id, label: name }, details: { size: buffer.byteLength } });
      });
    } else {
      await insert(executor);
    }
    return {
      id,
      name,
      url: `/media/${storedName}`,
      type: "image",
      mime: type.mime,
      size: buffer.byteLength,
      width,
      height,
      dimensions: `${width}x${height}`,
      uploadedAt: now,
      uploadedBy: userId,
      alt: null,
    };
  } catch (error) {
    await Promise.all(written.map((path) => rm(path, { force: true })));
    throw error;
  }
}

const DATA_URL = /^data:(image\/[a-z0-9.+-]+);base64,([A-Za-z0-9+/=\s]*)$/i;

/**
 * Stores an image sent as a `data:image/...;base64,` URL (featured images, images pasted into
 * content) with the same rules as storeImage; the declared type is ignored, the bytes decide.
 */
export async function storeDataUrlImage(
  { dataUrl, userId, fileName }: { dataUrl: string; userId: string | null; fileName?: string },
  executor: DB = db,
): Promise<MediaItem> {
  const label = cleanFileName(fileName ?? "image");
  // Base64 of 5 MB is about 6.7 MB of text: refuse anything longer before decoding.
  if (dataUrl.length > Math.ceil(MAX_IMAGE_BYTES / 3) * 4 + 200) refuse(label, REFUSAL.tooLarge);
  const match = DATA_URL.exec(dataUrl);
  if (!match) refuse(label, REFUSAL.notImage);
  const bytes = Buffer.from(match[2].replace(/\s+/g, ""), "base64");
  const sniffed = sniffImageType(bytes);
  const name = fileName ? label : sniffed ? `image.${sniffed.ext}` : label;
  return storeImage({ bytes, fileName: name, userId }, executor);
}

// ---------------------------------------------------------------------------------------------
// Reading and deleting

export function toMediaItem(row: Media): MediaItem {
  return {
    id: row.id,
    name: row.file_name,
    url: `/media/${row.stored_path}`,
    type: "image",
    mime: row.mime,
    size: row.size,
    width: row.width,
    height: row.height,
    dimensions: row.width && row.height ? `${row.width}x${row.height}` : "",
    uploadedAt: row.created_at,
    uploadedBy: row.uploaded_by,
    alt: row.alt ?? null,
  };
}

export { MEDIA_TYPES, type MediaTypeFilter };

/** Media newest first; `q` searches names case-insensitively; only images exist so far. */
export async function listMedia(
  { q = "", type = "all", skip = 0, limit = 100 }: { q?: string; type?: MediaTypeFilter; skip?: number; limit?: number } = {},
  executor: DB = db,
): Promise<{ data: MediaItem[]; total: number }> {
  if (type === "video" || type === "document") return { data: [], total: 0 };
  let query = executor.selectFrom("media");
  const term = q.trim();
  if (term) {
    // Case-insensitive, Cyrillic included (SQLite's own LOWER() and LIKE fold ASCII only).
    query = query.where(containsFolded(sql.ref("file_name"), term)) as typeof query;
  }
  const [rows, count] = await Promise.all([
    query.selectAll().orderBy("created_at", "desc").orderBy("id").offset(skip).limit(limit).execute() as Promise<Media[]>,
    query.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow() as Promise<{ n: number }>,
  ]);
  return { data: rows.map(toMediaItem), total: Number(count.n) };
}

export async function getMedia({ id }: { id: string }, executor: DB = db): Promise<MediaItem | undefined> {
  const row = await executor.selectFrom("media").selectAll().where("id", "=", id).executeTakeFirst();
  return row ? toMediaItem(row) : undefined;
}

/** The four counters of the library: total, bytes, added in the last 7 days. */
export async function mediaStats(executor: DB = db): Promise<{ total: number; bytes: number; lastWeek: number }> {
  const since = daysBefore(Date.now(), 7).toISOString();
  const row = await executor
    .selectFrom("media")
    .select((eb) => [
      eb.fn.countAll<number>().as("total"),
      eb.fn.coalesce(eb.fn.sum<number>("size"), eb.val(0)).as("bytes"),
      eb.fn.sum<number>(eb.case().when("created_at", ">=", since).then(1).else(0).end()).as("lastWeek"),
    ])
    .executeTakeFirstOrThrow();
  return { total: Number(row.total), bytes: Number(row.bytes ?? 0), lastWeek: Number(row.lastWeek ?? 0) };
}

/** DESIGN §5: admin and editor delete any item; a reporter only their own uploads. */
export function canDeleteMedia(user: { id: string; role: Role }, item: Pick<MediaItem, "uploadedBy">): boolean {
  return user.role === "admin" || user.role === "editor" || item.uploadedBy === user.id;
}

/**
 * Deletes media items (row, original and variants), one `media.delete` audit entry per item in the
 * same transaction. 404 when one is missing, 403 when the user may not delete one; nothing is
 * deleted then. The files go once the rows are gone for good (after the commit).
 */
export async function deleteMedia({ ids, user }: { ids: string[]; user: Actor }): Promise<number> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return 0;
  const rows = await writeTransaction(async (trx) => {
    const rows = await trx.selectFrom("media").selectAll().where("id", "in", unique).execute();
    if (rows.length !== unique.length) throw new DomainError(404, "Файл не знайдено");
    for (const row of rows) {
      if (!canDeleteMedia(user, toMediaItem(row))) {
        throw new DomainError(403, `Ви можете видаляти лише власні файли («${row.file_name}» завантажив інший користувач)`);
      }
    }
    await trx.deleteFrom("media").where("id", "in", unique).execute();
    for (const row of rows) {
      await recordAudit(trx, { actor: user, action: "media.delete", object: { type: "media", id: row.id, label: row.file_name }, details: { size: row.size } });
    }
    return rows;
  });
  for (const row of rows) {
    for (const name of [row.stored_path, ...variantNames(row.stored_path)]) {
      const path = storedFilePath(name);
      if (path) await rm(path, { force: true });
    }
  }
  return rows.length;
}

/**
 * Removes media this request stored itself and no longer needs (images embedded in an article
 * whose save did not commit): rows and files, no permission check, errors only logged.
 */
export async function discardStoredMedia(items: Pick<MediaItem, "id" | "url">[], executor: DB = db): Promise<void> {
  if (items.length === 0) return;
  try {
    await executor
      .deleteFrom("media")
      .where(
        "id",
        "in",
        items.map((item) => item.id),
      )
      .execute();
  } catch (error) {
    console.error("could not remove the media rows of a failed save:", error);
  }
  for (const item of items) {
    const stored = item.url.replace(/^\/media\//, "");
    for (const name of [stored, ...variantNames(stored)]) {
      const path = storedFilePath(name);
      if (path) await rm(path, { force: true }).catch(() => undefined);
    }
  }
}

export const MEDIA_ALT_MAX = 200;

/** Sets an item's alt text (issue 17): the uploader, an editor or an admin, as for a delete. */
export async function setMediaAlt({ id, alt, user }: { id: string; alt: string | null; user: Actor }): Promise<MediaItem> {
  return writeTransaction(async (trx) => {
    const item = await getMedia({ id }, trx);
    if (!item) throw new DomainError(404, "Файл не знайдено");
    if (!canDeleteMedia(user, item)) throw new DomainError(403, "Ви можете змінювати лише власні файли");
    if (item.alt === alt) return item;
    await trx.updateTable("media").set({ alt }).where("id", "=", id).execute();
    await recordAudit(trx, { actor: user, action: "media.update", object: { type: "media", id, label: item.name }, details: { fields: ["alt"] } });
    return { ...item, alt };
  });
}

/**
 * Which articles use these media items, as the featured image or in the text (issue 17), so a
 * delete can ask first. At most `limit` articles per item.
 */
export async function mediaUsage({ ids, limit = 5 }: { ids: string[]; limit?: number }, executor: DB = db) {
  const rows = await executor
    .selectFrom("media")
    .select(["id", "file_name", "stored_path"])
    .where("id", "in", [...new Set(ids)])
    .execute();
  const usage: { id: string; name: string; articles: { id: string; title: string }[] }[] = [];
  for (const row of rows) {
    // Variants share the stored name's stem (<stem>-w<width>.webp), so the stem finds them all.
    const stem = row.stored_path.replace(/\.[a-z0-9]+$/i, "");
    const needle = `/media/${stem}`;
    const articles = await executor
      .selectFrom("articles")
      .select(["id", "title"])
      .where((eb) => eb.or([contains(sql.ref("featured_image"), needle), contains(sql.ref("content"), needle)]))
      .orderBy("updated_at", "desc")
      .limit(limit)
      .execute();
    if (articles.length) usage.push({ id: row.id, name: row.file_name, articles });
  }
  return usage;
}
