import { existsSync } from "node:fs";
import { Worker } from "node:worker_threads";
import { builtWorkerFile } from "../utils/worker-file.server";
import type { KeeperData, KeepJob, KeepReply } from "../workers/page-keeper-protocol";

// Issue 30 item 0 (docs/decisions/032, amendment 2): the pages rendered for readers are compressed
// and written into pages.db on a worker thread (app/workers/page-keeper.ts), not on the request
// thread. On that thread a keep cost ~0.65 ms of each ~6.5 ms miss (the zlib streams' callbacks, the
// write transaction, the generation reads), so a saturating rotation over pages the store did not
// hold served 87% of what it served with the store off. The worker starts with the first page to
// keep and ends after KEEPER_IDLE_MS without one (it holds a V8 heap and a connection).

const KEEPER_IDLE_MS = 30_000;

interface Waiting {
  resolve: (kept: boolean) => void;
  reject: (error: Error) => void;
}

export interface PageKeeperOptions {
  /** DATA_DIR/pages.db, opened by the store before (its layout made). */
  file: string;
  /** The store's budget in bytes (eviction in the worker keeps the file under it). */
  maxBytes: number;
  idleMs?: number;
  /** build/page-keeper.js of the package, unless given. */
  workerFile?: string;
}

/** Sends pages to the keeper's worker thread, starting it when needed; one page a message, answered in order. */
export class PageKeeper {
  private worker: Worker | undefined;
  private readonly waiting = new Map<number, Waiting>();
  private nextId = 1;
  private idleTimer: ReturnType<typeof setTimeout> | undefined;
  /** Workers started, and lost without being asked to end (tests, diagnostics). */
  readonly counts = { started: 0, lost: 0 };

  constructor(private readonly options: PageKeeperOptions) {}

  /**
   * Compresses and stores a page unless an invalidation came since `generation`; answers whether it
   * was stored. Rejects when the worker could not keep it (a missing build, a full disk, a crash).
   */
  keep(page: Omit<KeepJob, "id" | "body"> & { body: Buffer }): Promise<boolean> {
    const id = this.nextId++;
    return new Promise<boolean>((resolve, reject) => {
      let worker: Worker;
      try {
        worker = this.worker ?? this.start();
      } catch (error) {
        return reject(error as Error);
      }
      this.waiting.set(id, { resolve, reject });
      if (this.waiting.size === 1) worker.ref();
      // A copy of the body, handed over (not cloned again): the reader's response may still be
      // writing the original.
      const body = new Uint8Array(page.body);
      worker.postMessage({ ...page, id, body } satisfies KeepJob, [body.buffer]);
    });
  }

  /** Waits for the pages sent so far, then ends the worker (shutdown, tests). */
  async stop(): Promise<void> {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    // A lost worker clears what waited on it.
    while (this.waiting.size && this.worker) await new Promise((resolve) => setTimeout(resolve, 10));
    await this.end();
  }

  /** Whether the worker thread is running (tests: it ends when idle). */
  get running(): boolean {
    return this.worker !== undefined;
  }

  private start(): Worker {
    const file = this.options.workerFile ?? builtWorkerFile("page-keeper");
    if (!existsSync(file)) throw new Error(`${file} is missing: run \`npm run build\` (scripts/build-worker.mjs makes it)`);
    // A small young generation: the worker holds no more than the page it compresses (its bodies are
    // outside the heap).
    const worker = new Worker(file, {
      workerData: { file: this.options.file, maxBytes: this.options.maxBytes } satisfies KeeperData,
      resourceLimits: { maxOldGenerationSizeMb: 32, maxYoungGenerationSizeMb: 2, stackSizeMb: 1 },
    });
    this.counts.started++;
    this.worker = worker;
    worker.unref();
    worker.on("message", (reply: KeepReply) => {
      const waiting = this.waiting.get(reply.id);
      this.waiting.delete(reply.id);
      if (!this.waiting.size) {
        worker.unref();
        this.endWhenIdle();
      }
      if ("failed" in reply) waiting?.reject(new Error(reply.failed));
      else waiting?.resolve(reply.kept);
    });
    worker.on("error", (error) => this.lose(worker, error));
    worker.on("exit", (code) => this.lose(worker, new Error(`page keeper exited (code ${code})`)));
    return worker;
  }

  /** The worker ended without being asked (a crash, an out-of-memory): what it held is not kept. */
  private lose(worker: Worker, error: Error): void {
    if (this.worker !== worker) return;
    this.worker = undefined;
    this.counts.lost++;
    const waiting = [...this.waiting.values()];
    this.waiting.clear();
    for (const { reject } of waiting) reject(error);
  }

  private endWhenIdle(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      this.idleTimer = undefined;
      if (!this.waiting.size) void this.end();
    }, this.options.idleMs ?? KEEPER_IDLE_MS);
    this.idleTimer.unref();
  }

  private async end(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    await worker?.terminate();
  }
}
