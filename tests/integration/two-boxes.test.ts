import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { onPostgres } from "../database-of";
import { databaseUrlFor } from "../pg";
import { startServer, type RunningServer } from "../server-process";
import { apiSend, apiSignIn, firstCategoryId, type Staff } from "../staff-client";

// Several boxes on one PostgreSQL (DESIGN §13): each box has its own DATA_DIR and so its own page
// store; an invalidation made on one box reaches the others' stores by a NOTIFY broadcast. Two
// servers on two data folders and one database stand for two boxes.
const PROPAGATION_MS = 2_000;
const dirs = [mkdtempSync(join(tmpdir(), "news-box-a-")), mkdtempSync(join(tmpdir(), "news-box-b-"))];
let a: RunningServer;
let b: RunningServer;
let staff: Staff;

const reader = { "User-Agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/120 Safari/537.36" };
async function page(server: RunningServer, path: string) {
  const res = await fetch(`${server.url}${path}`, { headers: reader });
  return { status: res.status, cache: res.headers.get("x-cache"), text: await res.text() };
}

/** Polls until the check passes; answers how long it took. */
async function within(ms: number, check: () => Promise<boolean>): Promise<number> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > ms) throw new Error(`not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
  return Date.now() - started;
}

describe.runIf(onPostgres)("two boxes on one PostgreSQL", () => {
  beforeAll(async () => {
    const url = (await databaseUrlFor(dirs[0]))!;
    a = await startServer({ dataDir: dirs[0], env: { DATABASE_URL: url } });
    b = await startServer({ dataDir: dirs[1], env: { DATABASE_URL: url } });
    staff = await apiSignIn(a.url, "editor", "editor123");
  }, 120_000);
  afterAll(async () => {
    for (const server of [a, b]) await server?.stop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it("a correction and a withdrawal made on one box reach the other box's stored pages within 2 s", async () => {
    const article = { title: "Коробка А пише про нейтрино", content: "Перша версія тексту.", category_id: await firstCategoryId(staff), status: "published" };
    const created = await apiSend(staff, "POST", "/api/articles/", article);
    expect(created.status).toBe(201);
    const path = `/article/${created.json.slug}`;
    // Box B stores the page (a miss, then a hit from its own pages.db) and the home page.
    expect((await page(b, path)).status).toBe(200);
    expect((await page(b, path)).cache).toMatch(/HIT|STALE/);
    // Box B's home may be kept already (its store warms itself at start, issue 30): the publish on
    // box A marks it stale there, and it is re-rendered within the same 2 s.
    await within(PROPAGATION_MS, async () => (await page(b, "/")).text.includes("Коробка А пише про нейтрино"));

    // A correction on box A: box B serves the new title within 2 s.
    const corrected = await apiSend(staff, "PUT", `/api/articles/${created.json.id}`, { ...article, title: "Коробка А виправила заголовок про нейтрино" });
    expect(corrected.status).toBe(200);
    const correctedIn = await within(PROPAGATION_MS, async () => (await page(b, path)).text.includes("виправила заголовок"));

    // A withdrawal on box A: box B stops serving the article and drops it from its home page.
    expect((await apiSend(staff, "POST", `/api/articles/${created.json.id}/unpublish`)).status).toBe(200);
    const withdrawnIn = await within(PROPAGATION_MS, async () => (await page(b, path)).status === 404);
    await within(PROPAGATION_MS, async () => !(await page(b, "/")).text.includes("про нейтрино"));
    console.log(`two boxes: a correction showed on the other box after ${correctedIn} ms, a withdrawal after ${withdrawnIn} ms`);
  }, 60_000);
});
