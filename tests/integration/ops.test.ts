import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { onPostgres, rowOf, withDatabaseOf } from "../database-of";
import { databaseUrlFor } from "../pg";
import { startServer, type RunningServer } from "../server-process";

// Operations for a self-hoster (issue 7 item 5) through the real production server: rate limits
// on write paths, request logs, /healthz, and the refusal to migrate a newer database.

const BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36";
const dirs: string[] = [];
const tempDir = (prefix: string) => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
};
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

const query = rowOf;

async function apiToken(url: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${url}/api/auth/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...headers },
    body: JSON.stringify({ username: "admin", password: "admin123" }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { access_token: string }).access_token;
}

async function formSignIn(url: string) {
  const res = await fetch(`${url}/admin/login`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: url },
    body: new URLSearchParams({ username: "admin", password: "admin123", redirectTo: "" }),
  });
  expect(res.status).toBe(302);
  return res.headers.get("set-cookie")!.split(";")[0];
}

describe("rate limits on write paths (server with the limits on, as in production)", () => {
  const dataDir = tempDir("news-limits-");
  let server: RunningServer;
  // The server trusts X-Forwarded-For from loopback (TRUST_PROXY default), as behind nginx:
  // each test speaks for its own client address so their buckets stay apart.
  const as = (ip: string, headers: Record<string, string> = {}) => ({ "X-Forwarded-For": ip, ...headers });

  beforeAll(async () => {
    server = await startServer({ dataDir, env: { RATE_LIMIT: "1", RATE_LIMIT_WRITES: "5", RATE_LIMIT_VIEWS: "4" } });
  });
  afterAll(async () => {
    await server?.stop("SIGKILL");
  });

  const createCategory = (token: string, ip: string, name: string) =>
    fetch(`${server.url}/api/categories/`, {
      method: "POST",
      headers: as(ip, { Authorization: `Bearer ${token}`, "Content-Type": "application/json" }),
      body: JSON.stringify({ name }),
    });
  const categoryCount = async (name: string) => (await query<{ n: number }>(dataDir, "select count(*) n from categories where name = ?", name)).n;

  it("answers the JSON API with 429, {detail} and Retry-After past the limit, and writes nothing then", async () => {
    const ip = "203.0.113.10";
    const token = await apiToken(server.url, as(ip)); // sign-in is not counted: it has its own lockout
    const stamp = Date.now();
    for (let i = 0; i < 5; i++) expect((await createCategory(token, ip, `Ліміт ${stamp} ${i}`)).status).toBe(201);
    const refused = await createCategory(token, ip, `Ліміт ${stamp} зайва`);
    expect(refused.status).toBe(429);
    const retry = Number(refused.headers.get("retry-after"));
    expect(retry).toBeGreaterThan(0);
    expect(retry).toBeLessThanOrEqual(60);
    expect(refused.headers.get("content-type")).toMatch(/application\/json/);
    expect(await refused.json()).toEqual({ detail: expect.stringMatching(/^Забагато запитів\. Спробуйте знову через \d+ (с|хв)\.$/) });
    expect(await categoryCount(`Ліміт ${stamp} зайва`)).toBe(0);

    // Reads are never limited; sign-in still answers (its own lockout applies, not this limit).
    for (let i = 0; i < 8; i++) {
      const read = await fetch(`${server.url}/api/categories/admin`, { headers: as(ip, { Authorization: `Bearer ${token}` }) });
      expect(read.status).toBe(200);
    }
    expect((await fetch(`${server.url}/`, { headers: as(ip) })).status).toBe(200);
    await apiToken(server.url, as(ip));

    // Another client behind the same trusted proxy has its own budget.
    expect((await createCategory(token, "203.0.113.11", `Ліміт ${stamp} інший`)).status).toBe(201);
  });

  it("answers a form post with a small Ukrainian 429 page", async () => {
    const ip = "203.0.113.20";
    const cookie = await formSignIn(server.url); // from 127.0.0.1: sign-in is never counted anyway
    const post = () =>
      fetch(`${server.url}/admin/settings`, {
        method: "POST",
        redirect: "manual",
        headers: as(ip, { Cookie: cookie, Origin: server.url, "Content-Type": "application/x-www-form-urlencoded" }),
        body: new URLSearchParams({ site_title: "x" }),
      });
    for (let i = 0; i < 5; i++) expect((await post()).status).not.toBe(429);
    const refused = await post();
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(refused.headers.get("content-type")).toMatch(/text\/html/);
    const page = await refused.text();
    expect(page).toContain('<html lang="uk">');
    expect(page).toContain("<h1>Забагато запитів</h1>");
    // The page still carries the security headers, and a signed-in reader's GET goes through.
    expect(refused.headers.get("x-frame-options")).toBe("DENY");
    expect((await fetch(`${server.url}/admin/dashboard`, { headers: as(ip, { Cookie: cookie }) })).status).toBe(200);
  });

  it("track-view has its own tighter limit and counts one view per address and article", async () => {
    const ids: string[] = [];
    for (const i of [0, 1, 2])
      ids.push((await query<{ id: string }>(dataDir, "select id from articles where status = 'published' order by published_at desc limit 1 offset ?", i)).id);
    const total = async () => (await query<{ n: number }>(dataDir, "select sum(views) n from articles")).n;
    const track = (ip: string, id: string) =>
      fetch(`${server.url}/api/analytics/track-view`, {
        method: "POST",
        headers: as(ip, { "User-Agent": BROWSER, "Content-Type": "application/json" }),
        body: JSON.stringify({ article_id: id }),
      });
    await new Promise((r) => setTimeout(r, 1_600)); // the once-a-second view batch settles
    const before = await total();
    const ip = "198.51.100.7";
    const answers = [];
    for (const id of [ids[0], ids[0], ids[1], ids[0]]) answers.push(((await (await track(ip, id)).json()) as { counted: boolean }).counted);
    expect(answers).toEqual([true, false, true, false]);
    const refused = await track(ip, ids[2]);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await refused.json()).toEqual({ detail: expect.stringContaining("Забагато запитів") });
    // Another reader of the same article counts.
    expect(await (await track("198.51.100.8", ids[0])).json()).toMatchObject({ counted: true });
    await new Promise((r) => setTimeout(r, 1_600));
    expect((await total()) - before).toBe(3);
  });
});

describe("rate limits when the app faces clients directly (TRUST_PROXY=false)", () => {
  it("a made-up X-Forwarded-For does not buy a fresh budget; the window ends on time", async () => {
    const dataDir = tempDir("news-spoof-");
    const server = await startServer({
      dataDir,
      env: {
        SEED_DEMO: "0",
        ADMIN_USERNAME: "admin",
        ADMIN_PASSWORD: "admin123",
        TRUST_PROXY: "false",
        RATE_LIMIT: "1",
        RATE_LIMIT_WRITES: "3",
        RATE_LIMIT_WINDOW: "2",
      },
    });
    try {
      const token = await apiToken(server.url);
      const write = (i: number) =>
        fetch(`${server.url}/api/categories/`, {
          method: "POST",
          headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json", "X-Forwarded-For": `192.0.2.${i}`, "X-Client-IP": `192.0.2.${i}` },
          body: JSON.stringify({ name: `Підробка ${i}` }),
        });
      const statuses = [];
      for (let i = 1; i <= 6; i++) statuses.push((await write(i)).status);
      expect(statuses.slice(0, 3)).toEqual([201, 201, 201]);
      expect(statuses.slice(3)).toEqual([429, 429, 429]);
      await new Promise((r) => setTimeout(r, 2_200));
      expect((await write(7)).status).toBe(201);
    } finally {
      await server.stop("SIGKILL");
    }
  });
});

describe("request logs and /healthz", () => {
  const dataDir = tempDir("news-logs-");
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ dataDir, env: { LOG_REQUESTS: "1" } });
  });
  afterAll(async () => {
    await server?.stop("SIGKILL");
  });

  it("logs one JSON line per request with timings and no password, token, cookie or session id", async () => {
    const cookie = await formSignIn(server.url);
    const token = await apiToken(server.url);
    const cookieValue = decodeURIComponent(cookie.slice(cookie.indexOf("=") + 1));
    const sessionToken = cookieValue.split(".")[0];
    expect((await fetch(`${server.url}/admin/dashboard`, { headers: { Cookie: cookie } })).status).toBe(200);
    expect((await fetch(`${server.url}/api/auth/me`, { headers: { Authorization: `Bearer ${token}` } })).status).toBe(200);
    await fetch(`${server.url}/search?q=космос&token=QUERYSECRET1&password=QUERYSECRET2`);
    const out = await fetch(`${server.url}/admin/logout`, { method: "POST", redirect: "manual", headers: { Cookie: cookie, Origin: server.url } });
    expect(out.status).toBe(302);
    // The child's stdout reaches us asynchronously: wait for the last request's line.
    for (let i = 0; i < 50 && !server.output().includes('"path":"/admin/logout"'); i++) await new Promise((r) => setTimeout(r, 100));

    const log = server.output();
    const lines = log
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const requests = lines.filter((l) => l.method);
    expect(requests.length).toBeGreaterThanOrEqual(6);
    for (const line of requests) {
      expect(line).toEqual({ t: expect.any(String), method: expect.any(String), path: expect.any(String), status: expect.any(Number), ms: expect.any(Number) });
      expect(line.ms).toBeGreaterThanOrEqual(0);
    }
    expect(requests).toContainEqual(expect.objectContaining({ method: "POST", path: "/admin/login", status: 302 }));
    expect(requests).toContainEqual(expect.objectContaining({ method: "GET", path: "/admin/dashboard", status: 200 }));
    expect(requests).toContainEqual(expect.objectContaining({ method: "GET", path: "/search", status: 200 }));
    for (const secret of ["admin123", cookieValue, sessionToken, token, "QUERYSECRET1", "QUERYSECRET2", "__session"]) {
      expect(log).not.toContain(secret);
    }
    // Nor the stored form of the session id (SHA-256 of the token).
    const stored = await query<{ id: string } | undefined>(dataDir, "select id from sessions limit 1");
    if (stored) expect(log).not.toContain(stored.id);
  });

  it("/healthz reads the database and answers 503 JSON when it cannot", async () => {
    const ok = await fetch(`${server.url}/healthz`);
    expect(ok.status).toBe(200);
    expect(ok.headers.get("cache-control")).toBe("no-store");
    expect(await ok.json()).toEqual({ status: "ok" });

    // SQLite: the database file goes away under the running server (a botched restore, a wrong
    // mount): its open handle still answers, but the next start would find an empty folder.
    // PostgreSQL: the database stops taking connections and drops the ones it had.
    const outage = onPostgres ? await refuseConnections(dataDir) : moveAway(join(dataDir, "news.db"));
    try {
      const down = await fetch(`${server.url}/healthz`);
      expect(down.status).toBe(503);
      expect(down.headers.get("cache-control")).toBe("no-store");
      expect(await down.json()).toEqual({ status: "unavailable", detail: "База даних недоступна" });
    } finally {
      await outage.end();
    }
    await expect.poll(async () => (await fetch(`${server.url}/healthz`)).status, { timeout: 5_000 }).toBe(200);
    expect(server.output()).toMatch(onPostgres ? /healthz: .*(connections|terminat)/ : /healthz: ENOENT/);
  });
});

function moveAway(file: string) {
  renameSync(file, `${file}.moved`);
  return { end: async () => renameSync(`${file}.moved`, file) };
}

/** PostgreSQL: the folder's database refuses new connections and ends the open ones, until end(). */
async function refuseConnections(dataDir: string) {
  const name = new URL((await databaseUrlFor(dataDir))!).pathname.slice(1);
  const admin = new pg.Client({ connectionString: process.env.PG_ADMIN_URL });
  await admin.connect();
  await admin.query(`alter database ${name} with allow_connections false`);
  await admin.query("select pg_terminate_backend(pid) from pg_stat_activity where datname = $1", [name]);
  return {
    end: async () => {
      await admin.query(`alter database ${name} with allow_connections true`);
      await admin.end();
    },
  };
}

describe("migrations", () => {
  it("refuse a database migrated by newer code: clear message, exit 1, no stack trace, nothing written", async () => {
    const dataDir = tempDir("news-newer-");
    const first = await startServer({ dataDir, env: { SEED_DEMO: "0", ADMIN_USERNAME: "chief", ADMIN_PASSWORD: "a-long-secret" } });
    expect(await first.stop("SIGTERM")).toBe(0);
    // Closing the SQLite connection checkpoints the WAL into news.db.
    await query(dataDir, "insert into kysely_migration (name, timestamp) values (?, ?)", "2099_01_01_000000_future", new Date().toISOString());
    const file = join(dataDir, "news.db");
    // Nothing written: news.db byte for byte, or on PostgreSQL every migration and user as it was.
    const hash = async () =>
      onPostgres
        ? JSON.stringify(
            await withDatabaseOf(dataDir, (db) =>
              sql`select (select string_agg(name, ',' order by name) from kysely_migration) m, (select string_agg(id || updated_at, ',' order by id) from users) u`.execute(
                db,
              ),
            ),
          )
        : createHash("sha256").update(readFileSync(file)).digest("hex");
    const before = await hash();

    const attempt = startServer({ dataDir });
    await expect(attempt).rejects.toThrow(/server exited \(1\)/);
    const message = await attempt.catch((error: Error) => error.message);
    expect(message).toContain("2099_01_01_000000_future");
    expect(message).toMatch(/newer version of the site/);
    expect(message).toMatch(/Upgrade the code/);
    expect(message).toMatch(/restore a backup/);
    expect(message).not.toMatch(/\n\s+at /);

    expect(await hash()).toBe(before);
    const wal = join(dataDir, "news.db-wal");
    expect(existsSync(wal) ? statSync(wal).size : 0).toBe(0);
    expect((await query<{ n: number }>(dataDir, "select count(*) n from users")).n).toBe(1);
  });
});
