import { beforeAll, describe, expect, it } from "vitest";
import { getSettings } from "../../app/models/settings.server";
import { createUser } from "../../app/models/user.server";
import { migrated, postJson, request } from "../helpers";

const tokens: Record<string, string> = {};
const post = (path: string, body: unknown, who = "editor") =>
  request(path, {
    method: "POST",
    headers: { Authorization: `Bearer ${tokens[who]}`, "Content-Type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });

describe("SEO submissions", () => {
  beforeAll(async () => {
    await migrated();
    for (const role of ["editor", "reporter"] as const) {
      await createUser({ username: `seo-${role}`, email: `${role}@example.com`, password: "correct-horse", role });
      tokens[role] = (await (await postJson("/api/auth/login", { username: `seo-${role}`, password: "correct-horse" })).json()).access_token;
    }
  });

  it("submits our own sitemap by default and records it", async () => {
    const res = await post("/api/seo/search-console/submit-sitemap", {});
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.detail).toBe("Sitemap submitted successfully!");
    expect(body.sitemap_url).toBe("http://localhost:3000/api/seo/sitemap.xml");
    const { items } = await getSettings("submissions");
    expect(items[0]).toMatchObject({ kind: "sitemap", url: body.sitemap_url, by: "seo-editor" });
  });

  it("submits a page of this site for indexing", async () => {
    const res = await post("/api/seo/submit-url", { url: "http://localhost:3000/article/some-story" });
    expect(res.status).toBe(200);
    expect((await res.json()).detail).toBe("URL submitted for indexing successfully!");
    expect((await getSettings("submissions")).items[0]).toMatchObject({ kind: "url", url: "http://localhost:3000/article/some-story" });
  });

  it("422 for another site's URL, an empty or a non-http URL; nothing recorded", async () => {
    const before = (await getSettings("submissions")).items.length;
    for (const url of ["https://evil.example/x", "", "javascript:alert(1)"]) {
      const res = await post("/api/seo/submit-url", { url });
      expect(res.status, url).toBe(422);
      expect((await res.json()).errors).toHaveProperty("url");
    }
    expect((await post("/api/seo/search-console/submit-sitemap", { sitemap_url: "https://evil.example/sitemap.xml" })).status).toBe(422);
    expect((await getSettings("submissions")).items.length).toBe(before);
  });

  it("401 anonymous, 403 for a reporter, 400 malformed JSON, 405 for GET", async () => {
    expect((await request("/api/seo/submit-url", { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" })).status).toBe(401);
    expect((await post("/api/seo/submit-url", { url: "http://localhost:3000/" }, "reporter")).status).toBe(403);
    expect((await post("/api/seo/search-console/submit-sitemap", {}, "reporter")).status).toBe(403);
    expect((await post("/api/seo/submit-url", "{oops")).status).toBe(400);
    expect((await request("/api/seo/submit-url")).status).toBe(405);
  });
});
