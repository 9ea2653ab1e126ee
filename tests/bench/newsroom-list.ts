// Times the admin article list with a full-text search at 10,000 articles (issue 4; DESIGN §9
// budget: < 20 ms per request). Generates the rows with insertArticle in a temp DATA_DIR, then
// times listAdminArticles directly and the /admin/articles screen and /api/articles/admin through
// the production Remix build (npm run build first). Run: npx tsx tests/bench/newsroom-list.ts
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const dir = mkdtempSync(join(tmpdir(), "news-bench-list-"));
process.env.DATA_DIR = dir;
process.env.NODE_ENV = "production";
process.env.LOG_REQUESTS = "0";
const { db, writeTransaction, closeDatabase } = await import("../../db/index");
const { migrateToLatest } = await import("../../db/migrate");
const { insertArticle, listAdminArticles } = await import("../../app/models/article.server");
const { createUser } = await import("../../app/models/user.server");
const { createCategory } = await import("../../app/models/category.server");
const { createSessionToken, sessionStorage } = await import("../../app/services/session.server");
const { createRequestHandler } = await import("@remix-run/node");

await migrateToLatest(db);
const editor = await createUser({ username: "bench", email: "b@example.com", password: "long-enough", role: "editor" });
const categories: string[] = [];
for (const name of ["Космос", "Медицина", "Технології", "Біологія", "Довкілля"]) {
  categories.push(
    (await createCategory({ actor: { id: "bench", username: "bench", role: "admin", ip: null }, input: { name, description: null, slug: undefined } })).id,
  );
}

const ARTICLES = 10_000;
const WORDS =
  "наука дослідження телескоп галактика клітина вакцина енергія батарея кліматичний океан квантовий алгоритм нейромережа геном білок супутник ракета реактор мікроб вулкан".split(
    " ",
  );
const pick = (i: number, n: number) => WORDS[(i * 7 + n * 13) % WORDS.length];
const started = performance.now();
for (let batch = 0; batch < ARTICLES; batch += 1000) {
  await writeTransaction(async (trx) => {
    for (let i = batch; i < batch + 1000; i++) {
      const title = `Стаття ${i}: ${pick(i, 1)} і ${pick(i, 2)}`;
      const content = Array.from({ length: 40 }, (_, n) => `${pick(i, n)} ${pick(i + 1, n)} ${pick(i + 2, n)} речення номер ${n}.`).join(" ");
      await insertArticle(trx, {
        slug: `stattia-${i}`,
        title,
        subtitle: `Підзаголовок ${pick(i, 3)}`,
        content,
        contentHtml: `<p>${content}</p>`,
        categoryId: categories[i % categories.length],
        authorId: editor.id,
        status: i % 10 === 0 ? "draft" : "published",
        createdAt: new Date(Date.now() - i * 60_000).toISOString(),
        tags: [pick(i, 4), pick(i, 5)],
      });
    }
  });
}
// A few rare words for a narrow search.
console.log(`generated ${ARTICLES.toLocaleString("en-US")} articles in ${((performance.now() - started) / 1000).toFixed(1)} s`);

async function time(label: string, fn: () => Promise<unknown>, runs = 100) {
  await fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const pct = (p: number) => times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))].toFixed(2);
  console.log(`  ${label.padEnd(58)} p50 ${pct(50)} ms  p95 ${pct(95)} ms  max ${times[times.length - 1].toFixed(2)} ms`);
}

console.log("listAdminArticles (model, 20 per page):");
const common = await listAdminArticles({ search: "галактика" });
const narrow = await listAdminArticles({ search: "Стаття 4242" });
console.log(`  ('галактика' matches ${common.total.toLocaleString("en-US")}, 'Стаття 4242' matches ${narrow.total})`);
await time("no search, page 1", () => listAdminArticles({}));
await time("search 'галактика' (common word), page 1", () => listAdminArticles({ search: "галактика" }));
await time("search 'галак' (prefix), status=published, page 10", () => listAdminArticles({ search: "галак", status: "published", skip: 180 }));
await time("search 'Стаття 4242' (narrow)", () => listAdminArticles({ search: "Стаття 4242" }));
await time("search 'квантовий алгоритм' + category", () => listAdminArticles({ search: "квантовий алгоритм", categoryId: categories[2] }));

const build = await import(pathToFileURL(resolve("build/remix/index.js")).href);
const handle = createRequestHandler(build, "production");
const token = await createSessionToken({ userId: editor.id, kind: "bearer" });
const session = await sessionStorage().getSession();
session.set("userId", editor.id);
const cookie = (await sessionStorage().commitSession(session)).split(";")[0];
const get = async (path: string, headers: Record<string, string>) => {
  const res = await handle(new Request(`http://localhost${path}`, { headers }), { cspNonce: "bench" });
  if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
  await res.arrayBuffer();
};
console.log("Through the Remix request handler (signed in):");
await time("GET /api/articles/admin?search=галактика", () =>
  get(`/api/articles/admin?search=${encodeURIComponent("галактика")}`, { Authorization: `Bearer ${token}` }),
);
await time(
  "GET /admin/articles?q=галактика (server-rendered screen)",
  () => get(`/admin/articles?q=${encodeURIComponent("галактика")}`, { Cookie: cookie }),
  50,
);

await closeDatabase();
rmSync(dir, { recursive: true, force: true });
process.exit(0);
