import { setPriority } from "node:os";
import { parentPort, workerData } from "node:worker_threads";
import { brotliCompressSync, constants as zlib, gzipSync } from "node:zlib";
import SQLite from "better-sqlite3";
import { PageWriter, tunePagesConnection } from "../page-store/page-writer.server";
import type { KeeperData, KeepJob, KeepReply } from "./page-keeper-protocol";

// The page keeper (issue 30 item 0, docs/decisions/032): a page rendered for a reader is compressed
// (gzip -9 and brotli 5) and written into pages.db here, on a thread of its own with its own
// connection to the file, after the reader's response: the request thread spends nothing on it
// but a copy of the body into the message. scripts/build-worker.mjs bundles it into
// build/page-keeper.js; app/page-store/page-keeper.server.ts starts it and sends it the pages.

const port = parentPort;
if (!port) throw new Error("page-keeper.ts runs as a worker thread (app/page-store/page-keeper.server.ts)");
const { file, maxBytes } = workerData as KeeperData;

const sqlite = new SQLite(file);
// Writes only: a small page cache (the store's reads have their own connection).
tunePagesConnection(sqlite, 500);
// Without the store's pending hits: eviction here orders by the last-used times written so far (the
// store writes its hits once a second), so a page first read in the last second may go before an older one.
const writer = new PageWriter(sqlite, () => maxBytes);

function keep(job: KeepJob): boolean {
  const body = Buffer.from(job.body.buffer, job.body.byteOffset, job.body.byteLength);
  const gz = gzipSync(body, { level: 9 });
  // Quality 5: on a 45 KB article 1 ms and 10.0 KB, against 11 ms and 9.8 KB at quality 9 (and
  // 11.3 KB for gzip -9): the store is written on every miss and re-render. A 256 KB window (not
  // brotli's 4 MB default) holds any page and keeps the compressor's memory small.
  const br = brotliCompressSync(body, {
    params: { [zlib.BROTLI_PARAM_QUALITY]: 5, [zlib.BROTLI_PARAM_LGWIN]: 18, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length },
  });
  // Brotli where it pays: kept only when clearly smaller than gzip.
  const keepBr = br.length < gz.length * 0.95 ? br : null;
  // put() stores it only if no invalidation came meanwhile (generation), checked in its transaction.
  return writer.put({
    key: job.key,
    status: job.status,
    headers: job.headers,
    gzip: gz,
    br: keepBr,
    identity: body,
    etag: job.etag,
    tags: job.tags,
    size: gz.length + (keepBr?.length ?? 0) + body.length + 200,
    stale: false,
    generation: job.generation,
  });
}

port.on("message", (job: KeepJob) => {
  let reply: KeepReply;
  try {
    reply = { id: job.id, kept: keep(job) };
  } catch (error) {
    // The disk failed or the file is locked past the busy timeout: the page renders again next time.
    reply = { id: job.id, failed: String((error as Error)?.message ?? error) };
  }
  port.postMessage(reply);
});

// Readers first: when this thread and the request thread want the same core, the request thread
// wins (nice 10 is per thread on Linux, the request thread keeps 0). A keep waits; a reader does not.
try {
  setPriority(10);
} catch {
  // Not permitted or not supported: the pages are kept all the same.
}
