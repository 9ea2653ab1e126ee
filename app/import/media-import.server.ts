import { readFile, stat } from "node:fs/promises";
import { join, normalize, sep } from "node:path";
import pLimit from "p-limit";
import { storeImage } from "../models/media.server";
import { DomainError } from "../utils/errors";
import { MAX_IMAGE_BYTES } from "../utils/upload-limits";
import type { MediaZip } from "./media-zip.server";

// Issue 27 item 4: each image an import brings becomes a media item with our variants
// (storeImage, app/models/media.server.ts), taken from the folder of the old uploads (`--media DIR`)
// or the zip of them sent on /admin/import (media-zip.server.ts) when it is there, else fetched from
// its original address when that answers. One that cannot be had is
// reported by its URL; the article keeps the original link.

const FETCH_MS = 15_000;
const AT_ONCE = 4;

export interface ImageFailure {
  url: string;
  reason: string;
}

/** Where an old upload's file would be in `dir` (wp-content/uploads/2019/05/x.jpg, content/images/…, or its bare tail). */
function candidates(url: string, dir: string): string[] {
  let path: string;
  try {
    path = decodeURIComponent(new URL(url, "http://x").pathname);
  } catch {
    return [];
  }
  const tails = new Set<string>();
  for (const marker of ["/wp-content/uploads/", "/content/images/", "/media/"]) {
    const at = path.indexOf(marker);
    if (at >= 0) {
      tails.add(path.slice(at + marker.length));
      tails.add(path.slice(at + 1));
    }
  }
  tails.add(path.replace(/^\/+/, ""));
  const root = normalize(dir + sep);
  return [...tails].map((t) => normalize(join(dir, t))).filter((p) => p.startsWith(root));
}

async function fromDir(url: string, dir: string): Promise<Buffer | null> {
  for (const file of candidates(url, dir)) {
    const info = await stat(file).catch(() => null);
    if (info?.isFile()) {
      if (info.size > MAX_IMAGE_BYTES) throw new Error("файл більший за 5 МБ");
      return readFile(file);
    }
  }
  return null;
}

async function fetchImage(url: string): Promise<Buffer> {
  if (!/^https?:\/\//i.test(url)) throw new Error("адреса не http(s), а файлу немає в теці медіа");
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(FETCH_MS), redirect: "follow" });
  } catch {
    throw new Error("сайт недоступний");
  }
  if (!response.ok) throw new Error(`сайт відповів ${response.status}`);
  if (Number(response.headers.get("content-length") ?? 0) > MAX_IMAGE_BYTES) throw new Error("файл більший за 5 МБ");
  const reader = response.body?.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (reader) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_IMAGE_BYTES) {
      await reader.cancel();
      throw new Error("файл більший за 5 МБ");
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

const nameOf = (url: string) => {
  try {
    return decodeURIComponent(new URL(url, "http://x").pathname.split("/").pop() || "image");
  } catch {
    return "image";
  }
};

/**
 * Stores every image of `urls` not in `known` (URL → our URL, from earlier runs); answers the new
 * URL → our URL map, with the media ids for import_sources, and the failures by URL.
 */
export async function importImages({
  urls,
  mediaDir,
  mediaZip,
  userId,
  onEach,
}: {
  urls: string[];
  mediaDir?: string;
  mediaZip?: MediaZip;
  userId: string | null;
  onEach?: () => void;
}): Promise<{ stored: Map<string, { id: string; url: string }>; failed: ImageFailure[] }> {
  const stored = new Map<string, { id: string; url: string }>();
  const failed: ImageFailure[] = [];
  const limit = pLimit(AT_ONCE);
  await Promise.all(
    urls.map((url) =>
      limit(async () => {
        try {
          const bytes = (mediaDir ? await fromDir(url, mediaDir) : null) ?? (mediaZip ? await mediaZip.read(url) : null) ?? (await fetchImage(url));
          const item = await storeImage({ bytes, fileName: nameOf(url), userId });
          stored.set(url, { id: item.id, url: item.url });
        } catch (error) {
          failed.push({ url, reason: error instanceof DomainError ? error.message : String((error as Error)?.message ?? error) });
        } finally {
          onEach?.();
        }
      }),
    ),
  );
  return { stored, failed };
}
