import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import { markdownToHtml, SANITIZE_CONFIG } from "./markdown";

// isomorphic-dompurify keeps one jsdom window whose state grows with every call (DESIGN §2,
// isomorphic-dompurify issue #368). So the server sanitises only when content is saved, and in a
// worker thread that is replaced after RECYCLE_AFTER calls: its whole heap goes with it.
const RECYCLE_AFTER = 200;

const require = createRequire(import.meta.url);
const dompurifyPath = require.resolve("isomorphic-dompurify");

// The worker is plain CommonJS given as a string, so it works from the source tree (Vitest),
// from the Remix bundle and from the compiled server alike.
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const DOMPurify = require(workerData.dompurifyPath);
parentPort.on("message", ({ id, html, config }) => {
  try {
    parentPort.postMessage({ id, html: DOMPurify.sanitize(html, config) });
  } catch (error) {
    parentPort.postMessage({ id, error: String(error && error.message || error) });
  }
});
`;

interface Pending {
  resolve: (html: string) => void;
  reject: (error: Error) => void;
}

class SanitizerWorker {
  private worker: Worker;
  private pending = new Map<number, Pending>();
  calls = 0;

  constructor() {
    // A 4 MB young generation (V8's default is sized for a main thread): the worker sanitises one
    // article at a time. Measured on a 37 KB article sanitised 65 times: the process's resident set
    // 228–231 MB instead of 260–311 MB, each call 55 ms instead of 51 (a save, not a read); idle,
    // the worker holds ~41 MB instead of ~51.
    this.worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { dompurifyPath }, resourceLimits: { maxYoungGenerationSizeMb: 4 } });
    this.worker.unref();
    this.worker.on("message", ({ id, html, error }) => {
      const job = this.pending.get(id);
      if (!job) return;
      this.pending.delete(id);
      if (error) job.reject(new Error(error));
      else job.resolve(html);
    });
    this.worker.on("error", (error) => this.failAll(error));
    this.worker.on("exit", () => this.failAll(new Error("sanitiser worker exited")));
  }

  sanitize(id: number, html: string): Promise<string> {
    this.calls++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, html, config: SANITIZE_CONFIG });
    });
  }

  get idle() {
    return this.pending.size === 0;
  }

  async terminate() {
    await this.worker.terminate();
  }

  private failAll(error: Error) {
    for (const job of this.pending.values()) job.reject(error);
    this.pending.clear();
  }
}

// The worker of this process; server.ts stops it at shutdown through the build's runtime export.
interface SanitizerState {
  current: SanitizerWorker | undefined;
  /** The replacement, started and warmed a few calls before `current` is recycled. */
  next: SanitizerWorker | undefined;
  nextId: number;
  idleTimer?: ReturnType<typeof setTimeout>;
}
const state: SanitizerState = { current: undefined, next: undefined, nextId: 1 };

// The worker's jsdom costs ~83 MB resident (measured: 204 MB warm vs 122 MB without, idle server
// on the demo data). Only staff saves need it, so it is started when staff sign in or work
// (warmSanitizer from auth.server.ts) and retired after this long without a save: a box that
// only serves readers stays small (issue 7, DESIGN §9 memory budget).
const IDLE_RETIRE_MS = 15 * 60_000;

function retireWhenIdle() {
  if (state.idleTimer) clearTimeout(state.idleTimer);
  state.idleTimer = setTimeout(() => void stopSanitizer(), IDLE_RETIRE_MS);
  state.idleTimer.unref();
}

const WARM_AHEAD = 10;

/** Sanitises HTML with the shared policy, off the main thread's heap. */
export async function sanitizeHtml(html: string): Promise<string> {
  if (!html) return "";
  retireWhenIdle();
  if (!state.current || state.current.calls >= RECYCLE_AFTER) {
    const retired = state.current;
    state.current = state.next ?? new SanitizerWorker();
    state.next = undefined;
    // Let the retired worker finish what it was given, then end it.
    if (retired) void drain(retired);
  }
  // A new worker needs seconds to load jsdom (8 s measured on a busy 2-core machine): start and
  // warm the replacement a few calls ahead, so the save that crosses the limit does not wait.
  if (!state.next && state.current.calls >= RECYCLE_AFTER - WARM_AHEAD) state.next = warmed(new SanitizerWorker());
  return state.current.sanitize(state.nextId++, html);
}

// Issue 7 (faults, mixed load): the first save after a start waited for the cold worker, long
// enough to time out under load. Staff signing in or working warm it (auth.server.ts).
function warmed(worker: SanitizerWorker): SanitizerWorker {
  worker.sanitize(state.nextId++, "<p>warm</p>").catch(() => undefined);
  return worker;
}

/** Starts the worker and loads its sanitiser now rather than at the first save. */
export function warmSanitizer(): void {
  if (state.current) return;
  state.current = warmed(new SanitizerWorker());
  retireWhenIdle();
}

async function drain(worker: SanitizerWorker) {
  while (!worker.idle) await new Promise((r) => setTimeout(r, 20));
  await worker.terminate();
}

/** Markdown to the sanitised HTML stored beside it (DESIGN §4, §9). */
export async function renderArticleHtml(content: string | string[] | null | undefined): Promise<string> {
  return sanitizeHtml(markdownToHtml(content));
}

/** Ends the worker (shutdown, tests). */
export async function stopSanitizer(): Promise<void> {
  if (state.idleTimer) clearTimeout(state.idleTimer);
  state.idleTimer = undefined;
  const worker = state.current;
  const spare = state.next;
  state.current = undefined;
  state.next = undefined;
  if (spare) await drain(spare);
  if (worker) await drain(worker);
}
