import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../db/index";
import { holdWriteLock, onPostgres, rowOf } from "../database-of";
import { startServer, freePort, type RunningServer } from "../server-process";
import {
  ARTICLE_TEXT,
  apiSend,
  apiSignIn,
  expectAcknowledgedWrites,
  firstCategoryId,
  formSend,
  formSignIn,
  startWriters,
  type Acknowledged,
  type Staff,
} from "../staff-client";

// Issue 7 item 4 and SECURITY.md 'Data': the real production build under faults. SIGKILL in the
// middle of acknowledged writes, another process holding the write lock, a client that drops
// mid-upload, and a data folder the site cannot use at start. docs/decisions/007-durability.md.
const KILL_ROUNDS = Number(process.env.FAULT_KILL_ROUNDS ?? 5);
const UKRAINIAN = /[а-яіїєґ]{4,}/i;
const STACK = /\n\s+at |SqliteError|SQLITE_/;

const cleanup: string[] = [];
const servers: RunningServer[] = [];
afterAll(async () => {
  for (const server of servers) await server.stop("SIGKILL");
  for (const dir of cleanup) rmSync(dir, { recursive: true, force: true });
});

function tempDir(prefix: string) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  cleanup.push(dir);
  return dir;
}

async function start(dataDir: string, env: Record<string, string> = {}) {
  const server = await startServer({ dataDir, env });
  servers.push(server);
  return server;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("the database connection (SECURITY.md 'Data')", () => {
  it("uses WAL, synchronous=FULL, foreign keys and a 5 s busy timeout", async () => {
    const handle = openDatabase(join(tempDir("news-pragmas-"), "news.db"));
    try {
      expect(handle.sqlite.pragma("journal_mode", { simple: true })).toBe("wal");
      expect(handle.sqlite.pragma("synchronous", { simple: true })).toBe(2); // FULL
      expect(handle.sqlite.pragma("foreign_keys", { simple: true })).toBe(1);
      expect(handle.sqlite.pragma("busy_timeout", { simple: true })).toBe(5000);
    } finally {
      await handle.db.destroy();
    }
  });
});

describe("SIGKILL in the middle of acknowledged writes", () => {
  it(`keeps every acknowledged write and an intact database, ${KILL_ROUNDS} rounds`, async () => {
    const dataDir = tempDir("news-kill-");
    // What the server acknowledged: created articles (id → title) and, for one article saved over
    // and over, the last acknowledged title (the save in flight at the kill may or may not land).
    const acked: Acknowledged = { created: new Map(), target: { id: "", title: "", inFlight: "" } };
    let staff: Staff | undefined;
    let categoryId = "";
    let total = 0;

    for (let round = 1; round <= KILL_ROUNDS; round++) {
      const server = await start(dataDir);
      // Sessions are rows in the database too: the token from round 1 still works after each kill.
      staff ??= await apiSignIn(server.url, "admin", "admin123");
      staff.url = server.url;
      if (!categoryId) {
        categoryId = await firstCategoryId(staff);
        const first = await apiSend(staff, "POST", "/api/articles/", {
          title: "Стаття, яку зберігають знову і знову",
          content: ARTICLE_TEXT,
          category_id: categoryId,
        });
        expect(first.status).toBe(201);
        acked.target = { id: first.json.id, title: first.json.title, inFlight: "" };
      } else {
        // The previous round's writes are served by the restarted server.
        const last = [...acked.created.keys()].at(-1)!;
        expect((await apiSend(staff, "GET", `/api/articles/${last}`)).status).toBe(200);
      }

      const writers = startWriters({ staff, categoryId, acked, label: `Збій ${round}` });
      // Kill once a few writes are acknowledged and more are in flight.
      const before = acked.created.size;
      const deadline = Date.now() + 20_000;
      while (acked.created.size < before + 3 && Date.now() < deadline) await sleep(20);
      await sleep(100 + Math.floor(Math.random() * 300));
      const stopped = writers.stop();
      server.child.kill("SIGKILL");
      await new Promise((r) => (server.child.exitCode !== null || server.child.signalCode !== null ? r(null) : server.child.once("exit", r)));
      await stopped;
      expect(server.child.signalCode).toBe("SIGKILL");
      total = acked.created.size;

      // The file as the killed server left it (WAL not checkpointed), read by another connection.
      await expectAcknowledgedWrites(dataDir, acked);
    }
    console.log(`sigkill: ${KILL_ROUNDS} rounds, ${total} acknowledged creates, all present, integrity_check ok`);
    expect(total).toBeGreaterThanOrEqual(3 * KILL_ROUNDS);

    // And the site starts once more on the same folder and serves them.
    const server = await start(dataDir);
    staff!.url = server.url;
    const list = await apiSend(staff!, "GET", `/api/articles/admin?search=${encodeURIComponent("Збій")}&limit=1`);
    expect(list.status).toBe(200);
    expect(list.json.total).toBeGreaterThanOrEqual(total);
    await server.stop("SIGTERM");
  }, 240_000);
});

describe("another process holds the database write lock", () => {
  it("a write waits out a 3 s lock; past the busy timeout it is a clean 503 in Ukrainian, reads go on, and writes work after", async () => {
    const dataDir = tempDir("news-lock-");
    const server = await start(dataDir);
    const staff = await apiSignIn(server.url, "admin", "admin123");
    const form = await formSignIn(server.url, "editor", "editor123");
    const categoryId = await firstCategoryId(staff);
    // SQLite: another connection's BEGIN IMMEDIATE; PostgreSQL: the site's advisory write lock held
    // by another connection (tests/database-of.ts). Both engines wait 5 s, then answer 503.
    let locker = await holdWriteLock(dataDir);
    try {
      // 1. Held for 3 s: the write waits (busy timeout 5 s) and succeeds.
      const held = locker;
      const release = setTimeout(() => void held.release(), 3_000);
      let started = Date.now();
      const waited = await apiSend(staff, "POST", "/api/articles/", { title: "Дочекалася блокування", content: ARTICLE_TEXT, category_id: categoryId });
      const waitedMs = Date.now() - started;
      clearTimeout(release);
      await held.release();
      expect(waited.status).toBe(201);
      expect(waitedMs).toBeGreaterThan(2_500);

      // 2. Held past the busy timeout: JSON API → 503 {detail} in Ukrainian, no stack trace.
      locker = await holdWriteLock(dataDir);
      started = Date.now();
      const api = await fetch(`${server.url}/api/articles/`, {
        method: "POST",
        headers: { ...staff.auth, "Content-Type": "application/json" },
        body: JSON.stringify({ title: "Не дочекалася (API)", content: ARTICLE_TEXT, category_id: categoryId }),
      });
      expect(Date.now() - started).toBeGreaterThan(4_500);
      expect(api.status).toBe(503);
      expect(api.headers.get("content-type")).toMatch(/application\/json/);
      expect(api.headers.get("retry-after")).toBeTruthy();
      const body = await api.json();
      expect(Object.keys(body)).toEqual(["detail"]);
      expect(body.detail).toMatch(UKRAINIAN);
      expect(body.detail).not.toMatch(STACK);

      // The server stays up and serves reads while the lock is still held.
      expect(server.child.exitCode).toBeNull();
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
      expect((await fetch(`${server.url}/`)).status).toBe(200);
      expect((await apiSend(staff, "GET", "/api/articles/?limit=5")).status).toBe(200);

      // The editor form (no JavaScript) → a 503 HTML page with the same message, no stack trace.
      const screen = await formSend(form, "/admin/articles/new", {
        title: "Не дочекалася (форма)",
        content: ARTICLE_TEXT,
        category_id: categoryId,
        status: "draft",
        intent: "draft",
      });
      expect(screen.status).toBe(503);
      expect(screen.type).toMatch(/text\/html/);
      expect(screen.text).toContain("Сервер тимчасово зайнятий");
      expect(screen.text).toContain(body.detail.replace(/'/g, "&#x27;"));
      expect(screen.text).not.toMatch(STACK);
      expect(server.child.exitCode).toBeNull();

      // 3. Released: writes work again, and the refused ones wrote nothing.
      await locker.release();
      const after = await apiSend(staff, "POST", "/api/articles/", { title: "Після блокування", content: ARTICLE_TEXT, category_id: categoryId });
      expect(after.status).toBe(201);
      const refused = await rowOf<{ n: number }>(dataDir, "select count(*) as n from articles where title like 'Не дочекалася%'");
      expect(refused.n).toBe(0);
    } finally {
      await locker.release();
    }
    await server.stop("SIGTERM");
  }, 90_000);
});

describe("a client that drops mid-upload", () => {
  it("leaves no temp file and the server stays up (/api/media and /admin/media)", async () => {
    const dataDir = tempDir("news-drop-");
    // The server's own temp folder, so files it would leave in os.tmpdir() are seen too.
    const serverTmp = tempDir("news-drop-tmp-");
    const server = await start(dataDir, { TMPDIR: serverTmp });
    const staff = await apiSignIn(server.url, "admin", "admin123");
    const form = await formSignIn(server.url, "admin", "admin123");
    const uploads = join(dataDir, "uploads");
    const incoming = () => readdirSync(uploads).filter((f) => f.startsWith("."));
    const mediaTotal = async () => (await apiSend(staff, "GET", "/api/media")).json.total as number;
    const before = await mediaTotal();
    const tmpBefore = readdirSync(serverTmp);

    for (const [path, auth] of [
      ["/api/media", staff.auth],
      ["/admin/media", form.auth],
    ] as const) {
      const boundary = "----dropped-upload-boundary";
      const head = `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="big.png"\r\nContent-Type: image/png\r\n\r\n`;
      const length = head.length + 4_000_000 + `\r\n--${boundary}--\r\n`.length;
      const headers = Object.entries({
        ...auth,
        Host: `127.0.0.1:${server.port}`,
        "Content-Type": `multipart/form-data; boundary=${boundary}`,
        "Content-Length": String(length),
      })
        .map(([k, v]) => `${k}: ${v}`)
        .join("\r\n");
      const socket = connect(server.port, "127.0.0.1");
      await new Promise<void>((resolve, reject) => socket.once("connect", resolve).once("error", reject));
      socket.write(`POST ${path} HTTP/1.1\r\n${headers}\r\n\r\n${head}`);
      socket.write(Buffer.alloc(1_500_000, 0x89));
      // The handler has started streaming this part to a temp file: the test would prove nothing otherwise.
      const deadline = Date.now() + 10_000;
      while (!incoming().length && Date.now() < deadline) await sleep(20);
      expect(incoming(), `${path}: a temp file while the upload streams`).toHaveLength(1);
      socket.destroy();
      const gone = Date.now() + 10_000;
      while (incoming().length && Date.now() < gone) await sleep(50);
      expect(incoming(), `${path}: no temp file after the client dropped`).toEqual([]);
      expect(readdirSync(serverTmp)).toEqual(tmpBefore);
      expect(server.child.exitCode).toBeNull();
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    }
    expect(await mediaTotal()).toBe(before);

    // A whole upload still works afterwards.
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: { r: 10, g: 120, b: 200 } } })
      .png()
      .toBuffer();
    const body = new FormData();
    body.append("files", new Blob([new Uint8Array(png)], { type: "image/png" }), "after.png");
    const uploaded = await fetch(`${server.url}/api/media`, { method: "POST", headers: staff.auth, body });
    expect(uploaded.status).toBe(201);
    expect(await mediaTotal()).toBe(before + 1);
    expect(incoming()).toEqual([]);
    await server.stop("SIGTERM");
  }, 90_000);
});

/** Runs build/server.js (optionally inside `unshare -m` after a shell prelude) until it exits. */
async function runUntilExit({ dataDir, prelude }: { dataDir: string; prelude?: string }): Promise<{ code: number | null; stderr: string; stdout: string }> {
  const port = String(await freePort());
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: "production", PORT: port, DATA_DIR: dataDir, LOG_REQUESTS: "0" };
  const child = prelude
    ? spawn("unshare", ["-m", "sh", "-c", `${prelude} && exec "${process.execPath}" build/server.js`], { env, stdio: ["ignore", "pipe", "pipe"] })
    : spawn(process.execPath, ["build/server.js"], { env, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => (stdout += d));
  child.stderr.on("data", (d) => (stderr += d));
  const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
  const code = await new Promise<number | null>((resolve) => child.once("exit", (c) => resolve(c)));
  clearTimeout(timer);
  return { code, stderr, stdout };
}

/** A clear message: non-zero exit, at most two short lines on stderr, no stack trace, the folder named. */
function expectPlainFailure(result: { code: number | null; stderr: string; stdout: string }, where: string, says: RegExp) {
  expect(result.code, result.stderr).not.toBe(0);
  expect(result.code, result.stderr).not.toBeNull();
  expect(result.stderr).toMatch(says);
  expect(result.stderr).toContain(where);
  expect(result.stderr).not.toMatch(/\n\s+at /);
  expect(result.stderr.trim().split("\n").length).toBeLessThanOrEqual(2);
  expect(result.stdout).not.toMatch(/Наука UA: http/);
}

// Mount namespaces let a test give the server a read-only or full file system of its own (we run
// as root, where chmod stops nothing). Where unshare or mount is not allowed, those two cases skip.
const mountProbe = mkdtempSync(join(tmpdir(), "news-mount-probe-"));
const canMount = spawnSync("unshare", ["-m", "sh", "-c", `mount -t tmpfs -o size=64k tmpfs ${mountProbe}`], { stdio: "ignore" }).status === 0;
rmSync(mountProbe, { recursive: true, force: true });

describe("a data folder the site cannot use at start", () => {
  it("DATA_DIR is a file, or under a file: a plain message and exit 1", async () => {
    const base = tempDir("news-start-");
    writeFileSync(join(base, "file"), "not a folder");
    expectPlainFailure(await runUntilExit({ dataDir: join(base, "file") }), join(base, "file"), /is not a folder/);
    expectPlainFailure(await runUntilExit({ dataDir: join(base, "file", "data") }), join(base, "file", "data"), /is not a folder/);
  }, 90_000);

  // SQLite's own file; on PostgreSQL the database is the server's (env.test.ts covers a bad DATABASE_URL).
  it.skipIf(onPostgres)(
    "news.db is not a database (garbage bytes): a plain message and exit 1, the file untouched",
    async () => {
      const base = tempDir("news-garbage-");
      const garbage = Buffer.alloc(64 * 1024);
      for (let i = 0; i < garbage.length; i++) garbage[i] = (i * 7919 + 13) % 251;
      writeFileSync(join(base, "news.db"), garbage);
      expectPlainFailure(await runUntilExit({ dataDir: base }), join(base, "news.db"), /not a readable SQLite database.*backup/);
      expect(Buffer.compare(garbage, readFileSync(join(base, "news.db")))).toBe(0);
    },
    60_000,
  );

  // A real site's folder: started once, stopped cleanly (shared by the two cases below).
  let site: string | undefined;
  async function existingSite() {
    if (site) return site;
    site = tempDir("news-site-");
    const server = await start(site);
    expect(await server.stop("SIGTERM")).toBe(0);
    return site;
  }

  // Both cases make the database itself unwritable on SQLite; on PostgreSQL it lives elsewhere.
  it.skipIf(!canMount || onPostgres)(
    "a read-only DATA_DIR (an existing site, bind-mounted read-only): a plain message and exit 1",
    async () => {
      const source = await existingSite();
      const result = await runUntilExit({ dataDir: source, prelude: `mount --bind "${source}" "${source}" && mount -o remount,bind,ro "${source}"` });
      expectPlainFailure(result, source, /Cannot write to the data folder.*read-only/);
      expect(existsSync(join(source, "news.db"))).toBe(true);
    },
    120_000,
  );

  it.skipIf(!canMount || onPostgres)(
    "a full disk: a plain message and exit 1, for a new site and for an existing one",
    async () => {
      // A new site on a 128 KB file system: the schema and seed do not fit.
      const mountA = tempDir("news-full-a-");
      const fresh = join(mountA, "data");
      expectPlainFailure(await runUntilExit({ dataDir: fresh, prelude: `mount -t tmpfs -o size=128k tmpfs "${mountA}"` }), fresh, /is full.*Free some space/);

      // An existing site whose disk filled up while it was stopped.
      const source = await existingSite();
      const mountB = tempDir("news-full-b-");
      const data = join(mountB, "data");
      const prelude = `mount -t tmpfs -o size=8m tmpfs "${mountB}" && mkdir "${data}" && cp -a "${source}/." "${data}/" && (dd if=/dev/zero of="${mountB}/filler" bs=4k 2>/dev/null; true)`;
      expectPlainFailure(await runUntilExit({ dataDir: data, prelude }), data, /is full.*Free some space/);
    },
    120_000,
  );
});
