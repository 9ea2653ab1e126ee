import { spawn, type ChildProcess } from "node:child_process";
import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { createServer } from "node:net";
import { databaseUrlFor } from "./pg";
import { START_ENV, START_FLAGS } from "./start-flags";

/** A free TCP port on 127.0.0.1. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface RunningServer {
  url: string;
  port: number;
  child: ChildProcess;
  output: () => string;
  stop: (signal?: NodeJS.Signals) => Promise<number | null>;
}

/**
 * Starts the production server (build/server.js, with npm start's Node flags) on dataDir and waits until /healthz answers.
 * Request logs and rate limits are off unless `env` turns them on (tests/integration/ops.test.ts):
 * load and fault tests write from one address far faster than a newsroom.
 */
export async function startServer({
  dataDir,
  env = {},
  port,
  timeoutMs = 60_000,
  cwd,
}: {
  dataDir: string;
  env?: Record<string, string>;
  port?: number;
  timeoutMs?: number;
  /** Where build/ and public/ are read from (a copied site, as a deploy makes one: tests/integration/store-warm.test.ts). */
  cwd?: string;
}): Promise<RunningServer> {
  port ??= await freePort();
  let log = "";
  // On PostgreSQL the folder's own database (tests/pg.ts), not the test file's.
  const databaseUrl = env.DATABASE_URL ?? (await databaseUrlFor(dataDir));
  const child = spawn(process.execPath, [...START_FLAGS, "build/server.js"], {
    env: {
      ...START_ENV,
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      DATA_DIR: dataDir,
      LOG_REQUESTS: "0",
      RATE_LIMIT: "0",
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
    cwd,
  });
  child.stdout!.on("data", (d) => (log += d));
  child.stderr!.on("data", (d) => (log += d));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}):\n${log}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`server did not start:\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const stop = (signal: NodeJS.Signals = "SIGTERM") =>
    new Promise<number | null>((resolve) => {
      // A child that already ended (by exit or by a signal such as SIGKILL) emits no new 'exit'.
      if (child.exitCode !== null || child.signalCode !== null) return resolve(child.exitCode);
      child.once("exit", (code) => resolve(code));
      child.kill(signal);
    });
  return { url, port, child, output: () => log, stop };
}

export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  /** The worker process that answered (X-Worker-Pid: servers started with NODE_ENV=test only). */
  pid: number;
  text: string;
}

/**
 * One request on a connection of its own (no keep-alive), so that with WORKERS=N the cluster's
 * round robin picks a worker for each; the body uncompressed, as text.
 */
export function request(
  url: string,
  path: string,
  { method = "GET", headers = {}, body, timeoutMs = 20_000 }: { method?: string; headers?: Record<string, string>; body?: string; timeoutMs?: number } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${url}${path}`, { method, agent: false, headers: { "accept-encoding": "identity", ...headers }, timeout: timeoutMs }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () =>
        resolve({ status: res.statusCode!, headers: res.headers, pid: Number(res.headers["x-worker-pid"]), text: Buffer.concat(chunks).toString("utf8") }),
      );
      res.on("error", reject);
    });
    req.on("timeout", () => req.destroy(new Error(`${method} ${path}: no answer in ${timeoutMs} ms`)));
    req.on("error", reject);
    req.end(body);
  });
}

/** The pids of a WORKERS=n server's workers, once each has answered (started with NODE_ENV=test). */
export async function workerPids(url: string, n: number, timeoutMs = 30_000): Promise<number[]> {
  const pids = new Set<number>();
  const deadline = Date.now() + timeoutMs;
  while (pids.size < n) {
    if (Date.now() > deadline) throw new Error(`only ${pids.size} of ${n} workers answered within ${timeoutMs} ms`);
    try {
      pids.add((await request(url, "/healthz")).pid);
    } catch {
      // a worker starting or stopping
    }
    if (pids.size < n) await new Promise((r) => setTimeout(r, 50));
  }
  return [...pids];
}
