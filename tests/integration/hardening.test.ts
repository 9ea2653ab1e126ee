// Issue 13: each class of fault that probing the live site found, tried with several variants
// against the real production server (SECURITY.md).
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../server-process";

const PUBLIC_URL = "https://news.example";

let server: RunningServer;
let dataDir: string;

/** A request written byte for byte (paths reach the server exactly as given); the answer's status, headers and body. */
function raw(lines: string[], body = ""): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(server.port, "127.0.0.1");
    const chunks: Buffer[] = [];
    socket.setTimeout(15_000, () => socket.destroy(new Error("timeout")));
    socket.on("data", (c) => chunks.push(c));
    socket.on("error", reject);
    socket.on("close", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      const [head, ...rest] = text.split("\r\n\r\n");
      const [statusLine, ...headerLines] = head.split("\r\n");
      const headers = Object.fromEntries(headerLines.map((l) => [l.slice(0, l.indexOf(":")).toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]));
      resolve({ status: Number(statusLine.split(" ")[1]), headers, body: rest.join("\r\n\r\n") });
    });
    socket.write([...lines, `Host: 127.0.0.1:${server.port}`, `Content-Length: ${Buffer.byteLength(body)}`, "Connection: close", "", ""].join("\r\n") + body);
  });
}

const get = (path: string, headers: string[] = []) => raw([`GET ${path} HTTP/1.1`, ...headers]);

async function formSignIn(username = "admin", password = `${username}123`) {
  const res = await fetch(`${server.url}/admin/login`, {
    method: "POST",
    redirect: "manual",
    headers: { Origin: server.url },
    body: new URLSearchParams({ username, password }),
  });
  expect(res.status).toBe(302);
  return res.headers.get("set-cookie")!.split(";")[0];
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "news-hardening-"));
  server = await startServer({ dataDir, env: { PUBLIC_URL, VIEW_REPEAT_MINUTES: "30" } });
}, 90_000);
afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("1. no redirect the server builds from a request leaves the site", () => {
  const offSite = ["//evil.example/", "/\\evil.example/", "//evil.example/a/b/", "///evil.example/", "/%2F%2Fevil.example/", "/\\/evil.example/"];
  it.each(offSite.map((p) => [p]))("GET %s", async (path) => {
    const res = await get(path);
    expect(res.status).toBeLessThan(500);
    if (res.headers.location) expect(new URL(res.headers.location, "https://news.example/x/y").host).toBe("news.example");
  });

  it("redirectTo and back with //, \\, .. and CR/LF stay on the site (sign-in form and article list)", async () => {
    for (const target of ["//evil.example", "/\\evil.example", "/admin/../..//evil.example", "/admin\r\nSet-Cookie: x=1", "https://evil.example/admin"]) {
      const res = await fetch(`${server.url}/admin/login`, {
        method: "POST",
        redirect: "manual",
        headers: { Origin: server.url },
        body: new URLSearchParams({ username: "editor", password: "editor123", redirectTo: target }),
      });
      expect(res.status, target).toBe(302);
      expect(res.headers.get("location"), target).toBe("/admin/dashboard");
      const cookie = res.headers.get("set-cookie")!.split(";")[0];
      const signedIn = await fetch(`${server.url}/admin/login?redirectTo=${encodeURIComponent(target)}`, { redirect: "manual", headers: { Cookie: cookie } });
      expect(signedIn.status, target).toBe(302);
      expect(signedIn.headers.get("location"), target).toBe("/admin/dashboard");
      const back = await fetch(`${server.url}/admin/articles`, {
        method: "POST",
        redirect: "manual",
        headers: { Origin: server.url, Cookie: cookie },
        body: new URLSearchParams({ intent: "publish", id: "no-such-article", confirmed: "1", back: target }),
      });
      expect(back.status, target).toBeLessThan(500);
      const location = back.headers.get("location");
      if (location) expect(new URL(location, "https://news.example/a").host, target).toBe("news.example");
    }
  });
});

describe("2. every body is capped before Remix, chunked or not", () => {
  function chunked(path: string, type: string, megabytes: number): Promise<{ status: number; rssBefore: number }> {
    return new Promise((resolve, reject) => {
      const req = httpRequest(
        `${server.url}${path}`,
        { method: "POST", headers: { "Content-Type": type, Origin: server.url, "Transfer-Encoding": "chunked" } },
        (res) => {
          res.resume();
          resolve({ status: res.statusCode!, rssBefore: 0 });
        },
      );
      req.on("error", (error) => (String(error).includes("EPIPE") || String(error).includes("ECONNRESET") ? undefined : reject(error)));
      const chunk = Buffer.alloc(1024 * 1024, "a");
      let sent = 0;
      const pump = () => {
        while (sent < megabytes) {
          sent += 1;
          if (!req.write(chunk)) return req.once("drain", pump);
        }
        req.end();
      };
      pump();
    });
  }

  it("a 64 MB chunked form post to sign-in is refused with 413 without being read whole", async () => {
    const rss = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${server.child.pid}/status`, "utf8"))![1]) / 1024;
    const before = rss();
    const res = await chunked("/admin/login", "application/x-www-form-urlencoded", 64);
    expect(res.status).toBe(413);
    expect(rss() - before).toBeLessThan(40);
  });

  it("a chunked JSON body over 8 MB to the API is 413, and a small chunked one still works", async () => {
    expect((await chunked("/api/auth/login", "application/json", 9)).status).toBe(413);
    const ok = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(
        `${server.url}/api/auth/login`,
        { method: "POST", headers: { "Content-Type": "application/json", "Transfer-Encoding": "chunked" } },
        (res) => {
          res.resume();
          resolve(res.statusCode!);
        },
      );
      req.on("error", reject);
      req.write('{"username":"admin",');
      req.end('"password":"admin123"}');
    });
    expect(ok).toBe(200);
  });
});

describe("5. malformed requests are 4xx, never 500", () => {
  const paths = [
    "/api/articles/%E0%A4%A",
    "/article/%E0%A4%A",
    "/media/%E0%A4%A",
    "/category/%ZZ",
    "/..%c0%af/",
    "/article/%",

    "/api/articles/slug/%ZZ",
    "/admin/articles/edit/%E0",
  ];
  it.each(paths.map((p) => [p]))("GET %s", async (path) => {
    const res = await get(path);
    expect(res.status).toBeGreaterThanOrEqual(300);
    expect(res.status).toBeLessThan(500);
    expect(res.body).not.toMatch(/\n\s+at .+:\d+:\d+/);
  });

  it("a form post through a proxy that rewrites Host signs in: the site decides by PUBLIC_URL", async () => {
    for (const host of [`127.0.0.1:${server.port}`, "localhost:3000", "upstream.internal"]) {
      const body = new URLSearchParams({ username: "editor", password: "editor123" }).toString();
      const res = await raw(
        [`POST /admin/login HTTP/1.1`, `Origin: ${PUBLIC_URL}`, "Content-Type: application/x-www-form-urlencoded", `X-Forwarded-Host: ${host}`],
        body,
      );
      expect(res.status, host).toBe(302);
      expect(res.headers.location, host).toBe("/admin/dashboard");
    }
  });
});

describe("6, 7. sign-in and sign-out doors", () => {
  it("the form sign-in's 429 carries Retry-After", async () => {
    for (let i = 0; i < 5; i++) {
      await fetch(`${server.url}/admin/login`, {
        method: "POST",
        headers: { Origin: server.url },
        body: new URLSearchParams({ username: "reporter", password: "wrong-one" }),
      });
    }
    const res = await fetch(`${server.url}/admin/login`, {
      method: "POST",
      headers: { Origin: server.url },
      body: new URLSearchParams({ username: "reporter", password: "wrong-one" }),
    });
    expect(res.status).toBe(429);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  it("POST /api/auth/logout with the session cookie ends that cookie session", async () => {
    const cookie = await formSignIn("editor");
    expect((await fetch(`${server.url}/api/auth/me`, { headers: { Cookie: cookie } })).status).toBe(200);
    const out = await fetch(`${server.url}/api/auth/logout`, { method: "POST", headers: { Cookie: cookie, Origin: server.url } });
    expect(out.status).toBe(204);
    expect((await fetch(`${server.url}/api/auth/me`, { headers: { Cookie: cookie } })).status).toBe(401);
    expect((await fetch(`${server.url}/admin/dashboard`, { redirect: "manual", headers: { Cookie: cookie } })).status).toBe(302);
  });
});

describe("11. headers on every response", () => {
  it("nosniff on assets, images, media and /healthz", async () => {
    const script = /\/build\/[^"]+\.js/.exec(await (await fetch(`${server.url}/`)).text())![0];
    const image = readdirSync("public/images/demo")[0];
    for (const path of [script, `/images/demo/${image}`, "/healthz", "/favicon.ico", "/robots.txt", "/"]) {
      const res = await fetch(`${server.url}${path}`);
      expect(res.headers.get("x-content-type-options"), path).toBe("nosniff");
    }
  });

  it("signed-in screens, their .data and the API are private, no-store; public pages are not", async () => {
    const cookie = await formSignIn("admin");
    for (const path of ["/admin/dashboard", "/admin/users", "/admin/users.data", "/admin/articles?_data=routes/admin.articles._index", "/api/auth/me", "/"]) {
      const res = await fetch(`${server.url}${path}`, { headers: { Cookie: cookie }, redirect: "manual" });
      expect(res.headers.get("cache-control"), path).toBe("private, no-store");
    }
    expect((await fetch(`${server.url}/`)).headers.get("cache-control")).not.toMatch(/private/);
  });
});

describe("13, 14. files and small ones", () => {
  it("news.db, its WAL and SHM, and the session secret are readable by the owner only", async () => {
    for (const file of ["news.db", "news.db-wal", "news.db-shm", "session-secret"]) {
      expect((statSync(join(dataDir, file)).mode & 0o777).toString(8), file).toBe("600");
    }
  });

  it("/media and /media/ do not redirect to each other", async () => {
    for (const path of ["/media", "/media/"]) {
      const res = await fetch(`${server.url}${path}`, { redirect: "manual" });
      if (res.status === 301 || res.status === 302) {
        const next = await fetch(new URL(res.headers.get("location")!, server.url), { redirect: "manual" });
        expect([301, 302, 308]).not.toContain(next.status);
      } else {
        expect(res.status).toBe(404);
      }
    }
  });
});
