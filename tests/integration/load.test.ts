import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { integrityOf, withDatabaseOf } from "../database-of";
import { startServer, type RunningServer } from "../server-process";
import { ARTICLE_TEXT, REQUEST_TIMEOUT_MS, apiSend, apiSignIn, firstCategoryId, formSend, formSignIn, type Staff } from "../staff-client";

// Issue 7 item 4, first point: readers and staff at the same time on the real production build.
// Zero errors, zero 5xx, and every write the server acknowledged (a complete 2xx answer) is in the
// database afterwards, as acknowledged. LOAD_TEST_SECONDS tunes the length (default 30 s).
const SECONDS = Number(process.env.LOAD_TEST_SECONDS ?? 30);
const READERS = 40;
const BROWSER_UA = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36";

const dataDir = mkdtempSync(join(tmpdir(), "news-load-"));
let server: RunningServer | undefined;

afterAll(async () => {
  await server?.stop("SIGKILL");
  rmSync(dataDir, { recursive: true, force: true });
});

/** What the staff were told was saved, per article id. */
interface Acked {
  title: string;
  status: "draft" | "published";
}

interface Tally {
  statuses: Map<number, number>;
  failures: string[];
  readMs: number[];
  writeMs: number[];
  writes: number;
}

const percentile = (values: number[], p: number) => {
  if (!values.length) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};

function record(tally: Tally, status: number, what: string, detail: unknown) {
  tally.statuses.set(status, (tally.statuses.get(status) ?? 0) + 1);
  if (status >= 400) tally.failures.push(`${what} → ${status} ${JSON.stringify(detail).slice(0, 200)}`);
}

async function reader(url: string, paths: string[], end: number, tally: Tally, seed: number) {
  for (let n = seed; Date.now() < end; n++) {
    const path = paths[n % paths.length];
    const start = performance.now();
    try {
      const res = await fetch(`${url}${path}`, { headers: { "User-Agent": BROWSER_UA }, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
      const body = await res.arrayBuffer();
      tally.readMs.push(performance.now() - start);
      record(tally, res.status, `GET ${path}`, res.status >= 400 ? Buffer.from(body).toString("utf8", 0, 200) : "");
    } catch (error) {
      tally.failures.push(`GET ${path} failed: ${error}`);
    }
  }
}

/** JSON API staff: create a draft, save a new title, publish; each acknowledged step is recorded. */
async function apiStaff(staff: Staff, name: string, categoryId: string, end: number, tally: Tally, acked: Map<string, Acked>) {
  for (let n = 0; Date.now() < end; n++) {
    const timed = async (what: string, fn: () => Promise<{ status: number; json: any }>) => {
      const start = performance.now();
      try {
        const result = await fn();
        tally.writeMs.push(performance.now() - start);
        record(tally, result.status, what, result.json);
        if (result.status < 300) tally.writes++;
        return result;
      } catch (error) {
        tally.failures.push(`${what} failed: ${error}`);
        return undefined;
      }
    };
    const title = `Навантаження ${name} ${n}`;
    const created = await timed("POST /api/articles/", () =>
      apiSend(staff, "POST", "/api/articles/", { title, content: ARTICLE_TEXT, category_id: categoryId, status: "draft", tags: ["навантаження"] }),
    );
    if (created?.status !== 201) continue;
    const id = created.json.id as string;
    acked.set(id, { title, status: "draft" });
    const saved = await timed("PUT /api/articles/{id}", () =>
      apiSend(staff, "PUT", `/api/articles/${id}`, {
        title: `${title} (ред.)`,
        content: `${ARTICLE_TEXT}\n\nДоповнення ${n}.`,
        category_id: categoryId,
        status: "draft",
        version: created.json.version,
      }),
    );
    if (saved?.status !== 200) continue;
    acked.set(id, { title: `${title} (ред.)`, status: "draft" });
    const published = await timed("POST /api/articles/{id}/publish", () => apiSend(staff, "POST", `/api/articles/${id}/publish`));
    if (published?.status === 200) acked.set(id, { title: `${title} (ред.)`, status: "published" });
  }
}

/** A staff member on the editor screens without JavaScript: the same three steps through forms. */
async function formStaff(staff: Staff, name: string, categoryId: string, end: number, tally: Tally, acked: Map<string, Acked>) {
  for (let n = 0; Date.now() < end; n++) {
    const timed = async (what: string, fields: Record<string, string>, path: string) => {
      const start = performance.now();
      try {
        const result = await formSend(staff, path, fields);
        tally.writeMs.push(performance.now() - start);
        // The editor answers a save with a redirect to the edit screen; anything else is a failure.
        record(tally, result.status === 302 ? 302 : result.status >= 400 ? result.status : 422, what, result.text.slice(0, 200));
        if (result.status === 302) tally.writes++;
        return result;
      } catch (error) {
        tally.failures.push(`${what} failed: ${error}`);
        return undefined;
      }
    };
    const title = `Форма ${name} ${n}`;
    const fields = { title, content: ARTICLE_TEXT, category_id: categoryId, status: "draft", tags: "навантаження" };
    const created = await timed("POST /admin/articles/new", { ...fields, intent: "draft" }, "/admin/articles/new");
    const id = created?.status === 302 ? created.location?.match(/\/admin\/articles\/edit\/([^/?]+)/)?.[1] : undefined;
    if (!id) continue;
    acked.set(id, { title, status: "draft" });
    const saved = await timed("POST /admin/articles/edit/{id} save", { ...fields, title: `${title} (ред.)`, intent: "save" }, `/admin/articles/edit/${id}`);
    if (saved?.status !== 302) continue;
    acked.set(id, { title: `${title} (ред.)`, status: "draft" });
    const published = await timed(
      "POST /admin/articles/edit/{id} publish",
      { ...fields, title: `${title} (ред.)`, intent: "publish" },
      `/admin/articles/edit/${id}`,
    );
    if (published?.status === 302) acked.set(id, { title: `${title} (ред.)`, status: "published" });
  }
}

/**
 * Issue 14: stories scheduled to go out during the load (at 20, 40, 60 and 80 % of it), watched
 * by an anonymous reader (through the page cache) every 100 ms; answers how late each one showed,
 * in ms after its time (the poll interval included).
 */
async function scheduledStories(
  staff: Staff,
  categoryId: string,
  started: number,
  tally: Tally,
): Promise<{ late: number[]; missed: string[]; planned: number }> {
  const plans: { slug: string; at: string }[] = [];
  for (const fraction of [0.2, 0.4, 0.6, 0.8]) {
    const created = await apiSend(staff, "POST", "/api/articles/", {
      title: `Ембарго ${fraction}`,
      content: ARTICLE_TEXT,
      category_id: categoryId,
      status: "draft",
    });
    record(tally, created.status, "POST /api/articles/ (to schedule)", created.json);
    if (created.status !== 201) continue;
    const at = new Date(Math.max(started + fraction * SECONDS * 1000, Date.now() + 2000)).toISOString();
    const scheduled = await apiSend(staff, "POST", `/api/articles/${created.json.id}/publish`, { publish_at: at });
    record(tally, scheduled.status, "POST /api/articles/{id}/publish {publish_at}", scheduled.json);
    if (scheduled.status === 200) plans.push({ slug: created.json.slug, at });
  }
  const late: number[] = [];
  const missed: string[] = [];
  await Promise.all(
    plans.map(async ({ slug, at }) => {
      const deadline = Date.parse(at) + 30_000;
      while (Date.now() < deadline) {
        const res = await fetch(`${staff.url}/article/${slug}`, { headers: { "User-Agent": BROWSER_UA }, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
        await res.arrayBuffer();
        if (res.status === 200) {
          late.push(Date.now() - Date.parse(at));
          return;
        }
        if (res.status !== 404) missed.push(`${slug}: ${res.status}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      missed.push(`${slug}: not public 30 s after ${at}`);
    }),
  );
  return { late, missed, planned: plans.length };
}

describe("mixed load: readers and staff writing at the same time", () => {
  it(
    `${READERS} readers and 4 staff for ${SECONDS} s: no errors, no 5xx, every acknowledged write stored`,
    async () => {
      server = await startServer({ dataDir });
      const { url } = server;
      const admin = await apiSignIn(url, "admin", "admin123");
      const editor = await apiSignIn(url, "editor", "editor123");
      const formEditor = await formSignIn(url, "editor", "editor123");
      const categoryId = await firstCategoryId(admin);
      const articles = (await apiSend(admin, "GET", "/api/articles/?limit=20")).json.data as { slug: string }[];
      const categories = (await apiSend(admin, "GET", "/api/categories/")).json.data as { slug: string }[];
      expect(articles.length).toBeGreaterThan(5);
      const paths = [
        "/",
        ...articles.slice(0, 10).map((a) => `/article/${encodeURIComponent(a.slug)}`),
        ...categories.slice(0, 4).map((c) => `/category/${c.slug}`),
        "/search?q=" + encodeURIComponent("космос"),
        "/search?q=" + encodeURIComponent("навантаження"),
        "/rss.xml",
        "/",
      ];

      const reads: Tally = { statuses: new Map(), failures: [], readMs: [], writeMs: [], writes: 0 };
      const writes: Tally = { statuses: new Map(), failures: [], readMs: [], writeMs: [], writes: 0 };
      const acked = new Map<string, Acked>();
      const started = Date.now();
      const end = started + SECONDS * 1000;
      const [schedule] = await Promise.all([
        scheduledStories(editor, categoryId, started, writes),
        ...Array.from({ length: READERS }, (_, i) => reader(url, paths, end, reads, i)),
        apiStaff(admin, "admin-a", categoryId, end, writes, acked),
        apiStaff(admin, "admin-b", categoryId, end, writes, acked),
        apiStaff(editor, "editor", categoryId, end, writes, acked),
        formStaff(formEditor, "form", categoryId, end, writes, acked),
      ]);
      const elapsed = (Date.now() - started) / 1000;
      const readCount = reads.readMs.length;
      const writeCount = writes.writeMs.length;

      // The figures for docs/decisions/007-durability.md (this machine is shared: req/s is indicative).
      console.log(
        `load: ${elapsed.toFixed(1)} s, ${readCount} reads (${(readCount / elapsed).toFixed(0)}/s, p50 ${percentile(reads.readMs, 50).toFixed(0)} ms, p99 ${percentile(reads.readMs, 99).toFixed(0)} ms), ` +
          `${writeCount} writes (${writes.writes} acknowledged, ${(writeCount / elapsed).toFixed(1)}/s, p50 ${percentile(writes.writeMs, 50).toFixed(0)} ms, p99 ${percentile(writes.writeMs, 99).toFixed(0)} ms), ` +
          `${acked.size} articles; reads ${JSON.stringify(Object.fromEntries(reads.statuses))}, writes ${JSON.stringify(Object.fromEntries(writes.statuses))}`,
      );

      // Issue 14: how late a schedule fires under this load (docs/decisions/014-editorial-desk.md).
      console.log(`scheduled publishing under load: ${schedule.late.length} of 4 shown, late by ${schedule.late.map((ms) => `${ms} ms`).join(", ")}`);
      expect(schedule.missed).toEqual([]);
      // Every story the desk was told is scheduled went out (a refused schedule is a write failure, below).
      expect(schedule.late.length).toBe(schedule.planned);
      expect(reads.failures).toEqual([]);
      expect(writes.failures).toEqual([]);
      expect(schedule.planned).toBe(4);
      expect([...reads.statuses.keys()]).toEqual([200]);
      expect(readCount).toBeGreaterThan(READERS);
      expect(writes.writes).toBeGreaterThan(4);
      expect(writes.writes).toBe(writeCount);

      // After a clean stop, the database file itself, opened read-only, holds every acknowledged write.
      const code = await server.stop("SIGTERM");
      expect(code, `the server did not stop cleanly:\n${server.output().slice(-3000)}`).toBe(0);
      expect(await integrityOf(dataDir)).toBe("ok");
      const missing = await withDatabaseOf(dataDir, async (db) => {
        const out: string[] = [];
        for (const [id, want] of acked) {
          const row = await db.selectFrom("articles").select(["title", "status"]).where("id", "=", id).executeTakeFirst();
          if (!row || row.title !== want.title || row.status !== want.status) out.push(`${id}: want ${JSON.stringify(want)}, got ${JSON.stringify(row)}`);
        }
        return out;
      });
      expect(missing).toEqual([]);
    },
    SECONDS * 1000 + 120_000,
  );
});
