import type { Readable } from "node:stream";
import yauzl, { type Entry, type ZipFile } from "yauzl";
import { DomainError } from "../utils/errors";
import { MAX_IMAGE_BYTES } from "../utils/upload-limits";

// Issue 27: the old uploads as a zip (wp-content/uploads or Ghost's content/images) sent beside the
// export on /admin/import. The zip is streamed to disk by the upload (jobs.server.ts) and read here
// with yauzl, which reads the central directory and then each entry on demand, so nothing is ever
// unpacked to disk and no entry's name is ever a path here. The whole archive is refused before
// anything is imported when it looks hostile: too many entries, too much declared uncompressed data,
// an entry compressed suspiciously well (a zip bomb), a name that climbs out (`../`) or is absolute,
// or a symbolic link. yauzl's validateEntrySizes also stops an entry whose data outgrows its
// declared size while it is read.

/** Entries of a real uploads folder (every image with its WordPress sizes) stay well below this. */
export const ZIP_MAX_ENTRIES = 100_000;
/** The declared uncompressed size of all entries together. */
export const ZIP_MAX_TOTAL_BYTES = 4 * 1024 * 1024 * 1024;
/** Images hardly compress: an entry over 1 MB that shrank more than 100 times is a bomb, not a photo. */
export const ZIP_MAX_RATIO = 100;
const RATIO_FROM_BYTES = 1024 * 1024;

export const ZIP_MESSAGES = {
  notZip: "Архів зображень не читається: очікується файл ZIP. Нічого не імпортовано",
  entries: `Архів зображень відхилено: у ньому понад ${ZIP_MAX_ENTRIES.toLocaleString("uk-UA")} файлів. Нічого не імпортовано`,
  total: `Архів зображень відхилено: розпакований він більший за ${ZIP_MAX_TOTAL_BYTES / 1024 ** 3} ГБ. Нічого не імпортовано`,
  ratio: (name: string) => `Архів зображень відхилено: файл «${name.slice(0, 100)}» стиснуто підозріло сильно (схоже на zip-бомбу). Нічого не імпортовано`,
  path: (name: string) => `Архів зображень відхилено: ім'я «${name.slice(0, 100)}» виходить за межі архіву. Нічого не імпортовано`,
  symlink: (name: string) => `Архів зображень відхилено: «${name.slice(0, 100)}» є символічним посиланням. Нічого не імпортовано`,
  encrypted: "Архів зображень відхилено: він зашифрований. Нічого не імпортовано",
};

const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;

/** The key an old upload is known by: its path after `uploads/` or `images/` (or the whole name when neither is in it). */
export function uploadKey(path: string): string | null {
  const clean = path.replace(/^\/+/, "");
  const match = /(?:^|\/)(?:uploads|images)\/(.+)$/.exec(clean);
  const key = match ? match[1] : clean;
  return key && !key.endsWith("/") ? key : null;
}

/** The key of an image URL of the old site (only URLs under /uploads/ or /images/ can be in the zip). */
export function uploadKeyOfUrl(url: string): string | null {
  let path: string;
  try {
    path = decodeURIComponent(new URL(url, "http://x").pathname);
  } catch {
    return null;
  }
  const match = /\/(?:uploads|images)\/(.+)$/.exec(path);
  return match ? match[1] : null;
}

export interface MediaZip {
  /** How many files it holds by key (see uploadKey). */
  size: number;
  /** The bytes of the old upload that `url` names, or null when the zip does not hold it. */
  read(url: string): Promise<Buffer | null>;
  close(): void;
}

const open = (path: string) =>
  new Promise<ZipFile>((resolve, reject) =>
    yauzl.open(path, { lazyEntries: true, autoClose: false, validateEntrySizes: true, decodeStrings: true }, (error, zip) =>
      error ? reject(error) : resolve(zip),
    ),
  );

function refusalOf(error: Error): DomainError {
  const named = /^(absolute path|invalid relative path|invalid characters in fileName): (.*)$/s.exec(error.message);
  if (named) return new DomainError(422, ZIP_MESSAGES.path(named[2]), "media");
  return new DomainError(422, ZIP_MESSAGES.notZip, "media");
}

/** Checks the whole zip (its central directory) and indexes its files; throws DomainError (422, field `media`) when refused. */
export async function openMediaZip(path: string, limits = { entries: ZIP_MAX_ENTRIES, totalBytes: ZIP_MAX_TOTAL_BYTES }): Promise<MediaZip> {
  let zip: ZipFile;
  try {
    zip = await open(path);
  } catch (error) {
    throw refusalOf(error as Error);
  }
  const entries = new Map<string, Entry>();
  try {
    if (zip.entryCount > limits.entries) throw new DomainError(422, ZIP_MESSAGES.entries, "media");
    let total = 0;
    await new Promise<void>((resolve, reject) => {
      zip.on("error", (error: Error) => reject(error instanceof DomainError ? error : refusalOf(error)));
      zip.on("end", resolve);
      zip.on("entry", (entry: Entry) => {
        const name = entry.fileName;
        const fail = (message: string) => reject(new DomainError(422, message, "media"));
        if (((entry.externalFileAttributes >>> 16) & S_IFMT) === S_IFLNK) return fail(ZIP_MESSAGES.symlink(name));
        if (entry.isEncrypted()) return fail(ZIP_MESSAGES.encrypted);
        total += entry.uncompressedSize;
        if (total > limits.totalBytes) return fail(ZIP_MESSAGES.total);
        if (entry.uncompressedSize > RATIO_FROM_BYTES && entry.uncompressedSize > ZIP_MAX_RATIO * Math.max(1, entry.compressedSize))
          return fail(ZIP_MESSAGES.ratio(name));
        const key = name.endsWith("/") ? null : uploadKey(name);
        // The first of two entries with one key wins (a zip of both uploads/ and a copy of it).
        if (key && !entries.has(key)) entries.set(key, entry);
        zip.readEntry();
      });
      zip.readEntry();
    });
  } catch (error) {
    zip.close();
    throw error;
  }
  return {
    size: entries.size,
    async read(url) {
      const key = uploadKeyOfUrl(url);
      const entry = key ? entries.get(key) : undefined;
      if (!entry) return null;
      if (entry.uncompressedSize > MAX_IMAGE_BYTES) throw new Error("файл більший за 5 МБ");
      const stream: Readable = await zip.openReadStreamPromise(entry);
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        size += chunk.length;
        // validateEntrySizes stops a lying entry too; this keeps the 5 MB bound whatever the header says.
        if (size > MAX_IMAGE_BYTES) {
          stream.destroy();
          throw new Error("файл більший за 5 МБ");
        }
        chunks.push(chunk);
      }
      return Buffer.concat(chunks);
    },
    close: () => zip.close(),
  };
}
