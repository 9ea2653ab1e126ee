// Issue 13: each class of fault that probing the live site found, tried with several variants
// against the real production server (SECURITY.md).
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contentDigest, onPostgres, rowOf } from "../database-of";
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

  // Issue 25: legal request targets that no browser sends to a server (RFC 9112 §3.2) were a 500.
  it("an absolute-form target is served as its path, OPTIONS * is answered, other non-path targets are 400", async () => {
    const slug = (await query<{ slug: string }>("select slug from articles where status = 'published' limit 1")).slug;
    const cases: [string, (status: number) => boolean][] = [
      ["GET http://evil.example/ HTTP/1.1", (s) => s === 200],
      ["GET http://evil.example HTTP/1.1", (s) => s === 200],
      [`GET https://news.example/article/${slug} HTTP/1.1`, (s) => s === 200],
      ["GET http://news.example/api/articles?limit=1 HTTP/1.1", (s) => s === 200],
      ["HEAD http://evil.example/search?q=%D0%BA%D0%BE%D1%81%D0%BC%D0%BE%D1%81 HTTP/1.1", (s) => s === 200],
      ["GET http://evil.example//evil.example/ HTTP/1.1", (s) => s >= 300 && s < 500],
      ["GET http://evil.example/%E0%A4%A HTTP/1.1", (s) => s === 400],
      ["GET http://evil.example/admin/ HTTP/1.1", (s) => s === 301],
      ["OPTIONS * HTTP/1.1", (s) => s === 204],
      ["GET * HTTP/1.1", (s) => s === 400],
      ["POST * HTTP/1.1", (s) => s === 400],
      ["GET ftp://evil.example/ HTTP/1.1", (s) => s === 400],
      ["GET evil.example:443 HTTP/1.1", (s) => s === 400],
    ];
    const wrong: string[] = [];
    for (const [line, ok] of cases) {
      const res = await raw([line]);
      if (!ok(res.status) || /\n\s+at .+:\d+:\d+/.test(res.body)) wrong.push(`${line}: ${res.status} ${res.body.slice(0, 80)}`);
      if (res.headers.location && new URL(res.headers.location, "https://news.example/x/y").host !== "news.example")
        wrong.push(`${line}: Location ${res.headers.location}`);
    }
    // The trailing-slash redirect of an absolute target keeps its path and query.
    const slash = await raw(["GET http://evil.example/admin/?a=1 HTTP/1.1"]);
    if (slash.headers.location !== "/admin?a=1") wrong.push(`trailing slash: Location ${slash.headers.location}`);
    expect(wrong).toEqual([]);
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

  it("the sign-out door's answer asks the browser to drop what the site stored (the editor's unsaved text, issue 25)", async () => {
    const cookie = await formSignIn("editor");
    for (const path of ["/admin/logout", "/admin/logout.data"]) {
      const res = await fetch(`${server.url}${path}`, { method: "POST", redirect: "manual", headers: { Cookie: cookie, Origin: server.url } });
      expect(res.status, path).toBeLessThan(400);
      expect(res.headers.get("clear-site-data"), path).toBe('"storage"');
    }
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

describe("11. no CORS for other origins", () => {
  it("the API and the pages send no Access-Control-* headers to another origin, preflight included", async () => {
    for (const path of ["/api/articles/", "/api/auth/login", "/api/homepage/public", "/"]) {
      for (const method of ["GET", "OPTIONS"]) {
        const res = await fetch(`${server.url}${path}`, {
          method,
          headers: { Origin: "https://evil.example", "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "authorization" },
        });
        expect(res.status, `${method} ${path}`).toBeLessThan(500);
        expect(
          [...res.headers.keys()].filter((h) => h.startsWith("access-control-")),
          `${method} ${path}`,
        ).toEqual([]);
      }
    }
  });
});

describe("13, 14. files and small ones", () => {
  it("news.db, its WAL and SHM, and the session secret are readable by the owner only", async () => {
    // On PostgreSQL the database's files are the server's business; the secret is still ours.
    for (const file of [...(onPostgres ? [] : ["news.db", "news.db-wal", "news.db-shm"]), "session-secret"]) {
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

// ---------------------------------------------------------------------------------------------
// Items 3, 4, 8, 9

const query = <T>(statement: string, ...params: unknown[]) => rowOf<T>(dataDir, statement, ...params);

/** The site's content: every table a forged request might change (views and sessions move on their own). */
async function digest(): Promise<string> {
  const everything = ["categories", "users", "media", "homepage_blocks", "settings", "tags", "article_tags", "slug_redirects"].map(
    (table) => [table, "*"] as const,
  );
  return JSON.stringify(
    await contentDigest(dataDir, [
      ["articles", "id, slug, title, subtitle, content, status, category_id, published_at, updated_at, featured_image, version"],
      ...everything,
    ]),
  );
}

async function bearer(username: string) {
  const res = await fetch(`${server.url}/api/auth/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ username, password: `${username}123` }),
  });
  expect(res.status).toBe(200);
  return `Bearer ${(await res.json()).access_token}`;
}

const BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36";

describe("3. embedded images are bounded per save and stored only when the save commits", () => {
  /** n distinct small PNGs as data URLs. */
  async function images(n: number, from = 0): Promise<string[]> {
    return Promise.all(
      Array.from({ length: n }, async (_, i) => {
        const png = await sharp({ create: { width: 3, height: 2, channels: 3, background: { r: (from + i) % 256, g: Math.floor((from + i) / 256), b: 7 } } })
          .png()
          .toBuffer();
        return `data:image/png;base64,${png.toString("base64")}`;
      }),
    );
  }
  const markdown = (urls: string[]) => ["Текст статті.", ...urls.map((u, i) => `![зображення ${i}](${u})`)].join("\n\n");
  const uploads = () => readdirSync(join(dataDir, "uploads")).sort();
  const mediaRows = async () => (await query<{ n: number }>("select count(*) n from media")).n;
  const category = async () => (await query<{ id: string }>("select id from categories order by name limit 1")).id;
  const TOO_MANY = "Забагато вбудованих зображень: не більше 20 за одне збереження";

  it("21 images are a 422 on the content field at both doors (JSON API and the editor form), and nothing is stored", async () => {
    // (The reporter is locked out from this address by the 429 test above.)
    const auth = await bearer("editor");
    const cookie = await formSignIn("editor");
    const files = uploads();
    const rows = await mediaRows();
    const twentyOne = await images(21, 100);
    // 21 in the content; 20 in the content plus a featured image.
    for (const [content, featured] of [
      [markdown(twentyOne), undefined],
      [markdown(twentyOne.slice(0, 20)), twentyOne[20]],
    ] as const) {
      const api = await fetch(`${server.url}/api/articles/`, {
        method: "POST",
        headers: { Authorization: auth, "Content-Type": "application/json" },
        body: JSON.stringify({ title: "Багато зображень", content, category_id: await category(), status: "draft", tags: [], featured_image: featured }),
      });
      expect(api.status).toBe(422);
      expect((await api.json()).errors.content).toContain(TOO_MANY);
      const form = new FormData();
      for (const [k, v] of Object.entries({
        title: "Багато зображень",
        content,
        category_id: await category(),
        intent: "draft",
        featured_image: featured ?? "",
      }))
        form.set(k, v);
      const screen = await fetch(`${server.url}/admin/articles/new`, {
        method: "POST",
        redirect: "manual",
        headers: { Origin: server.url, Cookie: cookie },
        body: form,
      });
      expect(screen.status).toBe(422);
      expect(await screen.text()).toContain(TOO_MANY);
    }
    expect(await mediaRows()).toBe(rows);
    expect(uploads()).toEqual(files);
  }, 60_000);

  it("a save refused after its images were stored (taken slug on create and on edit, a broken image) leaves no media rows and no files", async () => {
    const auth = await bearer("editor");
    const cookie = await formSignIn("editor");
    const taken = (await query<{ slug: string }>("select slug from articles where status = 'published' order by slug limit 1")).slug;
    const own = await fetch(`${server.url}/api/articles/`, {
      method: "POST",
      headers: { Authorization: auth, "Content-Type": "application/json" },
      body: JSON.stringify({ title: "Своя чернетка для перевірки", content: "Текст.", category_id: await category(), status: "draft", tags: [] }),
    });
    expect(own.status).toBe(201);
    const mine = (await own.json()) as { id: string; version: number };
    const files = uploads();
    const rows = await mediaRows();
    const before = await digest();

    const created = await fetch(`${server.url}/api/articles/`, {
      method: "POST",
      headers: { Authorization: auth, "Content-Type": "application/json" },
      body: JSON.stringify({
        title: "Зайнятий slug",
        slug: taken,
        content: markdown(await images(5, 200)),
        category_id: await category(),
        status: "draft",
        tags: [],
        featured_image: (await images(1, 300))[0],
      }),
    });
    expect(created.status).toBe(409);

    const updated = await fetch(`${server.url}/api/articles/${mine.id}`, {
      method: "PUT",
      headers: { Authorization: auth, "Content-Type": "application/json" },
      body: JSON.stringify({
        title: "Зайнятий slug",
        slug: taken,
        content: markdown(await images(4, 400)),
        category_id: await category(),
        status: "draft",
        tags: [],
      }),
    });
    expect(updated.status, await updated.clone().text()).toBe(409);

    const form = new FormData();
    for (const [k, v] of Object.entries({
      title: "Зайнятий slug",
      slug: taken,
      content: markdown(await images(3, 500)),
      category_id: await category(),
      status: "draft",
      intent: "save",
      version: String(mine.version),
    }))
      form.set(k, v);
    const screen = await fetch(`${server.url}/admin/articles/edit/${mine.id}`, {
      method: "POST",
      redirect: "manual",
      headers: { Origin: server.url, Cookie: cookie },
      body: form,
    });
    expect(screen.status).toBe(409);

    // Three good images, then one that is not an image: a 422, and the three are gone again.
    const broken = `data:image/png;base64,${Buffer.from("not an image at all").toString("base64")}`;
    const refused = await fetch(`${server.url}/api/articles/`, {
      method: "POST",
      headers: { Authorization: auth, "Content-Type": "application/json" },
      body: JSON.stringify({
        title: "Зламане зображення",
        content: markdown([...(await images(3, 600)), broken]),
        category_id: await category(),
        status: "draft",
        tags: [],
      }),
    });
    expect(refused.status).toBe(422);
    expect((await refused.json()).errors).toHaveProperty("content");

    expect(await mediaRows()).toBe(rows);
    expect(uploads()).toEqual(files);
    expect(await digest()).toBe(before);
  }, 60_000);

  it("20 images are stored: 20 media rows, the content points at /media/", async () => {
    const auth = await bearer("editor");
    const rows = await mediaRows();
    const res = await fetch(`${server.url}/api/articles/`, {
      method: "POST",
      headers: { Authorization: auth, "Content-Type": "application/json" },
      body: JSON.stringify({ title: "Двадцять зображень", content: markdown(await images(20, 700)), category_id: await category(), status: "draft", tags: [] }),
    });
    expect(res.status).toBe(201);
    const article = (await res.json()) as { content: string };
    expect(article.content).not.toContain("data:image");
    expect(article.content.match(/\/media\/[0-9a-f]{32}\.png/g)).toHaveLength(20);
    expect((await mediaRows()) - rows).toBe(20);
  }, 60_000);
});

describe("4. every action checks its intent against its own list: forged ones are 400 and change nothing", () => {
  const FORGED = ["toString", "constructor", "hasOwnProperty", "__proto__", "valueOf", "", undefined];

  it("as editor and admin, on every screen action", async () => {
    const article = await query<{ id: string; title: string }>("select id, title from articles where status = 'published' order by published_at desc limit 1");
    const cat = await query<{ id: string; name: string; slug: string }>("select id, name, slug from categories order by name limit 1");
    const user = await query<{ id: string }>("select id from users where username = 'reporter'");
    const media = await query<{ id: string } | undefined>("select id from media limit 1");
    const actions: { role: string; path: string; fields: Record<string, string> }[] = [
      { role: "editor", path: "/admin/articles", fields: { id: article.id, confirmed: "1" } },
      { role: "editor", path: "/admin/categories", fields: { id: cat.id, name: "Перейменовано", slug: "pereimenovano", description: "x", confirmed: "1" } },
      {
        role: "admin",
        path: "/admin/users",
        fields: { id: user.id, email: "forged@example.com", role: "admin", full_name: "Forged", username: "forged", password: "Very-long-pass-2026" },
      },
      { role: "editor", path: "/admin/homepage", fields: { blockId: "featured", articleId: article.id, index: "0", config: '{"blocks":[]}' } },
      { role: "editor", path: "/admin/seo/analytics", fields: { url: "https://news.example/article/x" } },
      { role: "editor", path: "/admin/media", fields: { ids: media?.id ?? "x" } },
      { role: "editor", path: "/admin/articles/new", fields: { title: "Підробка", content: "Текст", category_id: cat.id } },
      { role: "editor", path: `/admin/articles/edit/${article.id}`, fields: { title: "Підробка", content: "Текст", category_id: cat.id, status: "draft" } },
      // Issue 25: the profile (save, end a session, end the others) and two-factor (start, confirm, renew, turn off).
      { role: "editor", path: "/admin/profile", fields: { full_name: "Підробка", email: "forged@example.com", session: "x" } },
      { role: "editor", path: "/admin/profile/two-factor", fields: { code: "123456", password: "editor123" } },
    ];
    const cookies: Record<string, string> = { editor: await formSignIn("editor"), admin: await formSignIn("admin") };
    const before = await digest();
    for (const action of actions) {
      for (const intent of FORGED) {
        const body = new URLSearchParams(action.fields);
        if (intent !== undefined) body.set("intent", intent);
        const res = await fetch(`${server.url}${action.path}`, {
          method: "POST",
          redirect: "manual",
          headers: { Origin: server.url, Cookie: cookies[action.role] },
          body,
        });
        expect(res.status, `${action.path} intent=${String(intent)}`).toBe(400);
        expect(await res.text(), `${action.path} intent=${String(intent)}`).toContain("Невідома дія");
      }
      // The same as a single-fetch data request (what the hydrated screen sends).
      const data = await fetch(`${server.url}${action.path}.data`, {
        method: "POST",
        redirect: "manual",
        headers: { Origin: server.url, Cookie: cookies[action.role] },
        body: new URLSearchParams({ ...action.fields, intent: "toString" }),
      });
      expect(data.status, `${action.path}.data`).toBeLessThan(500);
    }
    expect(await digest()).toBe(before);
  }, 60_000);
});

describe("8. maintenance mode closes the public API too", () => {
  it("503 {detail} with Retry-After for readers on the public API; signed-in staff (bearer or cookie) pass", async () => {
    const cookie = await formSignIn("admin");
    const auth = await bearer("admin");
    const slug = (await query<{ slug: string }>("select slug from articles where status = 'published' limit 1")).slug;
    const settings = (maintenance: boolean) =>
      fetch(`${server.url}/admin/settings`, {
        method: "POST",
        redirect: "manual",
        headers: { Origin: server.url, Cookie: cookie },
        body: new URLSearchParams({
          site_title: "Наука UA",
          site_description: "Опис",
          posts_per_page: "10",
          session_timeout: "60",
          max_login_attempts: "5",
          language: "uk-UA",
          robots: "index, follow",
          ...(maintenance ? { maintenance_mode: "on" } : {}),
        }),
      });
    const publicApi = [
      "/api/homepage/public",
      "/api/articles/",
      "/api/articles",
      "/api/articles/?page=2",
      `/api/articles/slug/${slug}`,
      "/api/seo/sitemap.xml",
    ];
    // Issue 25: the same reads under other spellings that reach the same routes: single fetch's
    // `.data`, another case, percent-encoded letters, a trailing slash.
    const publicApiAliases = [
      "/api/articles.data",
      "/api/homepage/public.data",
      "/api/seo/sitemap.xml.data",
      `/api/articles/slug/${slug}.data`,
      "/api/Articles",
      "/API/ARTICLES",
      "/api/%61rticles",
      "/api/homepage/Public",
    ];
    // Public pages' data: single fetch's `.data` and the older `?_data=` form.
    const pageData = [
      "/_root.data",
      `/article/${slug}.data`,
      "/search.data?q=%D0%BA%D0%BE%D1%81%D0%BC%D0%BE%D1%81",
      "/category/technology.data",
      "/?_data=routes%2F_public._index",
      `/article/${slug}?_data=routes%2F_public.article.%24slug`,
    ];
    expect((await settings(true)).status).toBe(200);
    try {
      const open: string[] = [];
      for (const path of [...publicApiAliases, ...pageData]) {
        const res = await get(path);
        if (res.status !== 503 || res.headers["retry-after"] !== "600") open.push(`${path}: ${res.status}`);
        if (publicApiAliases.includes(path) && !res.body.includes(`"detail"`)) open.push(`${path}: not {detail}`);
        const staff = await fetch(`${server.url}${path}`, { headers: { Cookie: cookie } });
        if (staff.status !== 200) open.push(`staff ${path}: ${staff.status}`);
      }
      // Paths that look like the admin but resolve to a public page (dot segments, raw or encoded).
      for (const path of [`/admin/../article/${slug}`, `/admin/%2e%2e/article/${slug}`, `/api/..%2F../article/${slug}`, "/admin/../_root.data"]) {
        const res = await get(path);
        if (res.status !== 503 && !(res.status >= 400 && res.status < 500)) open.push(`${path}: ${res.status}`);
      }
      expect(open).toEqual([]);
      for (const path of publicApi) {
        const res = await fetch(`${server.url}${path}`);
        expect(res.status, path).toBe(503);
        expect(res.headers.get("retry-after"), path).toBe("600");
        expect(res.headers.get("cache-control"), path).toBe("no-store");
        expect(await res.json(), path).toEqual({ detail: "Сайт на технічному обслуговуванні. Спробуйте трохи згодом." });
        expect((await fetch(`${server.url}${path}`, { headers: { Authorization: auth } })).status, path).toBe(200);
        expect((await fetch(`${server.url}${path}`, { headers: { Cookie: cookie } })).status, path).toBe(200);
        expect((await fetch(`${server.url}${path}`, { headers: { Authorization: "Bearer forged" } })).status, path).toBe(503);
      }
      // The public pages as before; the staff API and sign-in stay open.
      expect((await fetch(`${server.url}/sitemap.xml`)).status).toBe(503);
      expect((await fetch(`${server.url}/api/auth/me`)).status).toBe(401);
      expect((await fetch(`${server.url}/api/categories/`)).status).toBe(401);
    } finally {
      expect((await settings(false)).status).toBe(200);
    }
    for (const path of publicApi) expect((await fetch(`${server.url}${path}`)).status, path).toBe(200);
  });
});

describe("9. a view is counted once per reader and article in VIEW_REPEAT_MINUTES", () => {
  it("many GETs from one address count one view: page, .data, by id and track-view alike; another address counts", async () => {
    const article = await query<{ id: string; slug: string }>(
      "select id, slug from articles where status = 'published' order by published_at desc limit 1 offset 2",
    );
    const views = async () => (await query<{ views: number }>("select views from articles where id = ?", article.id)).views;
    await new Promise((r) => setTimeout(r, 1_500));
    const before = await views();
    const from = (ip: string) => [`User-Agent: ${BROWSER}`, `X-Forwarded-For: ${ip}`];
    for (let i = 0; i < 15; i++) {
      expect((await get(`/article/${article.slug}`, from("198.51.100.9"))).status).toBe(200);
      expect((await get(`/article/${article.slug}.data`, from("198.51.100.9"))).status).toBe(200);
      expect((await get(`/article/${article.id}`, from("198.51.100.9"))).status).toBeLessThan(400);
      const track = await fetch(`${server.url}/api/analytics/track-view`, {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-Forwarded-For": "198.51.100.9", "User-Agent": BROWSER },
        body: JSON.stringify({ article_id: article.id }),
      });
      expect(await track.json()).toMatchObject({ counted: false });
    }
    // Another reader: by id first, then the page; counted once.
    await get(`/article/${article.id}`, from("198.51.100.10"));
    await get(`/article/${article.slug}`, from("198.51.100.10"));
    // A third reader through track-view first, then the page.
    const first = await fetch(`${server.url}/api/analytics/track-view`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Forwarded-For": "198.51.100.11", "User-Agent": BROWSER },
      body: JSON.stringify({ article_id: article.id }),
    });
    expect(await first.json()).toMatchObject({ counted: true });
    await get(`/article/${article.slug}`, from("198.51.100.11"));
    await new Promise((r) => setTimeout(r, 1_600)); // one batch a second
    expect((await views()) - before).toBe(3);
  });
});
