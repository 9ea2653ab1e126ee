// A throwaway PostgreSQL 15+ on 127.0.0.1 in a temp folder, for `npm run test:pg` and the bench's
// PostgreSQL rows. PostgreSQL refuses to run as root: as root the cluster is made and run as the
// `postgres` user. The server binaries: PG_BIN, else the newest /usr/lib/postgresql/N/bin, else PATH.
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

function binDir() {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const root = "/usr/lib/postgresql";
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => Number(v) >= 15)
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions.length) return join(root, versions[0], "bin");
  return ""; // on PATH
}

const freePort = () =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

/** Starts the server; answers its superuser URL and stop(), which also removes its folder. */
export async function startCluster({ durable = false } = {}) {
  const bin = binDir();
  const tool = (name) => (bin ? join(bin, name) : name);
  const asRoot = process.getuid?.() === 0;
  const run = (args) =>
    asRoot ? execFileSync("runuser", ["-u", "postgres", "--", ...args], { stdio: "pipe" }) : execFileSync(args[0], args.slice(1), { stdio: "pipe" });
  const dir = mkdtempSync(join(tmpdir(), "news-pg-"));
  chmodSync(dir, 0o777);
  if (asRoot) execFileSync("chown", ["postgres", dir]);
  const data = join(dir, "data");
  run([tool("initdb"), "-D", data, "-A", "trust", "-U", "postgres", "-E", "UTF8", "--locale=C.UTF-8"]);
  const port = await freePort();
  // Test data is thrown away: no fsync (the bench, `durable`, keeps the defaults). More connections
  // than the default 100: every test file and every server a test starts has a pool of its own.
  const options = `-k ${dir} -h 127.0.0.1 -p ${port}${durable ? "" : " -c fsync=off -c full_page_writes=off"} -c max_connections=300`;
  run([tool("pg_ctl"), "-D", data, "-l", join(dir, "log"), "-o", options, "-w", "start"]);
  const stop = () => {
    try {
      run([tool("pg_ctl"), "-D", data, "-m", "immediate", "-w", "stop"]);
    } catch {
      // already stopped
    }
    rmSync(dir, { recursive: true, force: true });
  };
  return { url: `postgres://postgres@127.0.0.1:${port}/postgres`, stop };
}
