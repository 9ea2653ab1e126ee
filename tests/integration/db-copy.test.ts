import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import SQLite from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { copySqliteToPostgres } from "../../db/copy";
import { onPostgres, rowOf, rowsOf } from "../database-of";
import { databaseUrlFor } from "../pg";
import { startServer } from "../server-process";
import { apiSend, apiSignIn, firstCategoryId } from "../staff-client";

// `npm run db:copy -- --to postgres://…` (DESIGN §13): a running SQLite site moves to an empty
// PostgreSQL database with every id kept and its search index rebuilt. Needs a PostgreSQL server,
// so it runs under `npm run test:pg`.

const dirs: string[] = [];
const temp = (prefix: string) => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe.runIf(onPostgres)("npm run db:copy", () => {
  it("moves a SQLite site to an empty PostgreSQL database whole: ids, rowids, tags, search, sessions; the copy serves and takes new writes", async () => {
    // The source: a SQLite site (DATABASE_URL empty) with the demo newsroom and one more article.
    const source = temp("news-copy-src-");
    const sqliteSite = await startServer({ dataDir: source, env: { DATABASE_URL: "" } });
    let articleId = "";
    let token = "";
    try {
      const admin = await apiSignIn(sqliteSite.url, "admin", "admin123");
      token = admin.auth.Authorization;
      const created = await apiSend(admin, "POST", "/api/articles/", {
        title: "Перенесена стаття про гравітаційні хвилі",
        content: "Детектори LIGO зафіксували злиття чорних дір.",
        category_id: await firstCategoryId(admin),
        tags: ["LIGO", "гравітація"],
        status: "published",
      });
      expect(created.status).toBe(201);
      articleId = created.json.id;
    } finally {
      expect(await sqliteSite.stop("SIGTERM")).toBe(0);
    }

    const target = temp("news-copy-dst-");
    const url = (await databaseUrlFor(target))!;
    const seen: string[] = [];
    const report = await copySqliteToPostgres({ file: join(source, "news.db"), url, onTable: (table) => seen.push(table) });
    expect(seen).toContain("articles");
    const articles = report.tables.find((t) => t.table === "articles")!.rows;
    expect(articles).toBeGreaterThanOrEqual(25);
    expect(report.searchRows).toBe(articles);
    expect(report.hash).toMatch(/^[0-9a-f]{64}$/);

    // Rowids are kept (the search index shares them), tags keep their order.
    const file = new SQLite(join(source, "news.db"), { readonly: true });
    const before = file.prepare("select rowid from articles where id = ?").get(articleId) as { rowid: number };
    // Every table came along (one left out of COPIED_TABLES would be lost in a move), the audit log too.
    const tables = (
      file
        .prepare(
          "select name from sqlite_master where type = 'table' and name not like 'sqlite%' and name not like 'kysely%' and name not like 'articles_fts%' and name not like 'articles_stems%' and name not like 'articles_headings%'",
        )
        .all() as {
        name: string;
      }[]
    ).map((t) => t.name);
    // Issue 31 item 5: the menus (the migration's own rows on the target give way to the source's).
    const menuIds = (file.prepare("select id from menu_items").all() as { id: string }[]).map((r) => r.id).sort();
    file.close();
    expect(report.tables.map((t) => t.table).sort()).toEqual(tables.sort());
    expect(report.tables.find((t) => t.table === "audit_log")!.rows).toBeGreaterThan(0);
    expect(menuIds).toHaveLength(15);
    expect((await rowsOf<{ id: string }>(target, "select id from menu_items")).map((r) => r.id).sort()).toEqual(menuIds);
    const after = await rowOf<{ rowid: number }>(target, "select rowid from articles where id = ?", articleId);
    expect(after.rowid).toBe(before.rowid);

    // The copy is a site: sessions came along (the token still works), search finds the article,
    // and new rows get fresh ids (sequences moved past the copied ones).
    const pgSite = await startServer({ dataDir: target, env: { DATABASE_URL: url } });
    try {
      const me = await fetch(`${pgSite.url}/api/auth/me`, { headers: { Authorization: token } });
      expect(me.status).toBe(200);
      const search = await (await fetch(`${pgSite.url}/search?q=${encodeURIComponent("гравітаційні")}`)).text();
      expect(search).toContain("Перенесена стаття про гравітаційні хвилі");
      const admin = { url: pgSite.url, auth: { Authorization: token } };
      const next = await apiSend(admin, "POST", "/api/articles/", {
        title: "Нова стаття після переїзду",
        content: "Текст.",
        category_id: await firstCategoryId(admin),
        tags: ["LIGO", "новий тег"],
        status: "published",
      });
      expect(next.status).toBe(201);
      expect(next.json.tags).toEqual(["LIGO", "новий тег"]);
      // Its audit entry took a fresh id after the copied ones.
      const entry = await rowOf<{ n: number }>(target, "select count(*) as n from audit_log where action = 'article.create' and object_id = ?", next.json.id);
      expect(Number(entry.n)).toBe(1);
      const rowid = await rowOf<{ rowid: number }>(target, "select rowid from articles where id = ?", next.json.id);
      expect(rowid.rowid).toBeGreaterThan(after.rowid);
    } finally {
      await pgSite.stop("SIGTERM");
    }

    // A target that holds anything is refused, and nothing in it changes.
    const run = () => {
      try {
        execFileSync("npx", ["tsx", "scripts/db-copy.ts", "--to", url], { env: { ...process.env, DATA_DIR: source }, stdio: "pipe" });
        return { code: 0, err: "" };
      } catch (error: any) {
        return { code: error.status, err: String(error.stderr) };
      }
    };
    const count = async () => (await rowOf<{ n: number }>(target, "select count(*) as n from articles")).n;
    const articlesBefore = await count();
    const refused = run();
    expect(refused.code).toBe(1);
    expect(refused.err).toContain("is not empty");
    expect(refused.err).not.toContain(new URL(url).password || "\u0000");
    expect(await count()).toBe(articlesBefore);
  }, 180_000);
});
