import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { holdWriteLock, rowsOf } from "../database-of";
import { request, startServer, type RunningServer } from "../server-process";
import {
  apiSend,
  apiSignIn,
  ARTICLE_TEXT,
  expectAcknowledgedWrites,
  firstCategoryId,
  formSignIn,
  startWriters,
  type Acknowledged,
  type Staff,
} from "../staff-client";

// Two `npm start` processes on two ports and one DATA_DIR (docs/decisions/020, issue 26): what is
// shared lives in news.db and pages.db, so it does not matter which process a request reaches or
// which process's scheduler sees a due story first. WORKERS=N on one port: workers.test.ts.
const PROPAGATION_MS = 2_000;

const dataDir = mkdtempSync(join(tmpdir(), "news-two-"));
let one: RunningServer;
let two: RunningServer;

afterAll(async () => {
  for (const server of [one, two]) await server?.stop("SIGKILL");
  rmSync(dataDir, { recursive: true, force: true });
});

/** Rows of the site's database (news.db or, under test:pg, PostgreSQL). */
const query = <T>(text: string, ...params: unknown[]) => rowsOf<T>(dataDir, text, ...params);
/** The page store's shared invalidation counter (pages.db is SQLite on both engines: a cache per box). */
function generation(): number {
  const pages = new Database(join(dataDir, "pages.db"), { readonly: true });
  try {
    return (pages.prepare("select n from counters where name = 'generation'").get() as { n: number }).n;
  } finally {
    pages.close();
  }
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function newDraft(staff: Staff, categoryId: string, title: string): Promise<string> {
  const res = await apiSend(staff, "POST", "/api/articles/", { title, content: ARTICLE_TEXT, category_id: categoryId, status: "draft" });
  expect(res.status).toBe(201);
  return res.json.id;
}

describe("two processes started separately on one DATA_DIR", () => {
  beforeAll(async () => {
    // Started at the same moment on an empty folder: the start lock lets one migrate and seed.
    [one, two] = await Promise.all([startServer({ dataDir }), startServer({ dataDir })]);
  });

  it("start together on an empty folder: one migration, one seed, one session secret", async () => {
    expect((await query<{ n: number }>("select count(*) as n from categories"))[0].n).toBe(8);
    expect((await query<{ n: number }>("select count(*) as n from users"))[0].n).toBe(3);
    expect((await query<{ n: number }>("select count(*) as n from kysely_migration"))[0].n).toBeGreaterThan(0);
    expect(existsSync(join(dataDir, "session-secret"))).toBe(true);
    // A session cookie signed by one is good on the other.
    const form = await formSignIn(one.url, "editor", "editor123");
    const screen = await fetch(`${two.url}/admin/articles`, { headers: form.auth, redirect: "manual" });
    expect(screen.status).toBe(200);
  });

  it("a scheduled story goes out exactly once, with a writer on each process and readers on both; both serve it within 2 s", async () => {
    const staff1 = await apiSignIn(one.url, "admin", "admin123");
    const staff2: Staff = { url: two.url, auth: staff1.auth };
    const categoryId = await firstCategoryId(staff1);
    const acked1: Acknowledged = { created: new Map(), target: { id: await newDraft(staff1, categoryId, "Чернетка першого"), title: "", inFlight: "" } };
    const acked2: Acknowledged = { created: new Map(), target: { id: await newDraft(staff2, categoryId, "Чернетка другого"), title: "", inFlight: "" } };
    // Drafts only: no other write clears pages, so the store's invalidations can be counted.
    const writers = () => [
      startWriters({ staff: staff1, categoryId, acked: acked1, label: "Перший", drafts: true }),
      startWriters({ staff: staff2, categoryId, acked: acked2, label: "Другий", drafts: true }),
    ];

    const title = `Заплановано на двох ${Date.now().toString(36)}`;
    const id = await newDraft(staff2, categoryId, title);
    const due = Date.now() + 6_000;
    const scheduled = await apiSend(staff2, "POST", `/api/articles/${id}/publish`, { publish_at: new Date(due).toISOString() });
    expect(scheduled.status).toBe(200);
    expect(scheduled.json.status).toBe("scheduled");
    const [{ version }] = await query<{ version: number }>("select version from articles where id = ?", id);
    const before = generation();

    // Readers on both processes: the feed and the listing of all news, until both show the story.
    const shown = new Map<string, number>();
    let readersDone = false;
    const reader = async (url: string) => {
      while (!readersDone) {
        for (const path of ["/rss.xml", "/search"]) {
          // No browser's User-Agent: not counted as views, whose flush would write while the lock is held.
          const answer = await request(url, path);
          expect(answer.status, `${url}${path}`).toBe(200);
          if (answer.text.includes(title) && !shown.has(`${url}${path}`)) shown.set(`${url}${path}`, Date.now());
        }
        await sleep(50);
      }
    };
    const readers = Promise.all([reader(one.url), reader(two.url)]);

    let running = writers();
    await sleep(due - Date.now() - 2_000);
    // Another process (a backup, say) holds the write lock across the due time: both schedulers
    // find the story due, both wait for the lock, and the second gets it after the first published.
    // Writers pause meanwhile: a save waiting for the lock would keep its process's scheduler from
    // looking.
    await Promise.all(running.map((w) => w.stop()));
    const locker = await holdWriteLock(dataDir);
    await sleep(due + 2_000 - Date.now());
    await locker.release();
    running = writers();

    let publishedAt = 0;
    while (!publishedAt) {
      const [row] = await query<{ status: string }>("select status from articles where id = ?", id);
      if (row.status === "published") publishedAt = Date.now();
      else if (Date.now() > due + 10_000) throw new Error(`not published 10 s after its time: ${row.status}\n${one.output()}\n${two.output()}`);
      else await sleep(20);
    }
    // Both processes show it within 2 s of the publish.
    while (shown.size < 4 && Date.now() - publishedAt < 5_000) await sleep(20);
    readersDone = true;
    await readers;
    const lag = [...shown.values()].map((at) => at - publishedAt);
    console.log(`two processes: story shown on both (feed, listing) ${Math.max(0, ...lag)} ms after it was published`);
    expect(shown.size).toBe(4);
    for (const ms of lag) expect(ms).toBeLessThanOrEqual(PROPAGATION_MS);

    // Exactly once: one scheduler's log line, one version step, one invalidation of the page store.
    await sleep(1_500);
    await Promise.all(running.map((w) => w.stop()));
    const lines = (one.output() + two.output()).split("\n").filter((line) => line.includes("Scheduler published") && line.includes(id));
    expect(lines).toHaveLength(1);
    expect((await query<{ version: number }>("select version from articles where id = ?", id))[0].version).toBe(version + 1);
    expect(generation() - before).toBe(1);
    await expectAcknowledgedWrites(dataDir, acked1);
    await expectAcknowledgedWrites(dataDir, acked2);
    expect(acked1.created.size).toBeGreaterThan(0);
    expect(acked2.created.size).toBeGreaterThan(0);
  }, 60_000);

  it("one killed with SIGKILL in the middle of acknowledged writes: nothing acknowledged is lost, the other keeps serving", async () => {
    const staff1 = await apiSignIn(one.url, "admin", "admin123");
    const staff2: Staff = { url: two.url, auth: staff1.auth };
    const categoryId = await firstCategoryId(staff1);
    const acked1: Acknowledged = { created: new Map(), target: { id: await newDraft(staff1, categoryId, "Перша ціль"), title: "", inFlight: "" } };
    const acked2: Acknowledged = { created: new Map(), target: { id: await newDraft(staff2, categoryId, "Друга ціль"), title: "", inFlight: "" } };
    const writers1 = startWriters({ staff: staff1, categoryId, acked: acked1, label: "Убитий" });
    const writers2 = startWriters({ staff: staff2, categoryId, acked: acked2, label: "Живий" });
    const deadline = Date.now() + 20_000;
    while ((acked1.created.size < 3 || acked2.created.size < 3) && Date.now() < deadline) await sleep(20);
    await sleep(100 + Math.floor(Math.random() * 300));
    const stopped = writers1.stop();
    one.child.kill("SIGKILL");
    await new Promise((r) => (one.child.exitCode !== null || one.child.signalCode !== null ? r(null) : one.child.once("exit", r)));
    await stopped;
    const atKill = acked2.created.size;
    while (acked2.created.size < atKill + 5 && Date.now() < deadline + 10_000) await sleep(20);
    expect(acked2.created.size).toBeGreaterThanOrEqual(atKill + 5);
    expect((await request(two.url, "/")).status).toBe(200);
    await writers2.stop();
    await expectAcknowledgedWrites(dataDir, acked1);
    await expectAcknowledgedWrites(dataDir, acked2);
    expect(await two.stop("SIGTERM")).toBe(0);
  }, 60_000);
});
