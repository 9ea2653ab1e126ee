// Issue 29 items 3–5 (DESIGN §16) through the real production server: an embargoed article that no
// role and no door can publish early (JSON API: PUT, publish; the editor's form without JavaScript;
// the desk's schedule form; the article list's bulk action), going out at the embargo when scheduled
// for it; corrections on the page, in JSON-LD, on /corrections and its RSS (kept in the page store
// and refreshed); sources with good and bad DOIs; the Crossref lookup against a local HTTP server
// answering like Crossref, and one that does not answer in time.
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isoToKyivLocal } from "../../app/utils/dates";
import { rowOf } from "../database-of";
import { startServer, type RunningServer } from "../server-process";
import { apiSend, apiSignIn, ARTICLE_TEXT, firstCategoryId, formSend, formSignIn, REQUEST_TIMEOUT_MS, type Staff } from "../staff-client";

type Role = "reporter" | "editor" | "admin";
const dataDir = mkdtempSync(join(tmpdir(), "news-science-"));
let server: RunningServer;
let crossref: Server;
const crossrefHits: string[] = [];
const api = {} as Record<Role, Staff>;
const form = {} as Record<Role, Staff>;
let categoryId = "";

const EARLY = /під ембарго до .* не можна опублікувати раніше/;
const inSeconds = (s: number) => new Date(Date.now() + s * 1000).toISOString();
const status = async (id: string) => (await rowOf<{ status: string }>(dataDir, "select status from articles where id = ?", id)).status;

let counter = 0;
async function article(role: Role, extra: Record<string, unknown> = {}) {
  const title = `Наукова стаття ${++counter} ${Date.now()}`;
  const res = await apiSend(api[role], "POST", "/api/articles/", { title, content: ARTICLE_TEXT, category_id: categoryId, status: "draft", ...extra });
  expect(res.status, JSON.stringify(res.json)).toBe(201);
  return res.json as { id: string; slug: string; title: string; version: number; embargo_until: string | null };
}

/** The editor's form without JavaScript, with repeated fields (the sources table). */
async function editorPost(staff: Staff, path: string, pairs: [string, string][]) {
  const res = await fetch(`${server.url}${path}`, {
    method: "POST",
    headers: staff.auth,
    body: new URLSearchParams(pairs),
    redirect: "manual",
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  return { status: res.status, location: res.headers.get("location"), text: await res.text() };
}

const editorFields = (a: { title: string; version: number; content?: string }, extra: [string, string][] = []): [string, string][] => [
  ["title", a.title],
  ["content", a.content ?? ARTICLE_TEXT],
  ["category_id", categoryId],
  ["status", "draft"],
  ["version", String(a.version)],
  ["science", "1"],
  ...extra,
];

const sourceRow = (r: Partial<Record<"kind" | "doi" | "title" | "publisher" | "year" | "review" | "url", string>>): [string, string][] =>
  (["kind", "doi", "title", "publisher", "year", "review", "url"] as const).map((f) => [`source_${f}`, r[f] ?? (f === "kind" ? "study" : "")]);

beforeAll(async () => {
  // A local stand-in for api.crossref.org: /works/{doi} answers like Crossref; one DOI never in time.
  crossref = createServer((req, res) => {
    const doi = decodeURIComponent((req.url ?? "").replace(/^\/works\//, ""));
    crossrefHits.push(doi);
    if (doi === "10.5555/slow") return void setTimeout(() => res.end("{}"), 3_000);
    if (doi !== "10.1101/2024.05.01.592000") {
      res.writeHead(404, { "Content-Type": "text/plain" });
      return void res.end("Resource not found.");
    }
    res.writeHead(200, { "Content-Type": "application/json" });
    res.end(
      JSON.stringify({
        status: "ok",
        "message-type": "work",
        message: {
          DOI: "10.1101/2024.05.01.592000",
          type: "posted-content",
          title: ["Тестовий препринт про <b>клітини</b>"],
          "container-title": [],
          institution: [{ name: "bioRxiv" }],
          publisher: "Cold Spring Harbor Laboratory",
          issued: { "date-parts": [[2024, 5, 3]] },
          URL: "https://doi.org/10.1101/2024.05.01.592000",
        },
      }),
    );
  });
  await new Promise<void>((r) => crossref.listen(0, "127.0.0.1", r));
  const port = (crossref.address() as AddressInfo).port;
  server = await startServer({
    dataDir,
    env: { CROSSREF_LOOKUP: "1", CROSSREF_URL: `http://127.0.0.1:${port}`, CROSSREF_TIMEOUT_MS: "500" },
  });
  for (const role of ["reporter", "editor", "admin"] as const) {
    api[role] = await apiSignIn(server.url, role, `${role}123`);
    form[role] = await formSignIn(server.url, role, `${role}123`);
  }
  categoryId = await firstCategoryId(api.admin);
}, 120_000);

afterAll(async () => {
  await server?.stop("SIGKILL");
  await new Promise((r) => crossref?.close(r));
  rmSync(dataDir, { recursive: true, force: true });
});

describe("an embargo no role and no door can break", () => {
  it("refuses the JSON API, the editor's form, the desk's schedule and the bulk action, with a Ukrainian message", async () => {
    const until = inSeconds(7200);
    const a = await article("reporter", { embargo_until: until, embargo_note: "Nature, 16:00 Лондон" });
    expect(a.embargo_until).toBe(until);
    for (const role of ["editor", "admin"] as const) {
      const put = await apiSend(api[role], "PUT", `/api/articles/${a.id}`, {
        title: a.title,
        content: ARTICLE_TEXT,
        category_id: categoryId,
        status: "published",
      });
      expect(put.status).toBe(409);
      expect(put.json.detail).toMatch(EARLY);
      expect(put.json.errors.status).toMatch(EARLY);
      const publish = await apiSend(api[role], "POST", `/api/articles/${a.id}/publish`);
      expect(publish.status).toBe(409);
      expect(publish.json.detail).toMatch(EARLY);
      const schedule = await apiSend(api[role], "POST", `/api/articles/${a.id}/publish`, { publish_at: inSeconds(3600) });
      expect(schedule.status).toBe(422);
      expect(schedule.json.errors.publish_at).toMatch(/не можна запланувати раніше/);
      const created = await apiSend(api[role], "POST", "/api/articles/", {
        title: `x ${role}`,
        content: "x",
        category_id: categoryId,
        status: "published",
        embargo_until: until,
      });
      expect(created.status).toBe(409);

      // The editor's form without JavaScript: "Опублікувати" answers the message on the page.
      const current = (await apiSend(api[role], "GET", `/api/articles/${a.id}`)).json;
      const screen = await editorPost(form[role], `/admin/articles/edit/${a.id}`, [
        ...editorFields(current, [
          ["embargo_local", isoToKyivLocal(until)],
          ["embargo_note", "Nature"],
        ]),
        ["intent", "publish"],
      ]);
      expect(screen.status).toBe(409);
      expect(screen.text).toMatch(/під ембарго до .* не можна опублікувати раніше/);
      // The desk's form: publish now, and a time before the embargo.
      const now = await formSend(form[role], `/admin/articles/desk/${a.id}`, { intent: "schedule", when: "now" });
      expect(now.status).toBe(409);
      const before = await formSend(form[role], `/admin/articles/desk/${a.id}`, {
        intent: "schedule",
        when: "at",
        publish_at_local: isoToKyivLocal(inSeconds(3600)),
      });
      expect(before.status).toBe(422);
      expect(before.text).toMatch(/не можна запланувати раніше/);
      // The article list's bulk action, all or nothing.
      const other = await article("editor");
      const bulk = await formSend(form[role], "/admin/articles", {
        intent: "bulk",
        bulk_action: "publish",
        ids: `${other.id},${a.id}`,
        confirmed: "1",
        back: "/admin/articles",
      });
      expect(bulk.status).toBe(409);
      expect(bulk.text).toMatch(/Нічого не змінено: Статтю під ембарго/);
      expect(await status(other.id)).toBe("draft");
    }
    // A reporter may not lift it to get round it.
    const lift = await apiSend(api.reporter, "PUT", `/api/articles/${a.id}`, {
      title: a.title,
      content: ARTICLE_TEXT,
      category_id: categoryId,
      status: "draft",
      embargo_until: null,
    });
    expect(lift.status).toBe(403);
    expect(await status(a.id)).toBe("draft");
    // Nothing of it is public.
    expect((await fetch(`${server.url}/article/${a.slug}`)).status).toBe(404);

    // The dashboard and the article list show what lifts next.
    const dashboard = await (await fetch(`${server.url}/admin/dashboard`, { headers: form.reporter.auth })).text();
    expect(dashboard).toContain("Ембарго: що знімається найближче");
    expect(dashboard).toContain(a.title);
    const list = await (await fetch(`${server.url}/admin/articles`, { headers: form.editor.auth })).text();
    expect(list).toMatch(/Ембарго до/);

    // A preview link says so in a banner.
    const link = await apiSend(api.editor, "POST", `/api/articles/${a.id}/preview-link`);
    const preview = await (await fetch(link.json.url.replace(/^https?:\/\/[^/]+/, server.url))).text();
    expect(preview).toContain("ПІД ЕМБАРГО до");
  }, 120_000);

  it("a schedule at the embargo time goes out then, by itself", async () => {
    const until = inSeconds(4);
    const a = await article("editor", { embargo_until: until });
    const scheduled = await apiSend(api.editor, "POST", `/api/articles/${a.id}/publish`, { publish_at: until });
    expect(scheduled.status, JSON.stringify(scheduled.json)).toBe(200);
    expect(scheduled.json.status).toBe("scheduled");
    expect(await status(a.id)).toBe("scheduled");
    const deadline = Date.parse(until) + 8_000;
    while ((await status(a.id)) !== "published" && Date.now() < deadline) await new Promise((r) => setTimeout(r, 300));
    expect(await status(a.id)).toBe("published");
    expect(Date.now()).toBeGreaterThanOrEqual(Date.parse(until));
    expect((await fetch(`${server.url}/article/${a.slug}`)).status).toBe(200);
  }, 30_000);
});

describe("corrections", () => {
  it("need a note, show on the article and in its JSON-LD, are listed with RSS and kept in the history", async () => {
    const a = await article("editor");
    const published = await apiSend(api.editor, "POST", `/api/articles/${a.id}/publish`);
    expect(published.status).toBe(200);
    // /corrections is kept in the page store (anonymous), and refreshed by a correction.
    await fetch(`${server.url}/corrections`);
    const stored = await fetch(`${server.url}/corrections`);
    expect(stored.headers.get("x-cache")).toBe("HIT");

    const body = { title: a.title, content: `${ARTICLE_TEXT}\n\nВиправлений абзац.`, category_id: categoryId, status: "published" };
    const missing = await apiSend(api.editor, "PUT", `/api/articles/${a.id}`, { ...body, correction: true, correction_note: "  " });
    expect(missing.status).toBe(422);
    expect(missing.json.errors.correction_note).toBe("Опишіть виправлення: примітка обов'язкова");
    // Without JavaScript, the editor's form says the same.
    const current = (await apiSend(api.editor, "GET", `/api/articles/${a.id}`)).json;
    const screen = await editorPost(form.editor, `/admin/articles/edit/${a.id}`, [...editorFields(current, [["correction", "on"]]), ["intent", "publish"]]);
    expect(screen.status).toBe(422);
    expect(screen.text).toContain("Опишіть виправлення: примітка обов&#x27;язкова");

    const first = await apiSend(api.editor, "PUT", `/api/articles/${a.id}`, { ...body, correction: true, correction_note: "Виправлено рік: 2023, не 2021" });
    expect(first.status, JSON.stringify(first.json)).toBe(200);
    const screen2 = await editorPost(form.editor, `/admin/articles/edit/${a.id}`, [
      ...editorFields(first.json, [
        ["correction", "on"],
        ["correction_note", "Уточнено назву <журналу>"],
      ]),
      ["intent", "publish"],
    ]);
    expect(screen2.status).toBe(302);

    // The article's page may be kept already (the store renders a published article within a
    // second, issue 30); a correction reaches readers within 5 s (DESIGN §12).
    const corrected = ["Уточнено назву &lt;журналу&gt;", "Виправлено рік: 2023, не 2021"];
    const pageDeadline = Date.now() + 5_000;
    let page = "";
    let shown: string[] = [];
    do {
      if (page) await new Promise((r) => setTimeout(r, 200));
      page = (await (await fetch(`${server.url}/article/${a.slug}`)).text()).replace(/<!-- -->/g, "");
      shown = [...page.matchAll(/Виправлено <time[^>]*>[^<]+<\/time>: ([^<]+)</g)].map((m) => m[1]);
    } while (shown.length < corrected.length && Date.now() < pageDeadline);
    expect(shown).toEqual(corrected);
    expect(page).toMatch(/Оновлено <time/);
    const ld = JSON.parse(/<script type="application\/ld\+json">(.*?)<\/script>/s.exec(page)![1]);
    expect(ld.dateModified).toBeTruthy();
    expect(ld.correction.map((c: { text: string }) => c.text)).toEqual(["Уточнено назву <журналу>", "Виправлено рік: 2023, не 2021"]);

    // The public JSON carries them too (fields added, none renamed).
    const json = await (await fetch(`${server.url}/api/articles/slug/${a.slug}`)).json();
    expect(json.corrections.map((c: { note: string }) => c.note)).toEqual(["Уточнено назву <журналу>", "Виправлено рік: 2023, не 2021"]);
    expect(json).toMatchObject({ slug: a.slug, status: "published" });

    // /corrections (re-rendered within 5 s) and its RSS, newest first.
    const deadline = Date.now() + 5_000;
    let list = "";
    while (Date.now() < deadline && !list.includes("Уточнено назву")) {
      list = await (await fetch(`${server.url}/corrections`)).text();
      if (!list.includes("Уточнено назву")) await new Promise((r) => setTimeout(r, 200));
    }
    expect(list.indexOf("Уточнено назву")).toBeGreaterThan(-1);
    expect(list.indexOf("Уточнено назву")).toBeLessThan(list.indexOf("Виправлено рік"));
    const rss = await fetch(`${server.url}/corrections/rss.xml`);
    expect(rss.headers.get("content-type")).toMatch(/application\/rss\+xml/);
    const xml = await rss.text();
    expect(xml).toContain("<description>Уточнено назву &lt;журналу&gt;</description>");
    expect(xml.indexOf("Уточнено назву")).toBeLessThan(xml.indexOf("Виправлено рік"));

    // The history names them.
    const revisions = await apiSend(api.editor, "GET", `/api/articles/${a.id}/revisions`);
    expect(revisions.json.data.slice(0, 2).map((r: { summary: string }) => r.summary)).toEqual([
      "Виправлення: Уточнено назву <журналу>",
      expect.stringMatching(/^Виправлення: Виправлено рік: 2023, не 2021 · Змінено: вміст/),
    ]);

    // Unpublished: its corrections leave /corrections at once.
    expect((await apiSend(api.editor, "POST", `/api/articles/${a.id}/unpublish`)).status).toBe(200);
    expect(await (await fetch(`${server.url}/corrections`)).text()).not.toContain("Уточнено назву");
  }, 60_000);
});

describe("sources", () => {
  it("take good DOIs normalised, refuse bad ones, and show as «Джерела» with citations", async () => {
    const bad = await apiSend(api.editor, "POST", "/api/articles/", {
      title: "Погане джерело",
      content: "x",
      category_id: categoryId,
      sources: [{ kind: "study", doi: "nature.com/abc", title: "X" }, { kind: "thesis", title: "Y" }, { title: "" }],
    });
    expect(bad.status).toBe(422);
    expect(bad.json.errors["sources.0.doi"]).toMatch(/^DOI має вигляд 10\.NNNN/);
    expect(bad.json.errors["sources.1.kind"]).toMatch(/study, dataset, report або other/);
    expect(bad.json.errors["sources.2.title"]).toMatch(/Назва джерела обов'язкова/);

    const a = await article("editor", {
      status: "published",
      sources: [
        {
          kind: "study",
          doi: "https://doi.org/10.1038/S41586-020-2649-2",
          title: "Array programming with NumPy",
          publisher: "Nature",
          year: 2020,
          peer_reviewed: true,
        },
        { kind: "study", doi: "doi:10.1101/2024.05.01.592000", title: "Препринт про клітини", publisher: "bioRxiv", year: 2024, peer_reviewed: false },
      ],
    });
    const full = (await apiSend(api.editor, "GET", `/api/articles/${a.id}`)).json;
    expect(full.sources.map((s: { doi: string }) => s.doi)).toEqual(["10.1038/s41586-020-2649-2", "10.1101/2024.05.01.592000"]);
    const page = await (await fetch(`${server.url}/article/${a.slug}`)).text();
    expect(page).toContain(">Джерела</h2>");
    expect(page).toMatch(/Препринт про клітини<\/a>.*без рецензування/s);
    expect(page).toContain('href="https://doi.org/10.1038/s41586-020-2649-2"');
    const ld = JSON.parse(/<script type="application\/ld\+json">(.*?)<\/script>/s.exec(page)![1]);
    expect(ld.citation.map((c: { identifier: string }) => c.identifier)).toEqual([
      "https://doi.org/10.1038/s41586-020-2649-2",
      "https://doi.org/10.1101/2024.05.01.592000",
    ]);

    // The editor's form without JavaScript: empty rows are skipped, a bad DOI is named on its row.
    const refused = await editorPost(form.editor, `/admin/articles/edit/${a.id}`, [
      ...editorFields(full, [...sourceRow({ doi: "10.12/x", title: "Погане" }), ...sourceRow({})]),
      ["intent", "save"],
    ]);
    expect(refused.status).toBe(422);
    expect(refused.text).toContain("DOI має вигляд 10.NNNN/");
    const saved = await editorPost(form.editor, `/admin/articles/edit/${a.id}`, [
      ...editorFields(full, [...sourceRow({ kind: "dataset", doi: "DOI:10.5281/Zenodo.42", title: "Дані", review: "" }), ...sourceRow({})]),
      ["intent", "save"],
    ]);
    expect(saved.status).toBe(302);
    expect((await apiSend(api.editor, "GET", `/api/articles/${a.id}`)).json.sources).toEqual([
      { kind: "dataset", doi: "10.5281/zenodo.42", title: "Дані", publisher: null, year: null, peer_reviewed: null, url: null },
    ]);
  }, 60_000);

  it("are filled from Crossref by DOI; unknown, malformed and slow lookups answer clearly; staff only", async () => {
    const ok = await apiSend(api.reporter, "GET", `/api/sources/lookup?doi=${encodeURIComponent("https://doi.org/10.1101/2024.05.01.592000")}`);
    expect(ok.status, JSON.stringify(ok.json)).toBe(200);
    expect(ok.json).toEqual({
      doi: "10.1101/2024.05.01.592000",
      kind: "study",
      title: "Тестовий препринт про <b>клітини</b>",
      publisher: "Cold Spring Harbor Laboratory",
      year: 2024,
      peer_reviewed: false,
      url: "https://doi.org/10.1101/2024.05.01.592000",
    });
    expect(crossrefHits).toContain("10.1101/2024.05.01.592000");
    expect((await apiSend(api.editor, "GET", "/api/sources/lookup?doi=10.1000/unknown")).status).toBe(404);
    const malformed = await apiSend(api.editor, "GET", "/api/sources/lookup?doi=nonsense");
    expect(malformed.status).toBe(422);
    expect(malformed.json.errors.doi).toMatch(/^DOI має вигляд/);
    const started = Date.now();
    const slow = await apiSend(api.editor, "GET", "/api/sources/lookup?doi=10.5555/slow");
    expect(slow.status).toBe(504);
    expect(slow.json.detail).toMatch(/Crossref не відповів вчасно/);
    expect(Date.now() - started).toBeLessThan(2_500);
    expect((await fetch(`${server.url}/api/sources/lookup?doi=10.1101/2024.05.01.592000`)).status).toBe(401);
  }, 30_000);
});
