import cluster, { type Worker } from "node:cluster";

// The primary of WORKERS=N (docs/decisions/020): N worker processes, each running server/start.ts
// as a single process would and serving the same port (node:cluster hands connections round
// robin). Workers start one at a time under the data folder's start lock, so the first migrates and
// seeds before any serves and the others find nothing to do. The primary loads no app and holds no
// database. It starts a worker again when one ends unexpectedly, waiting longer after each quick
// failure, and on SIGTERM/SIGINT asks every worker to stop (each finishes its requests in flight,
// writes its view counts, closes the database) and exits 0 once all have.

// A worker that served this long before it ended resets the backoff.
const STABLE_MS = 30_000;
const RESTART_FIRST_MS = 500;
const RESTART_MAX_MS = 30_000;
// Each worker forces its open connections closed after 10 s (start.ts); past this, it is killed.
const STOP_TIMEOUT_MS = 20_000;

/** Forks `workers` workers and supervises them until SIGTERM/SIGINT. */
export function superviseWorkers({ workers }: { workers: number }): void {
  const forkedAt = new Map<Worker, number>();
  const restarts = new Set<ReturnType<typeof setTimeout>>();
  let listening = 0;
  let up = false;
  let stopping = false;
  let clean = true;
  let quickFailures = 0;

  const fork = () => {
    const worker = cluster.fork();
    forkedAt.set(worker, Date.now());
    // Each worker says it serves once it listens, with the line a single process prints.
    worker.on("message", (message: { ready?: string }) => {
      if (!message?.ready) return;
      if (up) console.log(`Worker ${worker.process.pid} serving`);
      else if (++listening === workers) {
        up = true;
        console.log(message.ready);
      }
    });
  };

  const finish = () => {
    if (forkedAt.size === 0) process.exit(clean ? 0 : 1);
  };

  const stop = (reason: string) => {
    if (stopping) return;
    stopping = true;
    for (const timer of restarts) clearTimeout(timer);
    restarts.clear();
    console.log(`${reason}: stopping ${forkedAt.size} worker(s); each finishes its requests in flight, writes its view counts and closes the database`);
    for (const worker of forkedAt.keys()) worker.process.kill("SIGTERM");
    setTimeout(() => {
      for (const worker of forkedAt.keys()) {
        console.error(`Worker ${worker.process.pid} did not stop within ${STOP_TIMEOUT_MS / 1000} s: killed`);
        worker.process.kill("SIGKILL");
      }
      clean = false;
    }, STOP_TIMEOUT_MS).unref();
    finish();
  };

  cluster.on("exit", (worker, code, signal) => {
    const since = forkedAt.get(worker) ?? Date.now();
    forkedAt.delete(worker);
    const how = signal ? `signal ${signal}` : `exit code ${code}`;
    if (stopping) {
      if (code !== 0) clean = false;
      return finish();
    }
    if (!up) {
      // A worker that cannot start (its own message is above) will not start the next time either.
      console.error(`Worker ${worker.process.pid} could not start (${how}): stopping the site`);
      clean = false;
      return stop("Start-up failed");
    }
    quickFailures = Date.now() - since >= STABLE_MS ? 1 : quickFailures + 1;
    const delay = Math.min(RESTART_MAX_MS, RESTART_FIRST_MS * 2 ** (quickFailures - 1));
    console.error(`Worker ${worker.process.pid} ended unexpectedly (${how}); starting another in ${delay} ms`);
    const timer = setTimeout(() => {
      restarts.delete(timer);
      fork();
    }, delay);
    restarts.add(timer);
  });

  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
  for (let i = 0; i < workers; i++) fork();
}
