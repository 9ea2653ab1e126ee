import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { PageStore, type NewPage } from "../../app/utils/page-store.server";

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

  it("reads each body only for the encoding asked, and brotli only where it was kept", () => {
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
    const b = store.get("/b")!;
    expect(b.hasBr).toBe(false);
    expect(store.body(b, "br")).toBeUndefined();
    store.close();
  });
});
