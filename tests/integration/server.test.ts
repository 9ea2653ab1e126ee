import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withDatabaseOf } from "../database-of";
import { startServer, type RunningServer } from "../server-process";

// The real production server in its own process, on its own temp DATA_DIR.
const dataDir = mkdtempSync(join(tmpdir(), "news-server-"));
let server: RunningServer;

async function signIn(base: string) {
  const page = await fetch(`${base}/admin/login`);
  expect(page.status).toBe(200);
  const res = await fetch(`${base}/admin/login`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: base },
    body: new URLSearchParams({ username: "admin", password: "admin123", redirectTo: "" }),
  });
  expect(res.status).toBe(302);
  expect(res.headers.get("location")).toBe("/admin/dashboard");
  return res.headers.get("set-cookie")!;
}

function counts() {
  return withDatabaseOf(dataDir, async (db) => {
    const result = await sql`select (select count(*) from users) users, (select count(*) from categories) categories,
              (select count(*) from articles) articles, (select count(*) from page_views) views,
              (select count(*) from homepage_blocks) blocks, (select count(*) from articles_fts) fts`.execute(db);
    return result.rows[0];
  });
}

describe("the production server", () => {
  beforeAll(async () => {
    server = await startServer({ dataDir });
  });
  afterAll(async () => {
    await server?.stop("SIGKILL");
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("sends the security headers with a fresh CSP nonce per response", async () => {
    const a = await fetch(`${server.url}/admin/login`);
    const b = await fetch(`${server.url}/admin/login`);
    expect(a.headers.get("x-content-type-options")).toBe("nosniff");
    expect(a.headers.get("x-frame-options")).toBe("DENY");
    expect(a.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect(a.headers.get("x-powered-by")).toBeNull();
    const csp = a.headers.get("content-security-policy")!;
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    const nonce = csp.match(/'nonce-([^']+)'/)![1];
    expect(b.headers.get("content-security-policy")).not.toContain(nonce);
    const html = await a.text();
    expect(html).toContain(`nonce="${nonce}"`);
    // Every script element carries the nonce.
    for (const tag of html.match(/<script\b[^>]*>/g) ?? []) expect(tag).toContain(`nonce="${nonce}"`);
  });

  it("serves built assets with immutable caching", async () => {
    const html = await (await fetch(`${server.url}/admin/login`)).text();
    const asset = html.match(/\/build\/[^"]+\.js/)![0];
    const res = await fetch(`${server.url}${asset}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toContain("immutable");
  });

  it("refuses a cross-site form post with 403", async () => {
    const res = await fetch(`${server.url}/admin/login`, {
      method: "POST",
      redirect: "manual",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: "https://evil.example" },
      body: new URLSearchParams({ username: "admin", password: "admin123" }),
    });
    expect(res.status).toBe(403);
    expect(res.headers.get("set-cookie")).toBeNull();
  });

  it("refuses a cross-site post by Referer too, and one with a session cookie but no origin", async () => {
    const cookie = await signIn(server.url);
    const viaReferer = await fetch(`${server.url}/admin/logout`, {
      method: "POST",
      redirect: "manual",
      headers: { Referer: "https://evil.example/page", Cookie: cookie.split(";")[0] },
    });
    expect(viaReferer.status).toBe(403);
    const bare = await fetch(`${server.url}/admin/logout`, { method: "POST", redirect: "manual", headers: { Cookie: cookie.split(";")[0] } });
    expect(bare.status).toBe(403);
  });

  it("answers 413 before reading an oversized body", async () => {
    const res = await fetch(`${server.url}/api/auth/login`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: "x".repeat(8 * 1024 * 1024 + 1),
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ detail: expect.any(String) });
  });

  it("sets an HttpOnly, SameSite=Lax session cookie without Domain, Secure only over https", async () => {
    const cookie = await signIn(server.url);
    expect(cookie).toMatch(/^__session=/);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).not.toMatch(/Domain=/i);
    expect(cookie).not.toMatch(/Secure/i);
  });

  it("redirects trailing slashes on pages but not on the API", async () => {
    const page = await fetch(`${server.url}/admin/login/?a=1`, { redirect: "manual" });
    expect(page.status).toBe(301);
    expect(page.headers.get("location")).toBe("/admin/login?a=1");
    const api = await fetch(`${server.url}/api/auth/me/`);
    expect(api.status).toBe(401);
  });

  it("keeps users signed in across a restart and seeds nothing twice", async () => {
    const cookie = (await signIn(server.url)).split(";")[0];
    const before = await counts();
    expect(before).toMatchObject({ users: 3, categories: 8 });
    expect((before as any).articles).toBeGreaterThanOrEqual(24);

    const code = await server.stop("SIGTERM");
    expect(code).toBe(0);
    expect(server.output()).toContain("SIGTERM");
    server = await startServer({ dataDir, port: server.port });

    expect(await counts()).toEqual(before);
    const res = await fetch(`${server.url}/admin/dashboard`, { headers: { Cookie: cookie }, redirect: "manual" });
    expect(res.status).toBe(200);
  });

  it("ends the session on logout: the old cookie no longer opens the admin", async () => {
    const cookie = (await signIn(server.url)).split(";")[0];
    const out = await fetch(`${server.url}/admin/logout`, { method: "POST", redirect: "manual", headers: { Cookie: cookie, Origin: server.url } });
    expect(out.status).toBe(302);
    expect(out.headers.get("location")).toBe("/admin/login");
    const after = await fetch(`${server.url}/admin/dashboard`, { headers: { Cookie: cookie }, redirect: "manual" });
    expect(after.status).toBe(302);
    expect(after.headers.get("location")).toBe("/admin/login?redirectTo=%2Fadmin%2Fdashboard");
  });
});

describe("the production path without demo data", () => {
  it("creates only the admin from ADMIN_USERNAME/ADMIN_PASSWORD and the categories", async () => {
    const dir = mkdtempSync(join(tmpdir(), "news-prod-"));
    const prod = await startServer({ dataDir: dir, env: { SEED_DEMO: "0", ADMIN_USERNAME: "chief", ADMIN_PASSWORD: "a-long-secret" } });
    try {
      const login = await fetch(`${prod.url}/api/auth/login`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ username: "chief", password: "a-long-secret" }),
      });
      expect(login.status).toBe(200);
      const page = await (await fetch(`${prod.url}/admin/login`)).text();
      expect(page).not.toContain("Demo credentials");
      const demo = await fetch(`${prod.url}/api/auth/login`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ username: "admin", password: "admin123" }),
      });
      expect(demo.status).toBe(401);
    } finally {
      await prod.stop("SIGKILL");
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("says plainly when the data folder cannot be written", async () => {
    // A folder "inside" a regular file can never be created, whoever runs the test (even root).
    const file = join(mkdtempSync(join(tmpdir(), "news-file-")), "not-a-folder");
    writeFileSync(file, "");
    const attempt = startServer({ dataDir: join(file, "data") });
    await expect(attempt).rejects.toThrow(/Cannot write to the data folder .*not-a-folder\/data/);
    await expect(attempt).rejects.not.toThrow(/\n\s+at /); // no stack trace
  });
});

describe("maintenance mode", () => {
  it("closes the public site with a 503 page; staff, the admin and /healthz stay open", async () => {
    const dir = mkdtempSync(join(tmpdir(), "news-maint-"));
    const site = await startServer({ dataDir: dir });
    try {
      const cookie = (await signIn(site.url)).split(";")[0];
      const save = (maintenance: boolean) =>
        fetch(`${site.url}/admin/settings`, {
          method: "POST",
          redirect: "manual",
          headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: site.url, Cookie: cookie },
          body: new URLSearchParams({
            site_title: "Наука <UA>",
            site_description: "Опис",
            posts_per_page: "10",
            session_timeout: "60",
            max_login_attempts: "5",
            language: "uk-UA",
            robots: "index, follow",
            ...(maintenance ? { maintenance_mode: "on" } : {}),
          }),
        });
      expect((await save(true)).status).toBe(200);

      const reader = await fetch(`${site.url}/`);
      expect(reader.status).toBe(503);
      expect(reader.headers.get("cache-control")).toBe("no-store");
      const page = await reader.text();
      expect(page).toContain("Сайт на технічному обслуговуванні");
      expect(page).toContain("«Наука &#60;UA&#62;»"); // the site name, escaped
      expect((await fetch(`${site.url}/article/anything`)).status).toBe(503);

      expect((await fetch(`${site.url}/`, { headers: { Cookie: cookie } })).status).toBe(200);
      expect((await fetch(`${site.url}/admin/login`)).status).toBe(200);
      expect((await fetch(`${site.url}/healthz`)).status).toBe(200);
      expect((await fetch(`${site.url}/api/auth/me`)).status).toBe(401);
      // A made-up cookie is no way in.
      expect((await fetch(`${site.url}/`, { headers: { Cookie: "__session=forged" } })).status).toBe(503);

      expect((await save(false)).status).toBe(200);
      expect((await fetch(`${site.url}/`)).status).toBe(200);
    } finally {
      await site.stop("SIGKILL");
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
