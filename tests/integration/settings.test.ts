import { beforeAll, describe, expect, it } from "vitest";
import { getSettings, getSiteSettings, saveSiteSettings, SettingsFormSchema } from "../../app/models/settings.server";
import { createUser } from "../../app/models/user.server";
import { parseForm } from "../../app/utils/forms.server";
import { db } from "../../db/index";
import { migrated, postJson, request, TEST_ACTOR } from "../helpers";

const tokens: Record<string, string> = {};
const put = (body: unknown, who = "admin") =>
  request("/api/seo/settings", {
    method: "PUT",
    headers: { Authorization: `Bearer ${tokens[who]}`, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });

describe("settings", () => {
  beforeAll(async () => {
    await migrated();
    for (const role of ["admin", "editor", "reporter"] as const) {
      await createUser({ username: `s-${role}`, email: `${role}@example.com`, password: "correct-horse", role });
      tokens[role] = (await (await postJson("/api/auth/login", { username: `s-${role}`, password: "correct-horse" })).json()).access_token;
    }
  });

  it("reads SPEC §9 defaults before anything is saved", async () => {
    const s = await getSiteSettings();
    expect(s.general.maintenance_mode).toBe(false);
    expect(s.content).toEqual({ posts_per_page: 10, allow_comments: false, moderation_required: true, comment_max_links: 2, comment_blocklist: "" });
    expect(s.seo).toMatchObject({ language: "uk-UA", robots: "index, follow" });
    expect(s.integrations.analytics_enabled).toBe(true);
    expect(s.security).toEqual({ session_timeout: 60, max_login_attempts: 5, two_factor_required: "nobody" });
  });

  it("GET /api/seo/settings returns the eight fields under data", async () => {
    const res = await request("/api/seo/settings", { headers: { Authorization: `Bearer ${tokens.editor}` } });
    expect(res.status).toBe(200);
    expect(Object.keys((await res.json()).data).sort()).toEqual([
      "canonical_url",
      "language",
      "og_image",
      "robots",
      "site_description",
      "site_keywords",
      "site_title",
      "twitter_handle",
    ]);
  });

  it("PUT changes the given fields and keeps the others; unknown fields are ignored", async () => {
    const res = await put({ site_title: "Наука сьогодні", robots: "noindex, nofollow", maintenance_mode: true });
    expect(res.status).toBe(200);
    const { data } = await res.json();
    expect(data).toMatchObject({ site_title: "Наука сьогодні", robots: "noindex, nofollow", language: "uk-UA" });
    expect((await getSettings("general")).maintenance_mode).toBe(false);
  });

  it("422 with the SPEC messages, and nothing written", async () => {
    const before = await db.selectFrom("settings").selectAll().where("key", "=", "seo").executeTakeFirstOrThrow();
    const res = await put({ site_title: "  ", site_description: "", og_image: "javascript:alert(1)", robots: "follow me" });
    expect(res.status).toBe(422);
    const { errors } = await res.json();
    expect(errors).toMatchObject({ site_title: "Site name is required", site_description: "Description is required" });
    expect(Object.keys(errors).sort()).toEqual(["og_image", "robots", "site_description", "site_title"]);
    expect(await db.selectFrom("settings").selectAll().where("key", "=", "seo").executeTakeFirstOrThrow()).toEqual(before);
  });

  it("401 anonymous, 403 for editor and reporter on PUT, 403 for reporter on GET", async () => {
    expect((await request("/api/seo/settings")).status).toBe(401);
    expect((await put({ site_title: "x" }, "editor")).status).toBe(403);
    expect((await put({ site_title: "x" }, "reporter")).status).toBe(403);
    expect((await request("/api/seo/settings", { headers: { Authorization: `Bearer ${tokens.reporter}` } })).status).toBe(403);
  });

  it("400 for malformed JSON, 415 for a form body", async () => {
    expect(
      (
        await request("/api/seo/settings", {
          method: "PUT",
          headers: { Authorization: `Bearer ${tokens.admin}`, "Content-Type": "application/json" },
          body: "{",
        })
      ).status,
    ).toBe(400);
    expect(
      (await request("/api/seo/settings", { method: "PUT", headers: { Authorization: `Bearer ${tokens.admin}` }, body: new URLSearchParams({ a: "b" }) }))
        .status,
    ).toBe(415);
  });

  it("parses the settings form (unchecked boxes are false) and validates every group", async () => {
    const form = new FormData();
    for (const [k, v] of Object.entries({
      site_title: "Наука",
      site_description: "Опис",
      posts_per_page: "20",
      session_timeout: "30",
      max_login_attempts: "3",
      two_factor_required: "admin-editor",
      language: "en-US",
      robots: "index, follow",
      admin_email: "chief@example.com",
      analytics_enabled: "on",
    }))
      form.set(k, v);
    const ok = parseForm(SettingsFormSchema, form);
    expect(ok.ok).toBe(true);
    if (!ok.ok) return;
    expect(ok.data.content).toEqual({ posts_per_page: 20, allow_comments: false, moderation_required: false, comment_max_links: 2, comment_blocklist: "" });
    expect(ok.data.security).toEqual({ session_timeout: 30, max_login_attempts: 3, two_factor_required: "admin-editor" });
    await saveSiteSettings(ok.data, TEST_ACTOR);
    expect((await getSettings("security")).max_login_attempts).toBe(3);

    form.set("posts_per_page", "7");
    form.set("admin_email", "nope");
    form.set("site_url", "ftp://x");
    form.set("two_factor_required", "interns");
    const bad = parseForm(SettingsFormSchema, form);
    expect(bad.ok).toBe(false);
    if (bad.ok) return;
    expect(Object.keys(bad.errors).sort()).toEqual(["admin_email", "posts_per_page", "site_url", "two_factor_required"]);
    expect(bad.errors.two_factor_required).toBe("Оберіть, для кого двофакторна перевірка обов'язкова");
    expect(bad.errors.admin_email).toBe("Невірний формат email");
  });
});
