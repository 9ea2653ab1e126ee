import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import SQLite from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf } from "../database-of";
import { request, startServer, type RunningServer } from "../server-process";

// Issue 30 items 0 and 1 (docs/decisions/032) through the real production server: the store renders
// what it lacks at start (home, feed, categories, every published article) without a reader asking; a
// publish renders the new article into the store within a second; after a deploy the previous build's
// pages are served (stale) only while its scripts and styles still load, and every page served names
// only assets that answer 200; one process of a box warms.

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Keys in a data folder's page store, read beside the running server (WAL lets a reader in). */
function storedPages(dataDir: string): { key: string; stale: number; stored_at: number }[] {
  const sqlite = new SQLite(join(dataDir, "pages.db"), { readonly: true });
  try {
    return sqlite.prepare("select p.key, s.stale, p.stored_at from pages p join page_state s on s.key = p.key").all() as {
      key: string;
      stale: number;
      stored_at: number;
    }[];
  } finally {
    sqlite.close();
  }
}

const publishedSlugs = async (dataDir: string) =>
  (await rowsOf<{ slug: string }>(dataDir, "select slug from articles where status = 'published' order by published_at desc")).map((r) => r.slug);

/** Waits until the store holds every key (without asking the server for any page). */
async function storeHolds(dataDir: string, keys: string[], ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    const held = new Set(storedPages(dataDir).map((p) => p.key));
    const missing = keys.filter((k) => !held.has(k));
    if (!missing.length) return;
    if (Date.now() > deadline) throw new Error(`not warmed within ${ms} ms: ${missing.slice(0, 5).join(", ")} (${missing.length} missing)`);
    await sleep(100);
  }
}

/** The /build/… scripts, module preloads and styles a page names. */
const assetsOf = (html: string) => [...new Set([...html.matchAll(/(?:src|href)="(\/build\/[^"]+)"/g)].map((m) => m[1]))];

describe("the store warms itself (production server)", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "news-warm-"));
  let server: RunningServer;
  let token: string;
  let slugs: string[];
  const api = (path: string, init: RequestInit = {}) =>
    fetch(`${server.url}${path}`, { ...init, headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" } });

  beforeAll(async () => {
    server = await startServer({ dataDir });
    slugs = await publishedSlugs(dataDir);
    const login = await fetch(`${server.url}/api/auth/login`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ username: "admin", password: "admin123" }),
    });
    token = (await login.json()).access_token;
  });
  afterAll(async () => {
    await server?.stop("SIGKILL");
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("at start, renders the home, the feed, the menu's categories and every published article before any reader asks", async () => {
    expect(slugs.length).toBeGreaterThan(20);
    const categories = await rowsOf<{ slug: string }>(dataDir, "select slug from categories where slug in ('technology', 'medicine', 'space-physics')");
    const keys = ["/", "/rss.xml", ...categories.map((c) => `/category/${c.slug}`), ...slugs.map((s) => `/article/${encodeURIComponent(s)}`)];
    await storeHolds(dataDir, keys);
    expect(server.output()).toMatch(/Page store: warm \(\d+ pages rendered in the background\)/);
    // Every first reader of every page gets a kept page: not one cold render.
    for (const path of keys) expect((await request(server.url, path)).headers["x-cache"], path).toBe("HIT");
  });

  it("a publish renders the new article into the store within a second: its first reader gets a kept page, and the feed shows it", async () => {
    const category = (await rowsOf<{ id: string }>(dataDir, "select id from categories where slug = 'technology'"))[0].id;
    const created = await api("/api/articles/", {
      method: "POST",
      body: JSON.stringify({ title: "Теплий запуск сховища", content: "Новина, яку перший читач отримує готовою.", category_id: category }),
    });
    expect(created.status).toBe(201);
    const { id, slug } = await created.json();
    // A draft is never rendered for the store (its page answers 404 to readers).
    await sleep(300);
    expect(storedPages(dataDir).some((p) => p.key === `/article/${slug}`)).toBe(false);

    expect((await api(`/api/articles/${id}/publish`, { method: "POST" })).status).toBe(200);
    await sleep(1_000);
    const first = await request(server.url, `/article/${slug}`);
    expect(first.status).toBe(200);
    expect(first.headers["x-cache"]).toBe("HIT");
    expect(first.text).toContain("Теплий запуск сховища");
    const feed = await request(server.url, "/rss.xml");
    expect(feed.headers["x-cache"]).toBe("HIT");
    expect(feed.text).toContain("Теплий запуск сховища");
  });

  it("stops on SIGTERM while warming, within its limits", async () => {
    // A fresh store: the warm-up is under way when the signal comes.
    await server.stop("SIGTERM");
    rmSync(join(dataDir, "pages.db"), { force: true });
    rmSync(join(dataDir, "pages.db-wal"), { force: true });
    rmSync(join(dataDir, "pages.db-shm"), { force: true });
    server = await startServer({ dataDir });
    const started = Date.now();
    expect(await server.stop("SIGTERM")).toBe(0);
    expect(Date.now() - started).toBeLessThan(5_000);
    server = await startServer({ dataDir });
  });
});

/**
 * A deploy as a fresh checkout makes one: a copy of the site (build/ and public/) whose next build
 * has other asset names (`/build/v2/…`, another assets version) and no longer has the old files.
 */
function copySite(): string {
  const site = mkdtempSync(join(tmpdir(), "news-site-"));
  for (const part of ["build", "public", "package.json"]) cpSync(resolve(part), join(site, part), { recursive: true });
  symlinkSync(resolve("node_modules"), join(site, "node_modules"));
  return site;
}

function deployNewBuild(site: string): void {
  const index = join(site, "build/remix/index.js");
  const code = readFileSync(index, "utf8");
  const version = /version: "([0-9a-f]{8})"/.exec(code)![1];
  writeFileSync(index, code.replaceAll('"/build/', '"/build/v2/').replace(`version: "${version}"`, 'version: "0ddba11a"'));
  const old = join(site, "public/build");
  renameSync(old, `${old}-old`);
  mkdirSync(old);
  renameSync(`${old}-old`, join(old, "v2"));
}

describe("after a deploy (production server, a copied site)", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "news-deploy-"));
  const site = copySite();
  let server: RunningServer | undefined;
  let slugs: string[];
  const keys = () => ["/", ...slugs.map((s) => `/article/${encodeURIComponent(s)}`)];

  beforeAll(async () => {
    server = await startServer({ dataDir, cwd: site });
    slugs = await publishedSlugs(dataDir);
    await storeHolds(dataDir, keys());
    await server.stop("SIGTERM");
    server = undefined;
  });
  afterAll(async () => {
    await server?.stop("SIGKILL");
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(site, { recursive: true, force: true });
  });

  it("serves the previous build's pages (stale) until each is rendered again, and every script and style a served page names loads", async () => {
    const before = storedPages(dataDir).length;
    deployNewBuild(site);
    // Slow the re-render down so readers meet pages of both builds: the warm-up's own renders are off.
    server = await startServer({ dataDir, cwd: site, env: { PAGE_STORE_WARM: "0" } });
    const kept = storedPages(dataDir);
    // Nothing was emptied: the previous build's pages are all there, every one stale or re-rendered.
    expect(kept.length).toBeGreaterThanOrEqual(before - 1);
    const seen = { STALE: 0, HIT: 0, MISS: 0 } as Record<string, number>;
    const assets = new Set<string>();
    for (const path of keys()) {
      const page = await request(server.url, path);
      expect(page.status, path).toBe(200);
      seen[String(page.headers["x-cache"])] = (seen[String(page.headers["x-cache"])] ?? 0) + 1;
      const named = assetsOf(page.text);
      expect(named.length, path).toBeGreaterThan(0);
      // A page names the assets of one build: the old one while stale, the new one once rendered again.
      if (page.headers["x-cache"] === "STALE")
        expect(
          named.every((a) => !a.startsWith("/build/v2/")),
          path,
        ).toBe(true);
      else
        expect(
          named.every((a) => a.startsWith("/build/v2/")),
          path,
        ).toBe(true);
      for (const a of named) assets.add(a);
    }
    expect(seen.STALE).toBeGreaterThan(0);
    expect(seen.MISS).toBe(0);
    expect([...assets].some((a) => !a.startsWith("/build/v2/"))).toBe(true);
    for (const a of assets) expect((await request(server.url, a)).status, a).toBe(200);
    // Within seconds every page is of the new build, and a kept page again.
    const deadline = Date.now() + 30_000;
    for (const path of keys()) {
      for (;;) {
        const page = await request(server.url, path);
        if (page.headers["x-cache"] === "HIT") {
          expect(
            assetsOf(page.text).every((a) => a.startsWith("/build/v2/")),
            path,
          ).toBe(true);
          break;
        }
        if (Date.now() > deadline) throw new Error(`${path} still ${page.headers["x-cache"]}`);
        await sleep(100);
      }
    }
  });

  it("an hour after, the previous build's files are gone and so are its pages; without its files its pages are never served", async () => {
    await server!.stop("SIGTERM");
    // Another deploy whose previous build's files are past their hour (as if it started long ago).
    const archive = join(dataDir, "build-assets");
    const previous = readdirSync(archive).find((d) => d !== "0ddba11a")!;
    expect(previous).toBeTruthy();
    writeFileSync(join(archive, previous, ".retired-at"), String(Date.now() - 2 * 60 * 60_000));
    const index = join(site, "build/remix/index.js");
    writeFileSync(index, readFileSync(index, "utf8").replace('version: "0ddba11a"', 'version: "0ddba11b"'));
    // The store holds pages of build 0ddba11a, whose files are kept: they stay (stale).
    server = await startServer({ dataDir, cwd: site, env: { PAGE_STORE_WARM: "0" } });
    expect(existsSync(join(archive, previous))).toBe(false);
    expect(storedPages(dataDir).length).toBeGreaterThan(0);
    for (const path of keys()) {
      const page = await request(server.url, path);
      for (const a of assetsOf(page.text)) expect((await request(server.url, a)).status, `${path}: ${a}`).toBe(200);
    }
    await server.stop("SIGTERM");

    // A deploy whose previous build left no files behind (DATA_DIR/build-assets lost): nothing of it is served.
    rmSync(archive, { recursive: true, force: true });
    writeFileSync(index, readFileSync(index, "utf8").replace('version: "0ddba11b"', 'version: "0ddba11c"'));
    server = await startServer({ dataDir, cwd: site, env: { PAGE_STORE_WARM: "0" } });
    expect(storedPages(dataDir)).toEqual([]);
    const home = await request(server.url, "/");
    expect(home.headers["x-cache"]).toBe("MISS");
  });
});

describe("two processes on one data folder", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "news-warm2-"));
  let servers: RunningServer[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop("SIGKILL")));
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("only one of them warms (a lease in pages.db): every page is rendered once", async () => {
    // The first makes the folder (migrations, demo data); then a second joins it on a fresh store.
    servers = [await startServer({ dataDir, env: { PAGE_STORE_WARM: "0" } })];
    await servers[0].stop("SIGTERM");
    for (const suffix of ["", "-wal", "-shm"]) rmSync(join(dataDir, `pages.db${suffix}`), { force: true });
    servers = await Promise.all([startServer({ dataDir }), startServer({ dataDir })]);
    const slugs = await publishedSlugs(dataDir);
    await storeHolds(
      dataDir,
      slugs.map((s) => `/article/${encodeURIComponent(s)}`),
    );
    await sleep(500);
    const lines = servers.map((s) => /Page store: warm \((\d+) pages/.exec(s.output())?.[1]);
    // One walked the list and rendered every page; the other found the lease taken.
    expect(lines.filter(Boolean)).toHaveLength(1);
    expect(Number(lines.find(Boolean))).toBeGreaterThanOrEqual(slugs.length + 2);
  });
});
