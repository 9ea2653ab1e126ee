import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterEach, describe, expect, it, vi } from "vitest";
import { PageStore, type NewPage } from "../../app/page-store/page-store.server";

// DATA_DIR/pages.db shared by the processes of one box (WORKERS=N, docs/decisions/020): two
// PageStore instances on one folder are two processes' connections. What one process does to the
// store must be what the other serves, with nothing kept only in one process's memory. The same
// through real worker processes: tests/integration/workers.test.ts.
const dirs: string[] = [];
const stores: PageStore[] = [];
const MB = 1024 * 1024;

function twoProcesses(budget = 64 * MB): [PageStore, PageStore] {
  const dir = mkdtempSync(join(tmpdir(), "page-store-shared-"));
  dirs.push(dir);
  const a = new PageStore(dir, () => budget, "build");
  const b = new PageStore(dir, () => budget, "build");
  stores.push(a, b);
  return [a, b];
}

const page = (key: string, html: string, extra: Partial<NewPage> = {}): NewPage => ({
  key,
  status: 200,
  headers: [["content-type", "text/html; charset=utf-8"]],
  gzip: gzipSync(html),
  br: null,
  identity: Buffer.from(html),
  etag: `W/"${key}:${html}"`,
  tags: ["home"],
  size: 1_000,
  stale: false,
  ...extra,
});

const shown = (store: PageStore, key: string) => {
  const stored = store.get(key);
  return stored && store.body(stored, "identity")?.toString();
};

afterEach(() => {
  vi.restoreAllMocks();
  for (const store of stores.splice(0)) store.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("one page store, two processes", () => {
  it("never serves from one process's memory a page the other replaced, marked stale or removed", () => {
    const [a, b] = twoProcesses();
    a.put(page("/", "first"));
    // b reads the page and keeps it (headers and body) in its in-memory front.
    expect(shown(b, "/")).toBe("first");
    expect(shown(b, "/")).toBe("first");

    a.put(page("/", "corrected"));
    expect(shown(b, "/")).toBe("corrected");

    a.invalidate({ tags: ["home"] });
    expect(b.get("/")?.stale).toBe(true);

    a.invalidate({ tags: [], remove: ["home"] });
    expect(b.get("/")).toBeUndefined();

    a.put(page("/", "again"));
    expect(shown(b, "/")).toBe("again");
    a.invalidate({});
    expect(b.get("/")).toBeUndefined();
  });

  it("never sends one version's headers with another's body", () => {
    const [a, b] = twoProcesses();
    a.put(page("/article/x", "version 1"));
    const got = b.get("/article/x")!;
    // a replaces the page between b's read of its headers and of its body.
    a.put(page("/article/x", "version 2"));
    expect(b.body(got, "gzip")).toBeUndefined();
    expect(b.body(got, "identity")).toBeUndefined();
    expect(shown(b, "/article/x")).toBe("version 2");
  });

  it("does not store a render that began before another process's invalidation", () => {
    const [a, b] = twoProcesses();
    const generation = b.generation();
    a.invalidate({ tags: ["article:x"] });
    expect(b.generation()).not.toBe(generation);
    b.put(page("/article/x", "read before the write", { generation }));
    expect(a.get("/article/x")).toBeUndefined();
    b.put(page("/article/x", "read after the write", { generation: b.generation() }));
    expect(shown(a, "/article/x")).toBe("read after the write");
  });

  it("keeps every process's pages together within the budget", () => {
    const [a, b] = twoProcesses(10 * MB);
    for (let i = 0; i < 8; i++) {
      a.put(page(`/a-${i}`, "a", { size: MB }));
      b.put(page(`/b-${i}`, "b", { size: MB }));
    }
    const { bytes, pages } = a.stats();
    expect(bytes).toBeLessThanOrEqual(10 * MB);
    expect(pages).toBeLessThanOrEqual(10);
    expect(b.stats()).toEqual({ bytes, pages });
  });

  it("gives each stale page to one process to re-render, and frees a claim its process abandoned", () => {
    const [a, b] = twoProcesses();
    a.put(page("/one", "1"));
    a.put(page("/two", "2"));
    expect(a.invalidate({ tags: ["home"] })).toBe(2);
    const first = a.nextStale();
    const second = b.nextStale();
    expect(first).toBeDefined();
    expect(second).toBeDefined();
    expect(second).not.toBe(first);
    expect(a.nextStale()).toBeUndefined();
    // Claimed pages are still served, marked stale, until their re-render is stored.
    expect(b.get(first!)?.stale).toBe(true);
    a.put(page(first!, "fresh"));
    expect(b.get(first!)?.stale).toBe(false);
    // A write while b renders: b's render is not kept and the page comes round again.
    a.invalidate({ tags: ["home"] });
    b.unclaim(second!);
    expect([a.nextStale(), a.nextStale()].sort()).toEqual(["/one", "/two"]);
    // a "dies" holding both claims: after a minute they are free for b.
    expect(b.nextStale()).toBeUndefined();
    const now = Date.now();
    vi.spyOn(Date, "now").mockReturnValue(now + 61_000);
    expect([b.nextStale(), b.nextStale()].sort()).toEqual(["/one", "/two"]);
  });
});
