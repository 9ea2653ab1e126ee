// Generates N Ukrainian-language articles with tags over the eight categories, for benchmarks and
// load tests (DESIGN §9: `npm run bench` runs on the demo data plus 10,000 of these).
//
//   DATA_DIR=/tmp/x npx tsx scripts/generate-articles.ts --count 10000
//
// The database is migrated and seeded (demo) first when it is empty.
//
// Text (docs/decisions/010): words are drawn from a vocabulary of ~30,000 words with a Zipf-like
// distribution (the words of the demo articles, most frequent first, then made-up Ukrainian-looking
// words), so a common word matches most articles and a rare one a handful, as in real news text.
// Every article has its own title, subtitle and two plain paragraphs, plus blocks (headings,
// paragraphs with emphasis and links, lists, quotes) from a shared pool.
//
// Speed: markdown is rendered and sanitised once per pooled block (the worker of
// markdown.server.ts); an article's HTML is its blocks' HTML joined by "\n", which equals the
// renderer's output for the whole body (checked on a sample at every run, see checkHtml). The
// plain per-article paragraphs are letters, spaces, commas and full stops only, so their HTML is
// `<p>text</p>`. Rows (article, tags, full-text row) go in through prepared better-sqlite3
// statements in one transaction per chunk: 100,000 articles take well under two minutes.
import { randomUUID } from "node:crypto";
import { pathToFileURL } from "node:url";
import { stopCpuPool } from "../app/utils/cpu-pool.server";
import { renderArticleHtml } from "../app/utils/markdown.server";
import { searchRows } from "../app/utils/search-text.server";
import { closeDatabase, db, getSqlite } from "../db/index";
import { migrateToLatest } from "../db/migrate";
import { mulberry32, seedDatabase } from "../db/seed";
import { seedArticles } from "../db/seed-content";

const DAY = 86_400_000;
const CHUNK = 5_000;
const VOCABULARY = 30_000;

const TAGS = [
  "космос",
  "астрономія",
  "фізика",
  "квантові технології",
  "медицина",
  "генетика",
  "біологія",
  "екологія",
  "клімат",
  "енергетика",
  "штучний інтелект",
  "робототехніка",
  "матеріалознавство",
  "нейронауки",
  "вакцини",
  "океан",
  "Марс",
  "телескопи",
  "CERN",
  "Україна",
  "стартапи",
  "батареї",
  "кібербезпека",
  "дані",
  "мікробіом",
  "сільське господарство",
  "археологія",
  "математика",
  "хімія",
  "освіта",
];

const ONSETS = [
  "б",
  "в",
  "г",
  "д",
  "ж",
  "з",
  "к",
  "л",
  "м",
  "н",
  "п",
  "р",
  "с",
  "т",
  "ф",
  "х",
  "ц",
  "ч",
  "ш",
  "бр",
  "гр",
  "др",
  "кр",
  "пр",
  "ст",
  "тр",
  "сп",
  "зв",
  "кл",
  "пл",
];
const VOWELS = ["а", "о", "е", "и", "і", "у", "я", "ю", "є"];
const ENDINGS = ["ння", "ість", "ий", "а", "ом", "ами", "ові", "ів", "ення", "ика", "ник", "ал", "ор", "ія", "ний", "на", "ні", "ти", "ує", "ують"];

/** Words of the demo articles, most frequent first, then made-up words: rank 1 is the commonest. */
function vocabulary(random: () => number): string[] {
  const counts = new Map<string, number>();
  for (const a of seedArticles) {
    for (const w of `${a.title} ${a.subtitle} ${a.content}`.toLowerCase().match(/\p{L}+/gu) ?? []) {
      if (w.length > 1 && /^[а-яіїєґ]+$/.test(w)) counts.set(w, (counts.get(w) ?? 0) + 1);
    }
  }
  const words = [...counts.entries()].sort((a, b) => b[1] - a[1]).map(([w]) => w);
  const seen = new Set(words);
  const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)];
  while (words.length < VOCABULARY) {
    const syllables = 1 + Math.floor(random() * 3);
    let w = "";
    for (let i = 0; i < syllables; i++) w += pick(ONSETS) + pick(VOWELS);
    w += pick(ENDINGS);
    if (!seen.has(w)) {
      seen.add(w);
      words.push(w);
    }
  }
  return words;
}

/** Draws words with probability ∝ 1 / rank (Zipf, s = 1). */
function zipf(words: string[], random: () => number): () => string {
  const cumulative = new Float64Array(words.length);
  let sum = 0;
  for (let i = 0; i < words.length; i++) cumulative[i] = sum += 1 / (i + 1);
  return () => {
    const x = random() * sum;
    let lo = 0;
    let hi = words.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    return words[lo];
  };
}

function textMaker(random: () => number) {
  const word = zipf(vocabulary(random), random);
  const between = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));
  const sentence = (min = 7, max = 18) => {
    const n = between(min, max);
    const words = Array.from({ length: n }, word);
    for (let i = 2; i < n - 2; i++) if (random() < 0.08) words[i] += ",";
    const text = words.join(" ");
    return text[0].toUpperCase() + text.slice(1) + ".";
  };
  const paragraph = (min = 3, max = 5) => Array.from({ length: between(min, max) }, () => sentence()).join(" ");
  return { word, sentence, paragraph, between };
}

/** Markdown blocks shared between articles: headings, paragraphs with emphasis and links, lists, quotes. */
function blockPool(text: ReturnType<typeof textMaker>, random: () => number, size: number): string[] {
  return Array.from({ length: size }, (_, i) => {
    switch (i % 5) {
      case 0:
        return `## ${text.sentence(3, 6).slice(0, -1)}`;
      case 1: {
        const words = text.paragraph(2, 4).split(" ");
        const at = Math.floor(random() * (words.length - 2));
        words[at] = `**${words[at].replace(/[,.]$/, "")}**`;
        words[at + 1] = `*${words[at + 1].replace(/[,.]$/, "")}*`;
        return `${words.join(" ")} Докладніше — у [публікації](https://example.org/paper/${i}).`;
      }
      case 2:
        return Array.from({ length: text.between(3, 5) }, () => `- ${text.sentence(3, 8).slice(0, -1)}`).join("\n");
      case 3:
        return `> «${text.sentence()}» — зазначив один із рецензентів.`;
      default:
        return text.paragraph();
    }
  });
}

const plainHtml = (paragraph: string) => `<p>${paragraph}</p>`;

/** The generator's shortcut must give what the real renderer gives: checked on a sample. */
async function checkHtml(samples: { content: string; html: string }[]) {
  for (const sample of samples) {
    const real = await renderArticleHtml(sample.content);
    if (real !== sample.html) {
      throw new Error(`generate-articles: concatenated HTML differs from renderArticleHtml\n--- expected\n${real}\n--- got\n${sample.html}`);
    }
  }
}

export interface GenerateOptions {
  count: number;
  /** PRNG seed: same seed, same articles. */
  seed?: number;
  now?: number;
  /** Share of drafts among the generated articles. */
  draftShare?: number;
  onProgress?: (done: number, total: number) => void;
  /** How many shared markdown blocks are rendered (each once) and mixed into the articles. */
  poolSize?: number;
}

/**
 * Inserts `count` generated articles into the database of DATA_DIR (which must be migrated and
 * have its categories and users). Slugs are `gen-{n}` and continue after earlier runs.
 */
export async function generateArticles({
  count,
  seed = 42,
  now = Date.now(),
  draftShare = 0.03,
  onProgress,
  poolSize = 150,
}: GenerateOptions): Promise<{ inserted: number; ms: number }> {
  const started = Date.now();
  const random = mulberry32(seed);
  const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)];
  const text = textMaker(random);
  const categories = await db.selectFrom("categories").select("id").orderBy("slug").execute();
  const authors = await db.selectFrom("users").select("id").execute();
  if (!categories.length) throw new Error("No categories: migrate and seed the database first.");
  const offset = Number(
    (
      await db
        .selectFrom("articles")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("slug", "like", "gen-%")
        .executeTakeFirstOrThrow()
    ).n,
  );

  // The expensive part (marked + DOMPurify in the worker) once per pooled block.
  const pool = blockPool(text, random, poolSize);
  const poolHtml = await Promise.all(pool.map((block) => renderArticleHtml(block)));
  if (process.env.GEN_DEBUG) console.log(` pool ${Date.now() - started} ms`);

  const sqlite = getSqlite();
  // Random UUID keys and slugs land all over their indexes: with SQLite's default 2 MB page cache
  // every insert past ~20,000 rows reads pages from disk. A large cache for the load only.
  // Generated data is test data: no fsync per chunk during the load (the server's FULL comes back
  // after it); a crash mid-load leaves an incomplete but consistent database (WAL).
  const cacheSize = sqlite.pragma("cache_size", { simple: true });
  const synchronous = sqlite.pragma("synchronous", { simple: true });
  sqlite.pragma("cache_size = -262144");
  sqlite.pragma("synchronous = OFF");
  for (const name of TAGS) sqlite.prepare("insert into tags (name) values (?) on conflict (name) do nothing").run(name);
  const tagIds = new Map((sqlite.prepare("select id, name from tags").all() as { id: number; name: string }[]).map((t) => [t.name.toLowerCase(), t.id]));
  const insertArticle = sqlite.prepare(`insert into articles
    (id, slug, title, subtitle, content, content_html, category_id, author_id, updated_by, status,
     published_at, created_at, updated_at, views)
    values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const insertTag = sqlite.prepare("insert into article_tags (article_id, tag_id, position) values (?, ?, ?)");
  const insertFts = sqlite.prepare("insert into articles_fts (rowid, article_id, title, subtitle, content, tags) values (?, ?, ?, ?, ?, ?)");
  // Issue 30: the stems of the same words, and those of the heading on their own (db/sql/search.ts).
  const insertStems = sqlite.prepare("insert into articles_stems (rowid, title, subtitle, content, tags) values (?, ?, ?, ?, ?)");
  const insertHeadings = sqlite.prepare("insert into articles_headings (rowid, title, subtitle, tags) values (?, ?, ?, ?)");

  // Newer articles get higher rowids, as on a real site (articles are written in time order).
  const makeArticle = (n: number, i: number) => {
    const lead = text.paragraph();
    const closing = text.paragraph(2, 4);
    const blocks: number[] = [];
    for (let k = text.between(3, 5); blocks.length < k;) {
      const b = Math.floor(random() * poolSize);
      // Two lists in a row would render as one list: never put pooled lists side by side.
      if (!(b % 5 === 2 && blocks.length && blocks[blocks.length - 1] % 5 === 2)) blocks.push(b);
    }
    const content = [lead, ...blocks.map((b) => pool[b]), closing].join("\n\n");
    const html = [plainHtml(lead), ...blocks.map((b) => poolHtml[b]), plainHtml(closing)].join("\n");
    const title = text.sentence(5, 10).slice(0, -1);
    const tags = [...new Set(Array.from({ length: 2 + Math.floor(random() * 3) }, () => pick(TAGS)))];
    const createdAt = new Date(now - Math.floor(((count - i) / count) * 730 * DAY + random() * DAY)).toISOString();
    const status = random() < draftShare ? "draft" : "published";
    const author = authors.length ? pick(authors).id : null;
    return {
      id: randomUUID(),
      slug: `gen-${n}`,
      title,
      content,
      html,
      tags,
      createdAt,
      status,
      author,
      subtitle: text.sentence(8, 16).slice(0, 140),
      categoryId: categories[i % categories.length].id,
      views: Math.floor(random() * 5_000),
    };
  };
  type Generated = ReturnType<typeof makeArticle>;

  const insertChunk = sqlite.transaction((articles: Generated[]) => {
    for (const a of articles) {
      const { lastInsertRowid } = insertArticle.run(
        a.id,
        a.slug,
        a.title,
        a.subtitle,
        a.content,
        a.html,
        a.categoryId,
        a.author,
        a.author,
        a.status,
        a.createdAt,
        a.createdAt,
        a.createdAt,
        a.views,
      );
      a.tags.forEach((tag, position) => insertTag.run(a.id, tagIds.get(tag.toLowerCase()), position));
      const { forms, stems } = searchRows(a);
      insertFts.run(lastInsertRowid, a.id, forms.title, forms.subtitle, forms.content, forms.tags);
      insertStems.run(lastInsertRowid, stems.title, stems.subtitle, stems.content, stems.tags);
      insertHeadings.run(lastInsertRowid, stems.title, stems.subtitle, stems.tags);
    }
  });
  // No incremental merging of index segments during the load: one 'optimize' at the end merges them.
  const SEARCH_TABLES = ["articles_fts", "articles_stems", "articles_headings"];
  if (process.env.GEN_AUTOMERGE !== "1") for (const t of SEARCH_TABLES) sqlite.prepare(`insert into ${t} (${t}, rank) values ('automerge', 0)`).run();
  for (let start = 0; start < count; start += CHUNK) {
    const size = Math.min(CHUNK, count - start);
    const articles = Array.from({ length: size }, (_, i) => makeArticle(offset + start + i + 1, start + i));
    if (start === 0) await checkHtml(articles.slice(0, 20));
    const t0 = Date.now();
    insertChunk.immediate(articles);
    if (process.env.GEN_DEBUG) console.log(` insert ${Date.now() - t0} ms`);
    onProgress?.(start + size, count);
  }
  // Fewer, larger FTS segments: queries read less (what a long-lived index converges to anyway).
  const t1 = Date.now();
  for (const t of SEARCH_TABLES) {
    sqlite.prepare(`insert into ${t} (${t}) values ('optimize')`).run();
    sqlite.prepare(`insert into ${t} (${t}, rank) values ('automerge', 4)`).run();
  }
  if (process.env.GEN_DEBUG) console.log(` optimize ${Date.now() - t1} ms`);
  sqlite.pragma(`cache_size = ${cacheSize}`);
  sqlite.pragma(`synchronous = ${synchronous}`);
  sqlite.pragma("wal_checkpoint(TRUNCATE)");
  return { inserted: count, ms: Date.now() - started };
}

/** Migrates and seeds DATA_DIR's database when it is empty (demo content), as the server would. */
export async function prepareDatabase(): Promise<void> {
  await migrateToLatest(db);
  await seedDatabase({ demo: true });
}

async function cli() {
  const args = process.argv.slice(2);
  const value = (name: string) => {
    const i = args.indexOf(name);
    return i === -1 ? undefined : args[i + 1];
  };
  const count = Number(value("--count") ?? 10_000);
  if (!Number.isInteger(count) || count < 1) throw new Error("--count must be a positive whole number");
  await prepareDatabase();
  const { ms } = await generateArticles({
    count,
    seed: Number(value("--seed") ?? 42),
    onProgress: (done, total) => process.stdout.write(`\r${done} / ${total}`),
  });
  console.log(`\nInserted ${count} articles into ${process.env.DATA_DIR || "./data"} in ${(ms / 1000).toFixed(1)} s`);
  await stopCpuPool();
  await closeDatabase();
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  cli().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
