// Property test (issue 13, SECURITY.md 'API and input'): generated malformed paths, query strings,
// headers and bodies go to every route of the route table, as each role, against the real
// production server. Whatever arrives, the answer is never a 5xx, never carries a stack trace, and
// the content of the database does not change (a forged request changes nothing), and no redirect
// leaves the site. FUZZ_RUNS sets the number of generated requests (the default keeps the file
// under a minute in `npm test`; a long run: FUZZ_RUNS=5000 npx vitest run tests/integration/fuzz.test.ts).
//
// Requests go over a raw socket, so a path reaches the server exactly as generated (fetch would
// normalise `..`, backslashes and bad percent-encoding away before sending).
import { mkdtempSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import * as fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contentDigest, rowsOf } from "../database-of";
import { startServer, type RunningServer } from "../server-process";

const RUNS = Number(process.env.FUZZ_RUNS ?? 1000);
const PUBLIC_URL = "https://news.example";

interface RawResponse {
  status: number;
  head: string;
  body: string;
}

/** One HTTP/1.1 request written byte for byte; the answer read until the server closes. */
function rawRequest(port: number, lines: string[], body = ""): Promise<RawResponse> {
  return new Promise((resolveResponse, reject) => {
    const socket = connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    socket.setTimeout(15_000, () => socket.destroy(new Error(`timeout: ${lines[0]}`)));
    socket.on("data", (c) => chunks.push(c));
    socket.on("error", reject);
    socket.on("close", () => {
      const text = Buffer.concat(chunks).toString("latin1");
      const [head, ...rest] = text.split("\r\n\r\n");
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0);
      resolveResponse({ status, head, body: Buffer.from(rest.join("\r\n\r\n"), "latin1").toString("utf8") });
    });
    const bytes = Buffer.from(body, "utf8");
    socket.write(Buffer.concat([Buffer.from([...lines, `Content-Length: ${bytes.length}`, "Connection: close", "", ""].join("\r\n"), "latin1"), bytes]));
  });
}

let server: RunningServer;
let dataDir: string;
let routes: string[] = [];
let ids: string[] = [];
const roles: Record<string, { bearer?: string; cookie?: string }> = { anonymous: {} };

/**
 * A request that may change the site when it is accepted: the bodiless staff actions (DELETE,
 * publish, unpublish, submit for review, a preview link, an autosave, a restore, submit the sitemap)
 * do exactly what they are for when the generator happens to hit them with a real id. Everything else the generator makes is forged or malformed.
 */
function mayChange(method: string, path: string, status: number): boolean {
  if (status >= 400) return false;
  const bare = path.split("?")[0].replace(/\/+$/, "");
  // The editorial desk's bodiless or optional-body calls (issues 14, 15) do their job too.
  const deskCall = /^\/api\/articles\/[^/]+\/(publish|unpublish|submit|preview-link|autosave|revisions\/[^/]+\/restore)$/;
  return method === "DELETE" || (["POST", "PUT"].includes(method) && (deskCall.test(bare) || bare === "/api/seo/search-console/submit-sitemap"));
}

/**
 * What the content of the site is: a hash per table a forged request might change (views and
 * sessions move on their own), so a failure names the table.
 */
function digest(): Promise<Record<string, string>> {
  return contentDigest(dataDir, [
    ["articles", "id, slug, title, subtitle, content, status, category_id, author_id, published_at, updated_at, featured_image, seo_title, seo_description"],
    ["categories", "id, name, slug, description"],
    ["users", "id, username, email, role, is_active, password_hash, name, bio"],
    ["media", "id, file_name"],
    ["homepage_blocks", "*"],
    ["settings", "key, value"],
    ["tags", "*"],
    ["article_tags", "*"],
    ["slug_redirects", "*"],
  ]);
}

const MALFORMED_SEGMENTS = [
  "%E0%A4%A",
  "%ZZ",
  "%",
  "%c0%af",
  "..%c0%af",
  "..%2f..%2f",
  "%2e%2e",
  "..",
  "%00",
  "%0d%0aSet-Cookie:%20x=1",
  "\\",
  "%5c",
  "__proto__",
  "constructor",
  "toString",
  "%F0%9F%92",
  "a".repeat(2500),
];
const ODD_VALUES = [
  "//evil.example",
  "/\\evil.example",
  "/%2F%2Fevil.example",
  "/admin/../..//evil.example",
  "%0d%0a",
  "\r\nX-Injected: 1",
  "-1",
  "1e309",
  "NaN",
  "",
  "[]",
  "{}",
  "<script>alert(1)</script>",
];
const FORGED_INTENTS = ["toString", "constructor", "__proto__", "hasOwnProperty", "valueOf", "isPrototypeOf", "DELETE", "publishAll", ""];
const QUERY_KEYS = ["page", "q", "status", "back", "redirectTo", "view", "limit", "skip", "index", "_data", "sort", "category_id", "type"];

const segment = () =>
  fc.oneof(
    fc.constantFrom(...MALFORMED_SEGMENTS),
    fc.constantFrom(...(ids.length ? ids : ["x"])),
    fc.string({ maxLength: 12 }).map((s) => encodeURIComponent(s)),
    fc.stringMatching(/^[a-z0-9-]{1,24}$/),
  );

const value = () => fc.oneof(fc.constantFrom(...ODD_VALUES), fc.constantFrom(...(ids.length ? ids : ["x"])), fc.string({ maxLength: 16 }));

/** A path of the route table with its params filled by odd segments, or a path that starts oddly. */
const path = () =>
  fc.oneof(
    {
      weight: 8,
      arbitrary: fc
        .tuple(fc.constantFrom(...routes), fc.array(segment(), { minLength: 4, maxLength: 4 }), fc.boolean())
        .map(([route, segs, slash]) => route.replace(/:[a-z]+|\*/gi, () => segs.shift() ?? "x") + (slash ? "/" : "")),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(
          fc.constantFrom("//evil.example", "/\\evil.example", "/%2f%2fevil.example", "/..%c0%af", "/%5c%5cevil.example", "/media", "/media/", "/build/..%2f"),
          segment(),
        )
        .map(([a, b]) => `${a}/${b}`),
    },
  );

const query = () =>
  fc.option(
    fc
      .array(fc.tuple(fc.constantFrom(...QUERY_KEYS), value()), { maxLength: 3 })
      .map((pairs) => "?" + pairs.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join("&")),
    { nil: "" },
  );

/** A body no action should accept: forged intents, wrong types, malformed JSON, prototype keys. */
const body = () =>
  fc.oneof(
    fc
      .record({
        intent: fc.constantFrom(...FORGED_INTENTS),
        id: value(),
        ids: value(),
        confirmed: fc.constantFrom("1", ""),
        back: value(),
        redirectTo: value(),
      })
      .map((fields) => ({ type: "application/x-www-form-urlencoded", text: new URLSearchParams(fields).toString() })),
    fc
      .constantFrom('{"title":', "[1,2", "nul", '{"__proto__":{"role":"admin"}}', '{"constructor":{"prototype":{"x":1}}}', "\u0000")
      .map((text) => ({ type: "application/json", text })),
    fc
      .record({
        title: fc.constantFrom(1, [], {}, null),
        name: fc.constantFrom(2, [], true),
        blocks: fc.constantFrom("x", 3, [{ id: "__proto__" }]),
        password: fc.constantFrom({}, 7),
        url: fc.constantFrom(5, "javascript:alert(1)"),
      })
      .map((o) => ({ type: "application/json", text: JSON.stringify(o) })),
    fc.constantFrom(
      { type: "multipart/form-data; boundary=x", text: '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\nb' },
      { type: "text/plain", text: "hello" },
    ),
  );

/** Odd request headers besides the role's own credentials (which still come first). */
const ODD_HEADERS = [
  "Cookie: __session=forged; __session=%E0%A4%A",
  "Cookie: __proto__=1; constructor=2",
  "Authorization: Bearer ",
  "Authorization: Basic YWRtaW46YWRtaW4xMjM=",
  "Authorization: Bearer %00%0d%0a",
  "X-Forwarded-For: not-an-address, 999.1.1.1",
  "X-Forwarded-Host: evil.example",
  "X-Forwarded-Proto: gopher",
  "Accept: application/json",
  "Accept: */*;q=abc",
  "Accept-Encoding: gzip;q=2, br, zstd",
  'If-None-Match: W/"x", *',
  "If-Modified-Since: yesterday",
  "Range: bytes=9999999-1",
  "Purpose: prefetch",
  "Sec-Purpose: prefetch;prerender",
  "Referer: https://evil.example/x",
  "Content-Language: ../../etc",
];

const request = () =>
  fc.record({
    headers: fc.subarray(ODD_HEADERS, { maxLength: 3 }),
    role: fc.constantFrom(...Object.keys(roles)),
    method: fc.constantFrom("GET", "GET", "HEAD", "POST", "POST", "PUT", "DELETE", "PATCH"),
    path: path(),
    query: query(),
    body: body(),
    // A proxy that rewrites Host (nginx's default passes the upstream address), or a forged one.
    host: fc.constantFrom("public", "upstream", "forged"),
  });

describe("every route, as every role, with malformed input (property test)", () => {
  beforeAll(async () => {
    const build = (await import(pathToFileURL(resolve("build/remix/index.js")).href)) as {
      assets: { routes: Record<string, { path?: string; parentId?: string }> };
    };
    const all = build.assets.routes;
    const full = (id: string): string => {
      const route = all[id];
      const parent = route.parentId ? full(route.parentId) : "";
      return route.path ? `${parent}/${route.path}`.replace(/\/+/g, "/") : parent;
    };
    // Logout is left out for signed-in roles: ending their own session is what it is for.
    routes = [...new Set(Object.keys(all).map((id) => full(id) || "/"))].filter((p) => !p.endsWith("/logout"));

    dataDir = mkdtempSync(join(tmpdir(), "news-fuzz-"));
    server = await startServer({ dataDir, env: { PUBLIC_URL, SEED_DEMO: "1" } });
    for (const [role, password] of [
      ["admin", "admin123"],
      ["editor", "editor123"],
      ["reporter", "reporter123"],
    ]) {
      const api = await fetch(`${server.url}/api/auth/login`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ username: role, password }),
      });
      const form = await fetch(`${server.url}/admin/login`, {
        method: "POST",
        headers: { Origin: server.url },
        body: new URLSearchParams({ username: role, password }),
        redirect: "manual",
      });
      roles[role] = { bearer: (await api.json()).access_token, cookie: (form.headers.get("set-cookie") ?? "").split(";")[0] };
    }
    const idsOf = async (text: string) => (await rowsOf<{ id: string }>(dataDir, text)).map((r) => r.id);
    ids = [
      ...(await idsOf("select id from articles order by status, created_at limit 6")),
      ...(await idsOf("select slug as id from articles where status = 'published' limit 2")),
      ...(await idsOf("select id from categories limit 2")),
      ...(await idsOf("select id from users")),
    ];
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it("answers no 5xx, shows no stack trace and changes nothing", async () => {
    let before = await digest();
    let previous = "";
    await fc.assert(
      fc.asyncProperty(request(), async (r) => {
        const who = roles[r.role];
        const host = r.host === "public" ? "news.example" : r.host === "upstream" ? `127.0.0.1:${server.port}` : "evil.example";
        const lines = [
          `${r.method} ${r.path}${r.query} HTTP/1.1`,
          `Host: ${host}`,
          `Origin: ${PUBLIC_URL}`,
          "User-Agent: Mozilla/5.0 (X11; Linux x86_64) fuzz",
        ];
        const api = r.path.startsWith("/api/");
        if (api && who.bearer) lines.push(`Authorization: Bearer ${who.bearer}`);
        if (!api && who.cookie) lines.push(`Cookie: ${who.cookie}`);
        // Odd headers after the role's own (a second Cookie or Authorization line is merged or ignored).
        lines.push(...r.headers);
        const hasBody = !["GET", "HEAD"].includes(r.method);
        if (hasBody) lines.push(`Content-Type: ${r.body.type}`);
        const res = await rawRequest(server.port, lines, hasBody ? r.body.text : "");
        const where = `${r.role} ${lines[0]} (Host ${host})${hasBody ? ` ${r.body.type} ${r.body.text.slice(0, 200)}` : ""}`;
        expect(res.status, `${where} → ${res.head.split("\r\n")[0]} ${res.body.slice(0, 300)}`).toBeGreaterThanOrEqual(200);
        expect(res.status, `${where} → ${res.body.slice(0, 300)}`).toBeLessThan(500);
        expect(res.body, where).not.toMatch(/\n\s+at [^\n]+:\d+:\d+|node_modules\//);
        // No redirect leaves the site.
        const location = /\r\nlocation: ([^\r\n]*)/i.exec(res.head)?.[1];
        if (location) expect(new URL(location, `${PUBLIC_URL}/a/b`).host, `${where} → Location ${location}`).toBe("news.example");
        const after = await digest();
        if (!mayChange(r.method, r.path, res.status))
          expect(
            after,
            `${where} → ${res.status} changed ${Object.keys(after).filter((t) => after[t] !== before[t])} (the request before: ${previous})`,
          ).toEqual(before);
        before = after;
        previous = where;
      }),
      { numRuns: RUNS, endOnFailure: true },
    );
  }, 240_000);
});
