import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { PageKeeper } from "../../app/page-store/page-keeper.server";
import { PageStore } from "../../app/page-store/page-store.server";
import { etagOf } from "../../app/page-store/stored-response.server";
import { builtWorkerFile } from "../../app/utils/worker-file.server";

// The page keeper (issue 30 item 0, docs/decisions/032): pages rendered for readers are compressed
// and stored by build/page-keeper.js on a worker thread with its own connection to pages.db; the
// store (another connection, as the request thread has) serves what it wrote. Through the server:
// tests/integration/page-store.test.ts (a miss, then a hit).
const dirs: string[] = [];
const stopping: (PageKeeper | PageStore)[] = [];
const MB = 1024 * 1024;

function setUp(budget = 10 * MB, idleMs?: number) {
  const dir = mkdtempSync(join(tmpdir(), "page-keeper-"));
  dirs.push(dir);
  const store = new PageStore(dir, () => budget, "build");
  const keeper = new PageKeeper({ file: store.file, maxBytes: store.maxBytes(), idleMs });
  stopping.push(keeper, store);
  return { dir, store, keeper };
}

// An article-like page: 30 KB of repetitive HTML, which brotli compresses clearly better than gzip.
const html = (n: number) => `<!DOCTYPE html><main>${Array.from({ length: 600 }, (_, i) => `<p class="p${i % 7}">Абзац ${i} статті ${n}</p>`).join("")}</main>`;
const job = (key: string, body: string, generation: number) => ({
  key,
  status: 200,
  headers: [["content-type", "text/html; charset=utf-8"]] as [string, string][],
  body: Buffer.from(body),
  // As the middleware makes it: from the body, so another version of a page has another ETag.
  etag: etagOf(Buffer.from(body)),
  tags: ["home", `article:${key}`],
  generation,
});

afterEach(async () => {
  for (const item of stopping.splice(0).reverse()) await (item instanceof PageKeeper ? item.stop() : item.close());
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("the page keeper", () => {
  it("compresses and stores a page on its thread; the store's connection serves all three bodies", async () => {
    const { store, keeper } = setUp();
    const body = html(1);
    expect(await keeper.keep(job("/article/a", body, store.generation()))).toBe(true);
    expect(keeper.running).toBe(true);
    const page = store.get("/article/a")!;
    expect(page).toMatchObject({ status: 200, etag: etagOf(Buffer.from(body)), tags: ["home", "article:/article/a"], stale: false, hasBr: true });
    expect(page.headers).toEqual([["content-type", "text/html; charset=utf-8"]]);
    expect(store.body(page, "identity")!.toString()).toBe(body);
    expect(gunzipSync(store.body(page, "gzip")!).toString()).toBe(body);
    expect(brotliDecompressSync(store.body(page, "br")!).toString()).toBe(body);
    expect(store.body(page, "br")!.length).toBeLessThan(store.body(page, "gzip")!.length);
  });

  it("stores nothing rendered before an invalidation (the generation moved), and replaces a stale page it re-rendered", async () => {
    const { store, keeper } = setUp();
    const before = store.generation();
    expect(await keeper.keep(job("/article/a", html(1), before))).toBe(true);
    store.invalidate({ tags: ["article:/article/a"] });
    expect(store.get("/article/a")?.stale).toBe(true);
    // Rendered before that write: it may show what the write changed.
    expect(await keeper.keep(job("/article/a", html(2), before))).toBe(false);
    expect(store.body(store.get("/article/a")!, "identity")!.toString()).toBe(html(1));
    // Rendered after it: stored, fresh, and the store's in-memory copy of the old one is not served.
    expect(await keeper.keep(job("/article/a", html(3), store.generation()))).toBe(true);
    const page = store.get("/article/a")!;
    expect(page.stale).toBe(false);
    expect(store.body(page, "identity")!.toString()).toBe(html(3));
  });

  it("keeps the file within the store's budget, least recently used out", async () => {
    // ~33 KB a page (plain, gzip, brotli and 200 bytes): a 400 KB budget holds twelve at most.
    const { store, keeper } = setUp(400 * 1024);
    for (let i = 0; i < 30; i++) await keeper.keep(job(`/article/${i}`, html(i), store.generation()));
    const { bytes, pages } = store.stats();
    expect(bytes).toBeLessThanOrEqual(400 * 1024);
    expect(pages).toBeGreaterThan(3);
    expect(pages).toBeLessThanOrEqual(12);
    expect(store.get("/article/29")).toBeDefined();
    expect(store.get("/article/0")).toBeUndefined();
  });

  it("stop() answers every page sent before it, then ends the thread; the next page starts it again", async () => {
    const { store, keeper } = setUp();
    const sent = Array.from({ length: 40 }, (_, i) => keeper.keep(job(`/article/${i}`, html(i), store.generation())));
    await keeper.stop();
    expect(await Promise.all(sent)).toEqual(Array(40).fill(true));
    expect(keeper.running).toBe(false);
    expect(store.stats().pages).toBe(40);
    expect(await keeper.keep(job("/article/after", html(0), store.generation()))).toBe(true);
    expect(keeper.counts).toEqual({ started: 2, lost: 0 });
  });

  it("ends its thread after the idle time and starts it with the next page", async () => {
    const { store, keeper } = setUp(10 * MB, 100);
    await keeper.keep(job("/article/a", html(1), store.generation()));
    expect(keeper.running).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(keeper.running).toBe(false);
    expect(await keeper.keep(job("/article/b", html(2), store.generation()))).toBe(true);
    expect(keeper.counts.started).toBe(2);
  });

  it("a worker that dies fails the pages it held (not kept) and is replaced for the next; a missing build is said", async () => {
    const dir = mkdtempSync(join(tmpdir(), "page-keeper-dies-"));
    dirs.push(dir);
    const dying = join(dir, "dying.mjs");
    writeFileSync(dying, `import { parentPort } from "node:worker_threads";\nparentPort.on("message", () => process.exit(3));\n`);
    const keeper = new PageKeeper({ file: join(dir, "pages.db"), maxBytes: MB, workerFile: dying });
    stopping.push(keeper);
    const page = job("/article/a", html(1), 0);
    await expect(keeper.keep(page)).rejects.toThrow("page keeper exited (code 3)");
    await expect(keeper.keep(page)).rejects.toThrow("page keeper exited (code 3)");
    expect(keeper.counts).toEqual({ started: 2, lost: 2 });
    const missing = new PageKeeper({ file: join(dir, "pages.db"), maxBytes: MB, workerFile: join(dir, "nothing.js") });
    await expect(missing.keep(page)).rejects.toThrow(/nothing\.js is missing: run `npm run build`/);
  });

  it("is found as build/page-keeper.js under the package root, from the source and from the Remix bundle", () => {
    expect(builtWorkerFile("page-keeper")).toBe(`${process.cwd()}/build/page-keeper.js`);
    expect(builtWorkerFile("page-keeper", `${process.cwd()}/build/remix/index.js`)).toBe(`${process.cwd()}/build/page-keeper.js`);
  });
});
