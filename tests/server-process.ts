import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { databaseUrlFor } from "./pg";

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
 * Starts the production server (build/server.js) on dataDir and waits until /healthz answers.
 * Request logs and rate limits are off unless `env` turns them on (tests/integration/ops.test.ts):
 * load and fault tests write from one address far faster than a newsroom.
 */
export async function startServer({
  dataDir,
  env = {},
  port,
  timeoutMs = 60_000,
}: {
  dataDir: string;
  env?: Record<string, string>;
  port?: number;
  timeoutMs?: number;
}): Promise<RunningServer> {
  port ??= await freePort();
  let log = "";
  // On PostgreSQL the folder's own database (tests/pg.ts), not the test file's.
  const databaseUrl = env.DATABASE_URL ?? (await databaseUrlFor(dataDir));
  const child = spawn(process.execPath, ["build/server.js"], {
    env: {
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
