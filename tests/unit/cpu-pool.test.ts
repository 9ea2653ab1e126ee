import { afterEach, describe, expect, it, vi } from "vitest";
import { CpuBudgetError, CpuPool, cpuWorkerFile, INPUT_BUDGET } from "../../app/utils/cpu-pool.server";
import { LIMITS } from "../../app/utils/newsroom-rules";
import { seedArticles } from "../../db/seed-content";

// Issue 25 (docs/decisions/018): the CPU pool's budgets, with the real worker (build/cpu-worker.js,
// rebuilt from source before the tests by tests/vitest-global-setup.ts) and real pathological input.

const pools: CpuPool[] = [];
const make = (options: Partial<ConstructorParameters<typeof CpuPool>[0]> = {}) => {
  const pool = new CpuPool({ size: 1, timeMs: 1_000, heapMb: 128, ...options });
  pools.push(pool);
  return pool;
};
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.stop()));
});

const reasonOf = (promise: Promise<unknown>) =>
  promise.then(
    () => "answered",
    (error) => (error instanceof CpuBudgetError ? error.reason : `other: ${error}`),
  );

// 700 levels, each indented two more spaces: ~490,000 characters that marked needs ~300 MB for.
const deepIndentedList = Array.from({ length: 700 }, (_, i) => `${"  ".repeat(i)}- x`).join("\n");

describe("the CPU pool", () => {
  it("finds its worker under the package root from source and from the Remix bundle alike", () => {
    expect(cpuWorkerFile()).toBe(`${process.cwd()}/build/cpu-worker.js`);
    expect(cpuWorkerFile(`${process.cwd()}/build/remix/index.js`)).toBe(`${process.cwd()}/build/cpu-worker.js`);
  });

  it("renders with the public pipeline (marked renderer, media variants, sanitiser) in the worker", async () => {
    const pool = make();
    const html = await pool.run({ kind: "render", markdown: "## Заголовок\n\n![фото](/media/abc_123.jpg) <script>alert(1)</script>" });
    expect(html).toContain("<h2>Заголовок</h2>");
    expect(html).toContain('srcset="/media/abc_123-w400.webp 400w');
    expect(html).toContain("&lt;script&gt;");
  });

  it("terminates a job past its time budget, answers `time`, and serves the next job from a fresh worker", async () => {
    const pool = make({ timeMs: 500 });
    await pool.run({ kind: "render", markdown: "разминка" });
    const [first] = pool.stats().threadIds;
    const started = performance.now();
    expect(await reasonOf(pool.run({ kind: "render", markdown: "_a".repeat(40_000) }))).toBe("time");
    expect(performance.now() - started).toBeLessThan(1_500);
    expect(pool.stats()).toMatchObject({ timedOut: 1, workers: 1 });
    // Replaced at once (loading meanwhile), not at the next job.
    expect(pool.stats().threadIds[0]).not.toBe(first);
    expect(await pool.run({ kind: "render", markdown: "**далі**" })).toBe("<p><strong>далі</strong></p>");
  });

  it("a job queued behind one that is killed is not lost: it runs on the replacement", async () => {
    const pool = make({ timeMs: 500 });
    const slow = reasonOf(pool.run({ kind: "render", markdown: "_a".repeat(40_000) }));
    const next = pool.run({ kind: "render", markdown: "черга" });
    expect(await slow).toBe("time");
    expect(await next).toBe("<p>черга</p>");
  });

  it("an out-of-memory ends only the worker: `memory`, and this process carries on", async () => {
    const pool = make({ heapMb: 128, timeMs: 10_000 });
    await pool.run({ kind: "render", markdown: "разминка" });
    const heapBefore = process.memoryUsage().heapUsed;
    expect(await reasonOf(pool.run({ kind: "render", markdown: deepIndentedList }))).toBe("memory");
    expect(pool.stats()).toMatchObject({ outOfMemory: 1, workers: 1 });
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(50 * 1024 * 1024);
    expect(await pool.run({ kind: "render", markdown: "жива" })).toBe("<p>жива</p>");
  });

  it("answers `depth` for nesting that overflows the stack (3,000 levels of `>`), without a 500's exception", async () => {
    const pool = make();
    expect(await reasonOf(pool.run({ kind: "render", markdown: `${">".repeat(3_000)} x` }))).toBe("depth");
    expect(await pool.run({ kind: "render", markdown: "> одна цитата" })).toBe("<blockquote>\n<p>одна цитата</p>\n</blockquote>");
  });

  it("renders a legitimate article at the content limit within the default budgets (10 s, 256 MB)", async () => {
    const pool = make({ timeMs: 10_000, heapMb: 256 });
    let markdown = "";
    while (markdown.length < LIMITS.content) markdown += `${seedArticles.map((a) => a.content).join("\n\n")}\n\n`;
    markdown = markdown.slice(0, LIMITS.content);
    const html = await pool.run({ kind: "render", markdown });
    expect(html.length).toBeGreaterThan(LIMITS.content);
    expect(pool.stats()).toMatchObject({ timedOut: 0, outOfMemory: 0 });
  });

  it("refuses input past its budget before any worker sees it (`size`)", async () => {
    const pool = make();
    expect(INPUT_BUDGET.render).toBe(LIMITS.content);
    expect(await reasonOf(pool.run({ kind: "render", markdown: "а".repeat(LIMITS.content + 1) }))).toBe("size");
    expect(pool.stats().started).toBe(0);
  });

  it("a diff too costly for its budget gives up by itself (`edits`) without killing the worker", async () => {
    const pool = make({ timeMs: 1_000 });
    const words = (seed: number) => {
      let s = seed;
      return Array.from({ length: 5_000 }, () => `слово${(s = (s * 1103515245 + 12345) % 2147483648) % 997}`).join(" ");
    };
    const fields = {
      subtitle: null,
      tags: [],
      category_id: null,
      seo_title: null,
      seo_description: null,
      featured_image: null,
      featured_image_alt: null,
      featured_image_caption: null,
    };
    const pair = (a: string, b: string) => ({
      revision: { ...fields, title: "Т", content: a },
      current: { ...fields, title: "Т", content: b },
      categories: {},
    });
    await pool.run({ kind: "render", markdown: "разминка" });
    const [thread] = pool.stats().threadIds;
    expect(await reasonOf(pool.run({ kind: "diff", pair: pair(words(1), words(2)) }))).toBe("edits");
    expect(pool.stats()).toMatchObject({ timedOut: 0, threadIds: [thread] });
    const diff = await pool.run({ kind: "diff", pair: pair("Марс має два супутники.", "Марс має три супутники.") });
    expect(diff).toEqual([
      {
        key: "content",
        label: "Вміст",
        parts: [{ value: "Марс має " }, { value: "два", removed: true }, { value: "три", added: true }, { value: " супутники." }],
      },
    ]);
  });

  it("still recycles a worker after N jobs (jsdom leak), its replacement started a few jobs ahead", async () => {
    const pool = make({ recycleAfter: 5, warmAhead: 2 });
    const render = async (i: number) => expect(await pool.run({ kind: "render", markdown: `Абзац **${i}**` })).toBe(`<p>Абзац <strong>${i}</strong></p>`);
    await render(0);
    await render(1);
    expect(pool.stats().spare).toBe(false);
    await render(2); // the third of five: the replacement starts loading
    expect(pool.stats().spare).toBe(true);
    const [first] = pool.stats().threadIds;
    await render(3);
    await render(4);
    await vi.waitFor(() => expect(pool.stats().recycled).toBe(1), { timeout: 20_000, interval: 20 });
    expect(pool.stats()).toMatchObject({ workers: 1, spare: false });
    expect(pool.stats().threadIds[0]).not.toBe(first);
    // Past the limit with the replacement still loading, the old worker goes on serving.
    const busy = make({ recycleAfter: 2, warmAhead: 0 });
    for (let i = 0; i < 4; i++) expect(await busy.run({ kind: "render", markdown: `${i}` })).toBe(`<p>${i}</p>`);
    expect(busy.stats().started).toBeLessThanOrEqual(2);
  });

  it("with two workers, a killed job does not hold up the other worker's jobs", async () => {
    const pool = make({ size: 2, timeMs: 1_500 });
    const slow = reasonOf(pool.run({ kind: "render", markdown: "_a".repeat(40_000) }));
    const quick = Array.from({ length: 5 }, (_, i) => pool.run({ kind: "render", markdown: `швидко ${i}` }));
    expect(await Promise.all(quick)).toEqual(Array.from({ length: 5 }, (_, i) => `<p>швидко ${i}</p>`));
    expect(await slow).toBe("time");
  });

  it("stop lets running jobs finish, then ends every worker; the pool starts again on demand", async () => {
    const pool = make();
    const running = pool.run({ kind: "render", markdown: "до зупинки" });
    await pool.stop();
    expect(await running).toBe("<p>до зупинки</p>");
    expect(pool.stats().workers).toBe(0);
    expect(await pool.run({ kind: "render", markdown: "знову" })).toBe("<p>знову</p>");
  });
});
