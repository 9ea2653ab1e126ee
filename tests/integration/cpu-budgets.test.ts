import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MESSAGES } from "../../app/utils/newsroom-rules";
import { seedArticles } from "../../db/seed-content";
import { startServer, type RunningServer } from "../server-process";
import { apiSend, apiSignIn, firstCategoryId, formSend, formSignIn, type Staff } from "../staff-client";

// Issue 25 items 1 and 2 (SECURITY.md 'Staying up'): the inputs a probe used to stall or crash
// the process, sent to the real production build. While each runs, /healthz and a stored public
// article keep answering (typically in under 100 ms); the request itself gets a Ukrainian 422/413
// (never a hang, a 500 or a crash), and the process is alive afterwards. docs/decisions/018.
//
// What is checked is that the request thread is never blocked, not how fast this box is: work on
// the request thread held every reader for the whole job (3–8 s before issue 25), so no reader may
// wait STALL_MS. Figures belong to `npm run bench`, and CPU_TEST_REPORT=1 prints this file's (a
// box shared with other suites moves answers past 100 ms, which is no stall).

const BUDGET_MS = 2_000;
const STALL_MS = 1_000;

let dir: string;
let server: RunningServer;
let form: Staff;
let api: Staff;
let categoryId: string;
let storedPage: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "news-cpu-"));
  server = await startServer({ dataDir: dir, env: { CPU_JOB_MS: String(BUDGET_MS) } });
  [form, api] = await Promise.all([formSignIn(server.url, "editor", "editor123"), apiSignIn(server.url, "editor", "editor123")]);
  categoryId = await firstCategoryId(api);
  const list = await apiSend(api, "GET", "/api/articles/?limit=1");
  storedPage = `/article/${list.json.data[0].slug}`;
  // The reader's page comes from the page store (docs/decisions/016): render it once, then it is a hit.
  for (let i = 0; i < 50; i++) {
    const res = await fetch(`${server.url}${storedPage}`);
    await res.arrayBuffer();
    if (res.headers.get("x-cache") === "HIT") break;
    await sleep(100);
  }
}, 120_000);

afterAll(async () => {
  await server?.stop("SIGKILL");
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Whether a reader was held up as long as a stall. */
const heldUp = (latencies: Record<string, number[]>) => Object.values(latencies).some((list) => Math.max(...list) >= STALL_MS);

/**
 * Runs `work` while /healthz and the stored article are polled; returns its result and their
 * latencies. The 2-core box is shared (other suites, other builds): a run whose only fault is
 * slow readers is measured once more. A real stall (the old code's 3–8 s, or a crash) fails both.
 */
async function whileReadersWait<T>(work: () => Promise<T>) {
  const first = await measure(work);
  return !first.failures.length && heldUp(first.latencies) ? measure(work) : first;
}

async function measure<T>(work: () => Promise<T>) {
  let done = false;
  const latencies: Record<"healthz" | "page", number[]> = { healthz: [], page: [] };
  const failures: string[] = [];
  const poll = async (path: string, into: number[]) => {
    while (!done) {
      const started = performance.now();
      try {
        const res = await fetch(`${server.url}${path}`, { signal: AbortSignal.timeout(60_000) });
        await res.arrayBuffer();
        into.push(performance.now() - started);
        if (res.status !== 200) failures.push(`${path}: HTTP ${res.status}`);
        if (path === storedPage && res.headers.get("x-cache") !== "HIT") failures.push(`${path}: X-Cache ${res.headers.get("x-cache")}`);
      } catch (error) {
        into.push(performance.now() - started);
        failures.push(`${path}: ${(error as Error).cause ?? error}`);
      }
      await sleep(20);
    }
  };
  const pollers = [poll("/healthz", latencies.healthz), poll(storedPage, latencies.page)];
  const started = performance.now();
  try {
    const result = await work();
    const ms = performance.now() - started;
    // CPU_TEST_REPORT=1 prints the figures (docs/decisions/018 quotes them).
    if (process.env.CPU_TEST_REPORT) {
      const max = (list: number[]) => Math.round(Math.max(0, ...list));
      const status = (result as { status?: number }).status;
      console.log(
        `${expect.getState().currentTestName}: HTTP ${status} in ${Math.round(ms)} ms; healthz max ${max(latencies.healthz)} ms of ${latencies.healthz.length}, stored page max ${max(latencies.page)} ms of ${latencies.page.length}${failures.length ? `; ${failures.slice(0, 3).join("; ")}` : ""}`,
      );
    }
    return { result, ms, latencies, failures };
  } finally {
    done = true;
    await Promise.all(pollers);
  }
}

/** The readers' side of a run: answered all along (none held as by a stall), the process still there. */
async function expectReadersServed({ latencies, failures }: { latencies: Record<string, number[]>; failures: string[] }) {
  expect(failures, server.output().slice(-2000)).toEqual([]);
  for (const [what, list] of Object.entries(latencies)) {
    expect(list.length, what).toBeGreaterThan(0);
    expect(Math.max(...list), `${what} latencies: ${list.map((n) => Math.round(n)).join(", ")}`).toBeLessThan(STALL_MS);
  }
  expect(server.child.exitCode).toBeNull();
  expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
}

const editorFields = (content: string) => ({ intent: "preview", title: "Перевірка меж", content, category_id: categoryId, status: "draft" });

/** The editor's preview without JavaScript, posted as the browser posts the editor's form (multipart). */
async function preview(content: string) {
  const body = new FormData();
  for (const [name, value] of Object.entries(editorFields(content))) body.set(name, value);
  const res = await fetch(`${server.url}/admin/articles/new`, {
    method: "POST",
    headers: form.auth,
    body,
    redirect: "manual",
    signal: AbortSignal.timeout(60_000),
  });
  return { status: res.status, text: await res.text() };
}

/** The same preview url-encoded, as a script may send it. */
const previewUrlEncoded = (content: string) => formSend(form, "/admin/articles/new", editorFields(content));

/** The text of the editor's textarea in an answered page. */
const textareaText = (html: string) =>
  html
    .match(/<textarea[^>]*name="content"[^>]*>([\s\S]*?)<\/textarea>/)?.[1]
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&amp;/g, "&");

/** Deterministic made-up words, so two texts of `n` words differ (or agree) as chosen. */
function words(n: number, seed: number): string[] {
  let s = seed;
  return Array.from({ length: n }, () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return `слово${s % 997}`;
  });
}

async function articleWithRevisions(before: string, after: string) {
  const created = await apiSend(api, "POST", "/api/articles/", { title: "Довга стаття для порівняння", content: before, category_id: categoryId });
  expect(created.status).toBe(201);
  const saved = await apiSend(api, "PUT", `/api/articles/${created.json.id}`, {
    title: "Довга стаття для порівняння",
    content: after,
    category_id: categoryId,
    status: "draft",
  });
  expect(saved.status).toBe(200);
  const revisions = await apiSend(api, "GET", `/api/articles/${created.json.id}/revisions`);
  return { id: created.json.id as string, first: revisions.json.data.at(-1).id as number };
}

const historyPage = (id: string, rev: number) =>
  fetch(`${server.url}/admin/articles/edit/${id}/history?rev=${rev}`, { headers: form.auth, signal: AbortSignal.timeout(60_000) }).then(async (res) => ({
    status: res.status,
    text: await res.text(),
  }));

describe("CPU work runs off the request thread, within a time and a size budget", () => {
  it("a word diff of two unrelated 5,000-word revisions: 422 on the History page and the API, readers unaffected", async () => {
    const { id, first } = await articleWithRevisions(words(5_000, 1).join(" "), words(5_000, 2).join(" "));
    const page = await whileReadersWait(() => historyPage(id, first));
    expect(page.result.status).toBe(422);
    expect(page.result.text).toContain(MESSAGES.diffTooComplex);
    expect(page.result.text).toContain("Відновити цю версію"); // the version can still be restored
    await expectReadersServed(page);
    const json = await whileReadersWait(() => apiSend(api, "GET", `/api/articles/${id}/revisions/${first}?compare=current`));
    expect(json.result.status).toBe(422);
    expect(json.result.json.detail).toBe(MESSAGES.diffTooComplex);
    await expectReadersServed(json);
    expect(page.ms).toBeLessThan(BUDGET_MS + 3_000);
  });

  it("a word diff of 5,000-word revisions that differ in every 50th word is computed, off the request thread", async () => {
    const before = words(5_000, 3);
    const after = before.map((w, i) => (i % 50 === 0 ? "нове" : w));
    const { id, first } = await articleWithRevisions(before.join(" "), after.join(" "));
    const page = await whileReadersWait(() => historyPage(id, first));
    expect(page.result.status).toBe(200);
    expect(page.result.text.match(/<ins>нове<\/ins>/g)?.length).toBe(100);
    await expectReadersServed(page);
    const json = await whileReadersWait(() => apiSend(api, "GET", `/api/articles/${id}/revisions/${first}?compare=current`));
    expect(json.result.status).toBe(200);
    const content = json.result.json.diff.find((f: { key: string }) => f.key === "content");
    expect(content.parts.filter((p: { added?: boolean }) => p.added)).toHaveLength(100);
    await expectReadersServed(json);
  });

  it('"_a" repeated 40,000 times: the save and the preview answer 422 within the time budget', async () => {
    const content = "_a".repeat(40_000);
    const saved = await whileReadersWait(() => apiSend(api, "POST", "/api/articles/", { title: "Підкреслення", content, category_id: categoryId }));
    expect(saved.result.status).toBe(422);
    expect(saved.result.json.errors.content).toBe(MESSAGES.contentTooSlow);
    expect(saved.ms).toBeLessThan(BUDGET_MS + 3_000);
    await expectReadersServed(saved);
    const previewed = await whileReadersWait(() => preview(content));
    expect(previewed.result.status).toBe(422);
    expect(previewed.result.text).toContain(MESSAGES.contentTooSlow);
    await expectReadersServed(previewed);
  });

  it("a 2,000-level nested list in the no-JavaScript preview: 422, the process keeps its memory", async () => {
    // The probe's shape: each level indented two more spaces (4 MB of text, past the content limit).
    const deep = Array.from({ length: 2_000 }, (_, i) => `${"  ".repeat(i)}- рівень ${i}`).join("\n");
    const refused = await whileReadersWait(() => preview(deep));
    expect(refused.result.status).toBe(422);
    expect(refused.result.text).toContain(MESSAGES.content);
    await expectReadersServed(refused);
    // The same shape within the limit (700 levels, 490,000 characters) needs ~300 MB in marked:
    // past the worker's heap or time budget, never the process's.
    const within = Array.from({ length: 700 }, (_, i) => `${"  ".repeat(i)}- x`).join("\n");
    expect(within.length).toBeLessThan(500_000);
    const heavy = await whileReadersWait(() => preview(within));
    expect(heavy.result.status).toBe(422);
    expect(heavy.result.text).toMatch(/Вміст надто складний/);
    await expectReadersServed(heavy);
    // And 2,000 levels written compactly (`- - - … x`, 4,000 characters).
    const compact = await whileReadersWait(() => preview(`${"- ".repeat(2_000)}x`));
    expect([200, 422]).toContain(compact.result.status);
    if (compact.result.status === 422) expect(compact.result.text).toMatch(/Вміст надто складний/);
    await expectReadersServed(compact);
  });

  it("3,000 levels of `>`: 422 (too deep), not a 500, at the preview and the save", async () => {
    const content = `${">".repeat(3_000)} цитата`;
    const previewed = await whileReadersWait(() => preview(content));
    expect(previewed.result.status).toBe(422);
    expect(previewed.result.text).toContain(MESSAGES.contentTooDeep);
    await expectReadersServed(previewed);
    const saved = await whileReadersWait(() => apiSend(api, "POST", "/api/articles/", { title: "Цитати", content, category_id: categoryId }));
    expect(saved.result.status).toBe(422);
    expect(saved.result.json.errors.content).toBe(MESSAGES.contentTooDeep);
    await expectReadersServed(saved);
  });

  it("600,000 characters: the preview renders nothing and answers the save's message (422), like the save and the JSON API", async () => {
    const content = "Текст статті про науку. ".repeat(25_000);
    expect(content.length).toBe(600_000);
    const previewed = await whileReadersWait(() => preview(content));
    expect(previewed.result.status).toBe(422);
    expect(previewed.result.text).toContain(MESSAGES.content);
    expect(previewed.result.text).not.toContain('data-testid="preview"');
    await expectReadersServed(previewed);
    const saved = await apiSend(api, "POST", "/api/articles/", { title: "Завелика", content, category_id: categoryId });
    expect(saved.status).toBe(422);
    expect(saved.json.errors.content).toBe(MESSAGES.content);
    const savedForm = await formSend(form, "/admin/articles/new", { ...editorFields(content), intent: "draft" });
    expect(savedForm.status).toBe(422);
    expect(savedForm.text).toContain(MESSAGES.content);
  });

  it("a url-encoded form keeps its meaning: `+` is a space, `%2B` a plus (the server turns `+` into spaces before parsing)", async () => {
    const content = "a+b c  d%e & f=g\nрядок";
    const tooLong = `${content} ${"x".repeat(500_000)}`;
    const answered = await previewUrlEncoded(tooLong);
    expect(answered.status).toBe(422);
    expect(textareaText(answered.text)).toBe(tooLong);
  });

  it("a legitimate long article (the demo articles, 200,000 characters) still saves and previews", async () => {
    let content = "";
    while (content.length < 200_000) content += `${seedArticles.map((a) => a.content).join("\n\n")}\n\n`;
    content = content.slice(0, 200_000);
    const saved = await whileReadersWait(() => apiSend(api, "POST", "/api/articles/", { title: "Велика стаття", content, category_id: categoryId }));
    expect(saved.result.status).toBe(201);
    await expectReadersServed(saved);
    const previewed = await whileReadersWait(() => preview(content));
    expect(previewed.result.status).toBe(200);
    expect(previewed.result.text).toContain('data-testid="preview"');
    await expectReadersServed(previewed);
    expect(server.output()).not.toMatch(/FATAL|heap out of memory/i);
  });
});
