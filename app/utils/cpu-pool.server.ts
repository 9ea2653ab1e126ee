import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import type { CpuJob, CpuReply, CpuResults } from "../workers/cpu-protocol";
import { getCpuBudgets } from "./env.server";
import { LIMITS } from "./newsroom-rules";
import { builtWorkerFile } from "./worker-file.server";

// Issue 25, docs/decisions/018: every piece of CPU work a request can make unbounded (markdown
// rendering, sanitising, revision diffs) runs here, in worker threads, never on the thread that
// answers readers. Each job has an input budget (checked before it is sent), a time budget (the
// worker is terminated and replaced when it runs over) and a heap limit (an out-of-memory ends the
// worker, not the process). A worker runs one job at a time, so a job that is killed takes no
// other job with it; the rest wait in a queue here.

/** Why a job was refused: each becomes a Ukrainian 422 (413 for `size`) where it is called. */
export type BudgetReason = "size" | "time" | "memory" | "depth" | "edits";

/** A job past one of its budgets. */
export class CpuBudgetError extends Error {
  override name = "CpuBudgetError";
  constructor(
    readonly reason: BudgetReason,
    message = `CPU job refused: ${reason} budget`,
  ) {
    super(message);
  }
}

/**
 * Input budgets in characters, per kind. Markdown: the content limit (DESIGN §7), which every door
 * checks first with its own field message. HTML is a few times longer than its markdown. A diff
 * compares two versions of at most the content limit each, plus the short fields.
 */
export const INPUT_BUDGET: Record<CpuJob["kind"], number> = {
  render: LIMITS.content,
  sanitize: 4 * LIMITS.content,
  diff: 2 * LIMITS.content + 20_000,
  // Issue 27: the import's own limit is checked first (app/import/limits.ts); a batch is bounded by its bodies.
  "import-parse": Number.MAX_SAFE_INTEGER,
  "import-convert": Number.MAX_SAFE_INTEGER,
  search: LIMITS.content + 20_000,
};

const inputSize = (job: CpuJob): number => {
  if (job.kind === "render") return job.markdown.length;
  if (job.kind === "sanitize") return job.html.length;
  if (job.kind === "import-parse") return job.text.length;
  if (job.kind === "import-convert") return job.items.reduce((n, i) => n + (i.html?.length ?? 0) + (i.markdown?.length ?? 0), 0);
  if (job.kind === "search") return job.fields.title.length + (job.fields.subtitle ?? "").length + job.fields.content.length + job.fields.tags.join(" ").length;
  const text = (fields: object) => Object.values(fields).reduce<number>((n, v) => n + (Array.isArray(v) ? v.join(", ").length : String(v ?? "").length), 0);
  return text(job.pair.revision) + text(job.pair.current);
};

export interface CpuPoolOptions {
  /** Workers at most (started when a job would otherwise wait). */
  size: number;
  /** Time budget of one job, from the moment a ready worker takes it. */
  timeMs: number;
  /** Each worker's old-generation heap (resourceLimits.maxOldGenerationSizeMb). */
  heapMb: number;
  // isomorphic-dompurify keeps one jsdom window whose state grows with every call (DESIGN §2,
  // isomorphic-dompurify issue #368): a worker is replaced after this many jobs, its heap with it.
  recycleAfter?: number;
  // A new worker needs seconds to load jsdom (8 s measured on a busy 2-core machine): its
  // replacement is started this many jobs ahead, and the old worker goes on taking jobs past its
  // limit until the replacement is ready (a few more leaked calls, ~0.2 MB each), so no job waits
  // for a load: in a bulk render of 2,000 documents, waiting at each recycle cost 5 s of 20.
  warmAhead?: number;
  // The worker's jsdom costs ~83 MB resident (204 MB warm vs 122 MB without, idle server on the
  // demo data). Only staff work needs it, so the workers are retired after this long without a
  // job: a box that only serves readers stays small (issue 7, DESIGN §9 memory budget).
  idleRetireMs?: number;
  /** A worker that has not loaded in this long is given up (its waiting jobs fail). */
  startMs?: number;
  /** build/cpu-worker.js of the package, unless given. */
  file?: string;
}

interface Task {
  job: CpuJob;
  resolve: (result: never) => void;
  reject: (error: Error) => void;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  /** The job it runs, with its time budget's timer. */
  running?: Task & { id: number; timer: ReturnType<typeof setTimeout> };
  calls: number;
  /** Terminated by the pool, or ended by itself: its events no longer count. */
  gone: boolean;
  startTimer?: ReturnType<typeof setTimeout>;
}

/** Where the built worker is: build/cpu-worker.js under the package root (the first folder up with a package.json). */
export function cpuWorkerFile(from = fileURLToPath(import.meta.url)): string {
  return builtWorkerFile("cpu-worker", from);
}

/** Worker threads for CPU work with a time, heap and input budget per job (docs/decisions/018). */
export class CpuPool {
  private slots: Slot[] = [];
  /** The replacement of a worker about to be recycled, loading meanwhile. */
  private spare: Slot | undefined;
  private queue: Task[] = [];
  private nextId = 1;
  private idleTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly options: Required<CpuPoolOptions>;
  /** What happened so far (tests, diagnostics). */
  readonly counts = { started: 0, recycled: 0, timedOut: 0, outOfMemory: 0, crashed: 0 };

  constructor(options: CpuPoolOptions) {
    this.options = {
      recycleAfter: 200,
      warmAhead: 10,
      idleRetireMs: 15 * 60_000,
      startMs: 60_000,
      file: "",
      ...options,
    };
  }

  /** Runs one job; rejects with CpuBudgetError past a budget. */
  run<K extends CpuJob["kind"]>(job: Extract<CpuJob, { kind: K }>): Promise<CpuResults[K]> {
    if (inputSize(job) > INPUT_BUDGET[job.kind]) return Promise.reject(new CpuBudgetError("size"));
    this.retireWhenIdle();
    return new Promise<CpuResults[K]>((resolve, reject) => {
      this.queue.push({ job, resolve: resolve as (result: never) => void, reject });
      this.pump();
    });
  }

  /** Starts a worker now (staff signed in: their first save should not wait for jsdom). */
  warm(): void {
    this.retireWhenIdle();
    if (this.slots.length) return;
    try {
      this.slots.push(this.takeSpare() ?? this.spawn());
    } catch {
      // A missing build: the first job reports it; signing in is not the place to fail.
    }
  }

  /** Workers, and what they do now. */
  stats() {
    return {
      workers: this.slots.length,
      ready: this.slots.filter((s) => s.ready).length,
      busy: this.slots.filter((s) => s.running).length,
      queued: this.queue.length,
      spare: Boolean(this.spare),
      threadIds: this.slots.map((s) => s.worker.threadId),
      ...this.counts,
    };
  }

  /** Lets the jobs given so far finish, then ends every worker (shutdown, idle, tests). */
  async stop(): Promise<void> {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    while (this.queue.length || this.slots.some((s) => s.running)) await new Promise((r) => setTimeout(r, 20));
    const all = [...this.slots, ...(this.spare ? [this.spare] : [])];
    this.slots = [];
    this.spare = undefined;
    await Promise.all(all.map((slot) => this.end(slot)));
  }

  private retireWhenIdle() {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => void this.stop(), this.options.idleRetireMs);
    this.idleTimer.unref();
  }

  private spawn(): Slot {
    const file = this.options.file || cpuWorkerFile();
    if (!existsSync(file)) throw new Error(`${file} is missing: run \`npm run build\` (scripts/build-worker.mjs makes it)`);
    // A 4 MB young generation (V8's default is sized for a main thread): the worker does one job
    // at a time. Measured on a 37 KB article sanitised 65 times: the process's resident set 228–231
    // MB instead of 260–311 MB, each call 55 ms instead of 51 (a save, not a read).
    const worker = new Worker(file, { resourceLimits: { maxOldGenerationSizeMb: this.options.heapMb, maxYoungGenerationSizeMb: 4, stackSizeMb: 1 } });
    const slot: Slot = { worker, ready: false, calls: 0, gone: false };
    this.counts.started++;
    // A loading worker keeps the process alive (a script waiting for its render); an idle one does not.
    slot.startTimer = setTimeout(() => this.fail(slot, new Error(`CPU worker did not start within ${this.options.startMs} ms`)), this.options.startMs);
    worker.on("message", (reply: CpuReply) => this.onReply(slot, reply));
    worker.on("error", (error) => this.fail(slot, error));
    worker.on("exit", (code) => this.fail(slot, new Error(`CPU worker exited (code ${code})`)));
    return slot;
  }

  private takeSpare(): Slot | undefined {
    const spare = this.spare;
    this.spare = undefined;
    return spare;
  }

  /** Gives queued jobs to ready idle workers, starting workers (up to `size`) for jobs that would wait. */
  private pump() {
    while (this.queue.length) {
      const idle = this.slots.find((s) => s.ready && !s.running);
      if (idle) {
        this.dispatch(idle, this.queue.shift()!);
        continue;
      }
      const loading = this.slots.filter((s) => !s.ready).length;
      if (this.slots.length >= this.options.size || loading >= this.queue.length) return;
      try {
        this.slots.push(this.takeSpare() ?? this.spawn());
      } catch (error) {
        for (const task of this.queue.splice(0)) task.reject(error as Error);
      }
    }
  }

  private dispatch(slot: Slot, task: Task) {
    const id = this.nextId++;
    const timer = setTimeout(() => this.timedOut(slot), this.options.timeMs);
    slot.running = { ...task, id, timer };
    slot.calls++;
    slot.worker.ref();
    slot.worker.postMessage({ id, job: task.job, budgetMs: this.options.timeMs });
    const { recycleAfter, warmAhead } = this.options;
    if (!this.spare && slot.calls >= recycleAfter - warmAhead) this.spare = this.spawn();
  }

  private onReply(slot: Slot, reply: CpuReply) {
    if (slot.gone) return;
    if (reply.type === "ready") {
      clearTimeout(slot.startTimer);
      slot.ready = true;
      slot.worker.unref();
      const due = this.slots.find((s) => s.calls >= this.options.recycleAfter && !s.running);
      if (slot === this.spare && due) this.recycle(due);
      this.pump();
      return;
    }
    const task = slot.running;
    if (!task || task.id !== reply.id) return;
    clearTimeout(task.timer);
    slot.running = undefined;
    slot.worker.unref();
    if (reply.type === "done") task.resolve(reply.result as never);
    else if (reply.type === "refused") task.reject(new CpuBudgetError(reply.reason));
    else task.reject(new Error(`CPU job failed: ${reply.message}`));
    if (reply.type === "failed" || (reply.type === "refused" && reply.reason === "depth")) {
      // A stack overflow or an exception may have left jsdom half-way through a document: a fresh worker.
      this.replace(slot);
    } else if (slot.calls >= this.options.recycleAfter) {
      this.spare ??= this.spawn();
      // Past twice the limit the replacement is taken even while it loads (it never became ready).
      if (this.spare.ready || slot.calls >= 2 * this.options.recycleAfter) this.recycle(slot);
    }
    this.pump();
  }

  private timedOut(slot: Slot) {
    if (slot.gone || !slot.running) return;
    const task = slot.running;
    slot.running = undefined;
    this.counts.timedOut++;
    this.replace(slot);
    task.reject(new CpuBudgetError("time"));
    this.pump();
  }

  /** A worker's error or exit that the pool did not ask for: an out-of-memory, a crash, a failed start. */
  private fail(slot: Slot, error: Error & { code?: string }) {
    if (slot.gone) return;
    const task = slot.running;
    const started = slot.ready;
    if (task) clearTimeout(task.timer);
    slot.running = undefined;
    if (error.code === "ERR_WORKER_OUT_OF_MEMORY") this.counts.outOfMemory++;
    else this.counts.crashed++;
    if (started) this.replace(slot);
    else this.forget(slot);
    if (task) task.reject(error.code === "ERR_WORKER_OUT_OF_MEMORY" ? new CpuBudgetError("memory") : error);
    if (!started && !this.slots.some((s) => !s.gone)) {
      // No worker could load (a missing or broken build): the waiting jobs fail rather than wait
      // for ever; the next job tries again.
      console.error(`cpu-pool: ${error.message}`);
      for (const waiting of this.queue.splice(0)) waiting.reject(error);
    }
    this.pump();
  }

  private recycle(slot: Slot) {
    this.counts.recycled++;
    this.replace(slot);
  }

  /** Ends a worker and puts a fresh one (the warmed spare when there is one) in its place. */
  private replace(slot: Slot) {
    this.forget(slot);
    if (this.slots.length < this.options.size) {
      try {
        this.slots.push(this.takeSpare() ?? this.spawn());
      } catch {
        // The next job reports the missing build.
      }
    }
  }

  private forget(slot: Slot) {
    this.slots = this.slots.filter((s) => s !== slot);
    if (this.spare === slot) this.spare = undefined;
    void this.end(slot);
  }

  private async end(slot: Slot) {
    slot.gone = true;
    clearTimeout(slot.startTimer);
    if (slot.running) clearTimeout(slot.running.timer);
    await slot.worker.terminate();
  }
}

let shared: CpuPool | undefined;

/** The process's pool, with the budgets of the environment (CPU_WORKERS, CPU_JOB_MS, CPU_WORKER_HEAP_MB). */
function pool(): CpuPool {
  if (!shared) {
    const budgets = getCpuBudgets();
    shared = new CpuPool({ size: budgets.CPU_WORKERS, timeMs: budgets.CPU_JOB_MS, heapMb: budgets.CPU_WORKER_HEAP_MB });
  }
  return shared;
}

/** Runs a job in the process's pool; rejects with CpuBudgetError past a budget. */
export function runCpuJob<K extends CpuJob["kind"]>(job: Extract<CpuJob, { kind: K }>): Promise<CpuResults[K]> {
  return pool().run(job);
}

/** Starts the pool's worker ahead of staff work (auth.server.ts). */
export function warmCpuPool(): void {
  pool().warm();
}

/** The process's pool as it is now (tests, diagnostics); undefined before anything asked for it. */
export function cpuPoolStats() {
  return shared?.stats();
}

/** Ends the pool's workers after their jobs (shutdown through the build's runtime export, tests). */
export async function stopCpuPool(): Promise<void> {
  await shared?.stop();
}
