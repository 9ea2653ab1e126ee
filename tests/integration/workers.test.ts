import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf } from "../database-of";
import { request, startServer, workerPids, type Answer, type RunningServer } from "../server-process";
import { apiSend, apiSignIn, ARTICLE_TEXT, expectAcknowledgedWrites, firstCategoryId, startWriters, type Acknowledged, type Staff } from "../staff-client";

// WORKERS=N (docs/decisions/020, issue 26): the real production build as a cluster of worker
// processes on one DATA_DIR. Each request goes on a connection of its own, so the cluster's round
// robin spreads them over the workers; NODE_ENV=test makes each answer name its worker (X-Worker-Pid).
// Two separately started processes on one folder: tests/integration/two-processes.test.ts.
const PROPAGATION_MS = 2_000;
const READER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36";

const cleanup: string[] = [];
const servers: RunningServer[] = [];
afterAll(async () => {
  for (const server of servers) await server.stop("SIGKILL");
  for (const dir of cleanup) rmSync(dir, { recursive: true, force: true });
});

async function startWorkers(env: Record<string, string> = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), "news-workers-"));
  cleanup.push(dataDir);
  const server = await startServer({ dataDir, env: { WORKERS: "2", NODE_ENV: "test", ...env } });
  servers.push(server);
  return { dataDir, server, pids: await workerPids(server.url, 2) };
}

const query = rowsOf;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A JSON write through whichever worker takes the connection; answers that worker too. */
async function write(url: string, staff: Staff, method: string, path: string, body: unknown): Promise<Answer> {
  const answer = await request(url, path, { method, headers: { ...staff.auth, "Content-Type": "application/json" }, body: JSON.stringify(body) });
  expect(answer.status, answer.text).toBe(200);
  return answer;
}

/** Serves each path from both workers (stored in the page store and in each worker's memory). */
async function warm(url: string, paths: string[], pids: number[]) {
  for (const path of paths) {
    const hits = new Set<number>();
    for (let i = 0; hits.size < pids.length; i++) {
      if (i > 60) throw new Error(`${path} not a hit from every worker`);
      const answer = await request(url, path, { headers: { "user-agent": READER } });
      expect(answer.status).toBe(200);
      if (answer.headers["x-cache"] === "HIT") hits.add(answer.pid);
    }
  }
}

/**
 * Polls every path from both workers (two requests in a row: round robin gives each worker one)
 * until each path has shown the change from each worker; an answer without it later than
 * PROPAGATION_MS after the write fails. Answers the time from the write to the last answer
 * without the change, and which workers answered.
 */
async function propagation(url: string, paths: string[], shows: (text: string) => boolean, since: number): Promise<{ ms: number; pids: Set<number> }> {
  const seen = new Map(paths.map((path) => [path, new Set<number>()]));
  const pids = new Set<number>();
  let lastWithout = since;
  while ([...seen.values()].some((workers) => workers.size < 2)) {
    if (Date.now() - since > 10_000) throw new Error(`not every page from both workers within 10 s: ${JSON.stringify([...seen].map(([p, w]) => [p, [...w]]))}`);
    for (const path of paths) {
      for (let i = 0; i < 2; i++) {
        const answer = await request(url, path, { headers: { "user-agent": READER } });
        const at = Date.now();
        pids.add(answer.pid);
        expect(answer.status, path).toBe(200);
        if (shows(answer.text)) {
          seen.get(path)!.add(answer.pid);
          continue;
        }
        lastWithout = at;
        if (at - since > PROPAGATION_MS) {
          throw new Error(
            `${path} from worker ${answer.pid} (X-Cache: ${answer.headers["x-cache"]}) still without the change ${at - since} ms after the write`,
          );
        }
      }
    }
  }
  return { ms: lastWithout - since, pids };
}

describe("WORKERS=2 on one DATA_DIR", () => {
  let url = "";
  let dataDir = "";
  let server: RunningServer;
  let pids: number[] = [];
  let staff: Staff;

  beforeAll(async () => {
    ({ dataDir, server, pids } = await startWorkers());
    url = server.url;
    staff = await apiSignIn(url, "admin", "admin123");
  });

  it("serves from two worker processes of one primary", async () => {
    expect(pids).toHaveLength(2);
    for (const pid of pids) {
      expect(pid).not.toBe(server.child.pid);
      const parent = /^PPid:\s+(\d+)$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
      expect(Number(parent)).toBe(server.child.pid);
    }
    expect(server.output()).toMatch(/Наука UA: http:\/\/localhost:\d+ \(data in .*, 2 worker processes\)/);
    // The demo seed ran once: eight categories, one seed marker.
    expect((await query<{ n: number }>(dataDir, "select count(*) as n from categories"))[0].n).toBe(8);
  });

  it(`an edit through one worker is on every public page of the other within ${PROPAGATION_MS / 1000} s (settings, article, menu), page store on`, async () => {
    const home = await request(url, "/");
    const slug = /href="\/article\/([^"?#]+)"/.exec(home.text)![1];
    const [article] = await query<{ id: string; title: string; category_id: string; slug: string }>(
      dataDir,
      "select a.id, a.title, a.category_id, c.slug from articles a join categories c on c.id = a.category_id where a.slug = ?",
      decodeURIComponent(slug),
    );
    const paths = ["/", `/article/${slug}`, `/category/${article.slug}`, "/category/medicine", "/search", "/rss.xml"];
    const figures: string[] = [];

    // 1. Site settings: the title on every page (every stored page goes).
    await warm(url, paths, pids);
    const title = `Наука ${Date.now().toString(36)}`;
    const settings = await write(url, staff, "PUT", "/api/seo/settings", { site_title: title });
    let result = await propagation(url, paths, (text) => text.includes(title), Date.now());
    figures.push(`settings ${result.ms} ms (written by ${settings.pid})`);
    expect(result.pids).toEqual(new Set(pids));

    // 2. An article's title: its page, the home, its category, search and the feed (pages marked
    // stale and re-rendered in the background, stale served meanwhile).
    await warm(url, paths, pids);
    const shownWithTitle = [];
    for (const path of paths) if ((await request(url, path)).text.includes(article.title)) shownWithTitle.push(path);
    expect(shownWithTitle).toContain(`/article/${slug}`);
    expect(shownWithTitle).toContain("/");
    const headline = `${article.title} (виправлено ${Date.now().toString(36)})`;
    const current = (await apiSend(staff, "GET", `/api/articles/${article.id}`)).json;
    const edit = await write(url, staff, "PUT", `/api/articles/${article.id}`, {
      title: headline,
      content: current.content,
      category_id: article.category_id,
      status: "published",
      slug: current.slug,
      tags: current.tags?.map((t: { name: string } | string) => (typeof t === "string" ? t : t.name)),
    });
    result = await propagation(url, shownWithTitle, (text) => text.includes(headline), Date.now());
    figures.push(`article ${result.ms} ms on ${shownWithTitle.length} pages (written by ${edit.pid})`);

    // 3. The menu: a category renamed shows on every page.
    await warm(url, paths, pids);
    const [medicine] = await query<{ id: string; name: string }>(dataDir, "select id, name from categories where slug = 'medicine'");
    const name = `Медицина ${Date.now().toString(36)}`;
    const rename = await write(url, staff, "PUT", `/api/categories/${medicine.id}`, { name, slug: "medicine" });
    result = await propagation(url, paths, (text) => text.includes(name), Date.now());
    figures.push(`menu ${result.ms} ms (written by ${rename.pid})`);
    console.log(`workers: propagation to both workers: ${figures.join("; ")}`);
  }, 120_000);

  it("stops every worker on SIGTERM and exits 0", async () => {
    expect(await server.stop("SIGTERM")).toBe(0);
    for (const pid of pids) expect(() => process.kill(pid, 0)).toThrow();
    expect(server.output()).toMatch(/SIGTERM: stopping 2 worker\(s\)/);
  });
});

describe("WORKERS=2: one worker killed with SIGKILL in the middle of acknowledged writes", () => {
  it("loses no acknowledged write, the other worker keeps serving, the primary starts another; on SIGTERM every worker's view counts are written", async () => {
    const { dataDir, server, pids } = await startWorkers({ VIEW_REPEAT_MINUTES: "0" });
    const staff = await apiSignIn(server.url, "admin", "admin123");
    const categoryId = await firstCategoryId(staff);
    const first = await apiSend(staff, "POST", "/api/articles/", { title: "Зберігають знову і знову", content: ARTICLE_TEXT, category_id: categoryId });
    expect(first.status).toBe(201);
    const acked: Acknowledged = { created: new Map(), target: { id: first.json.id, title: first.json.title, inFlight: "" } };

    // Writers on keep-alive connections (fetch), so both workers hold some of them.
    const writers = startWriters({ staff, categoryId, acked, label: "Робітник", keepGoing: true });
    const deadline = Date.now() + 20_000;
    while (acked.created.size < 6 && Date.now() < deadline) await sleep(20);
    await sleep(100 + Math.floor(Math.random() * 300));
    const [victim, survivor] = pids;
    process.kill(victim, "SIGKILL");
    const killedAt = Date.now();
    const ackedAtKill = acked.created.size;

    // The survivor answers at once (the replacement starts 500 ms later).
    const answers: number[] = [];
    while (answers.length < 6) {
      try {
        // A connection the primary handed to the dead worker before it saw it go gets no answer:
        // given up after a second, as a browser's retry would.
        const answer = await request(server.url, "/", { headers: { "user-agent": READER }, timeoutMs: 1_000 });
        expect(answer.status).toBe(200);
        answers.push(answer.pid);
      } catch {
        // that lost connection
      }
    }
    expect(Date.now() - killedAt).toBeLessThan(2_000);
    expect(answers).toContain(survivor);
    expect(answers).not.toContain(victim);
    while (acked.created.size < ackedAtKill + 6 && Date.now() < deadline + 10_000) await sleep(20);
    expect(acked.created.size).toBeGreaterThanOrEqual(ackedAtKill + 6);

    // The primary logged the death and started another worker.
    let replacement: number | undefined;
    while (replacement === undefined && Date.now() - killedAt < 15_000) {
      const answer = await request(server.url, "/healthz").catch(() => undefined);
      if (answer && !pids.includes(answer.pid)) replacement = answer.pid;
    }
    expect(replacement, server.output()).toBeDefined();
    expect(server.output()).toContain(`Worker ${victim} ended unexpectedly (signal SIGKILL); starting another in 500 ms`);
    await writers.stop();
    console.log(
      `workers: ${acked.created.size} acknowledged creates (${ackedAtKill} before the kill), ${writers.unanswered()} requests without an answer at the kill`,
    );
    await expectAcknowledgedWrites(dataDir, acked);

    // View counts from both workers add up, the last second's included (written at shutdown).
    const [article] = await query<{ id: string; slug: string; views: number }>(
      dataDir,
      "select id, slug, views from articles where status = 'published' order by published_at limit 1",
    );
    const viewsOf = async () => (await query<{ views: number }>(dataDir, "select views from articles where id = ?", article.id))[0].views;
    const dayViews = async () =>
      (await query<{ n: number }>(dataDir, "select coalesce(sum(views), 0) as n from page_views where article_id = ?", article.id))[0].n;
    const [before, beforeDays] = [await viewsOf(), await dayViews()];
    const counted = new Set<number>();
    const READS = 40;
    for (let i = 0; i < READS; i++) {
      const answer = await request(server.url, `/article/${article.slug}`, { headers: { "user-agent": READER } });
      expect(answer.status).toBe(200);
      counted.add(answer.pid);
    }
    expect(counted.size).toBe(2);
    expect(await server.stop("SIGTERM")).toBe(0);
    expect((await viewsOf()) - before).toBe(READS);
    expect((await dayViews()) - beforeDays).toBe(READS);
  }, 120_000);
});
