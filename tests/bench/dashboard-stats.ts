// Times getDashboardStats on a temp database with 1,000 articles and 100,000 page-view rows
// (issue 5 asks for the dashboard query time at that size). Run: npx tsx tests/bench/dashboard-stats.ts
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const dir = mkdtempSync(join(tmpdir(), "news-bench-stats-"));
process.env.DATA_DIR = dir;
const { db, getSqlite, closeDatabase } = await import("../../db/index");
const { migrateToLatest } = await import("../../db/migrate");
const { getDashboardStats } = await import("../../app/models/analytics.server");

await migrateToLatest(db);
const sqlite = getSqlite();
const ARTICLES = 1_000;
const ROWS = 100_000;
const DAYS = ROWS / ARTICLES; // 100 days of history per article
const insertArticle = sqlite.prepare("insert into articles (id, slug, title, status, views, created_at, published_at) values (?, ?, ?, 'published', ?, ?, ?)");
const insertView = sqlite.prepare("insert into page_views (day, path, article_id, views) values (?, ?, ?, ?)");
const now = Date.now();
sqlite.transaction(() => {
  for (let a = 0; a < ARTICLES; a++) {
    const id = `00000000-0000-4000-8000-${String(a).padStart(12, "0")}`;
    const at = new Date(now - (a % 365) * 86_400_000).toISOString();
    insertArticle.run(id, `article-${a}`, `Article ${a}`, (a * 37) % 5000, at, at);
    for (let d = 0; d < DAYS; d++) {
      insertView.run(new Date(now - d * 86_400_000).toISOString().slice(0, 10), `/article/article-${a}`, id, (a + d) % 50);
    }
  }
})();
const rows = sqlite.prepare("select count(*) n from page_views").get() as { n: number };

await getDashboardStats(); // warm the statement cache
const runs = 50;
const times: number[] = [];
for (let i = 0; i < runs; i++) {
  const start = performance.now();
  await getDashboardStats();
  times.push(performance.now() - start);
}
times.sort((a, b) => a - b);
const pct = (p: number) => times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))].toFixed(2);
console.log(`getDashboardStats over ${rows.n.toLocaleString("en-US")} page-view rows, ${ARTICLES} articles, ${runs} runs:`);
console.log(`  p50 ${pct(50)} ms   p95 ${pct(95)} ms   max ${times[times.length - 1].toFixed(2)} ms`);
await closeDatabase();
rmSync(dir, { recursive: true, force: true });
