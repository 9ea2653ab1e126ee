import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import SQLite from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { PageStore, type NewPage } from "../../app/page-store/page-store.server";

// The rows of DATA_DIR/pages.db (docs/decisions/016): what a store opened by another build keeps,
// and bodies read per encoding. The HTTP side is tests/integration/page-store.test.ts.
const dirs: string[] = [];
const open = (dir: string, build: string) => new PageStore(dir, () => 10 * 1024 * 1024, build);
const page = (key: string, html: string, br: Buffer | null = null): NewPage => ({
  key,
  status: 200,
  headers: [["content-type", "text/html; charset=utf-8"]],
  gzip: gzipSync(html),
  br,
  identity: Buffer.from(html),
  etag: `W/"${key}"`,
  tags: ["home"],
  size: 1_000,
  stale: false,
});

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("PageStore", () => {
  it("keeps pages for the same build across a reopen, and empties for another (server code or browser assets)", () => {
    const dir = mkdtempSync(join(tmpdir(), "page-store-"));
    dirs.push(dir);
    let store = open(dir, "assets1.server1");
    store.put(page("/", "<p>home</p>"));
    store.close();
    store = open(dir, "assets1.server1");
    expect(store.get("/")?.etag).toBe('W/"/"');
    store.close();
    // Same browser assets, other server code (a loader or formatter changed): the pages go.
    store = open(dir, "assets1.server2");
    expect(store.get("/")).toBeUndefined();
    expect(store.stats()).toEqual({ bytes: 0, pages: 0 });
    store.close();
  });

  it("reads each body (gzip, brotli, plain) only for the encoding asked, and brotli only where it was kept", () => {
    const dir = mkdtempSync(join(tmpdir(), "page-store-"));
    dirs.push(dir);
    const store = open(dir, "b");
    store.put(page("/a", "<p>a</p>", Buffer.from("brotli-a")));
    store.put(page("/b", "<p>b</p>"));
    const a = store.get("/a")!;
    expect(a.gzip).toBeUndefined();
    expect(store.body(a, "br")?.toString()).toBe("brotli-a");
    expect(a.gzip).toBeUndefined();
    expect(store.body(a, "gzip")).toEqual(gzipSync("<p>a</p>"));
    expect(a.identity).toBeUndefined();
    // A client without compression gets the plain bytes as kept: nothing unpacked per request.
    expect(store.body(a, "identity")?.toString()).toBe("<p>a</p>");
    const b = store.get("/b")!;
    expect(b.hasBr).toBe(false);
    expect(store.body(b, "br")).toBeUndefined();
    store.close();
  });

  it("keeps the plain body apart and drops it with its page (removed, replaced, evicted, or all at once)", () => {
    const dir = mkdtempSync(join(tmpdir(), "page-store-"));
    dirs.push(dir);
    const store = open(dir, "b");
    const plainRows = () => {
      const file = new SQLite(join(dir, "pages.db"), { readonly: true });
      try {
        return file.prepare("select key, body from page_plain order by key").all() as { key: string; body: Buffer }[];
      } finally {
        file.close();
      }
    };
    store.put(page("/a", "<p>a</p>"));
    store.put(page("/b", "<p>b</p>"));
    store.put(page("/a", "<p>a, corrected</p>"));
    expect(plainRows().map((r) => [r.key, r.body.toString()])).toEqual([
      ["/a", "<p>a, corrected</p>"],
      ["/b", "<p>b</p>"],
    ]);
    expect(store.body(store.get("/a")!, "identity")?.toString()).toBe("<p>a, corrected</p>");
    store.remove("/a");
    expect(plainRows().map((r) => r.key)).toEqual(["/b"]);
    store.removeTagged();
    expect(plainRows()).toEqual([]);
    // Evicted past the budget (10 MB here): least recently used out, plain bodies with them.
    for (let i = 0; i < 12; i++) store.put({ ...page(`/big-${i}`, "<p>big</p>"), size: 1024 * 1024 });
    const kept = store.stats().pages;
    expect(kept).toBeLessThan(12);
    expect(plainRows()).toHaveLength(kept);
    store.close();
  });
});
