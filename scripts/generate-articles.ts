// Generates N Ukrainian-language articles with tags over the eight categories, for benchmarks and
// load tests (DESIGN §9: `npm run bench` runs on the demo data plus 10,000 of these).
//
//   DATA_DIR=/tmp/x npx tsx scripts/generate-articles.ts --count 10000
//
// The database is migrated and seeded (demo) first when it is empty. Markdown is rendered and
// sanitised once per body template, not once per article, so 100,000 rows take a minute or two;
// rows go in through insertArticle (article, tags, full-text row) in chunked transactions.
import { pathToFileURL } from "node:url";
import { closeDatabase, db, writeTransaction } from "../db/index";
import { migrateToLatest } from "../db/migrate";
import { mulberry32, seedDatabase } from "../db/seed";
import { insertArticle } from "../app/models/article.server";
import { renderArticleHtml, stopSanitizer } from "../app/utils/markdown.server";

const DAY = 86_400_000;
const CHUNK = 1_000;

const SUBJECTS = [
  "Квантовий комп'ютер", "Новий телескоп", "Українські вчені", "Штучний інтелект", "Генна терапія",
  "Марсохід", "Сонячна електростанція", "Нейромережа", "Біологи", "Фізики ЦЕРН", "Лабораторія в Харкові",
  "Супутник", "Медики", "Кліматологи", "Астрономи", "Інженери", "Дослідники океану", "Робот-хірург",
];
const VERBS = [
  "відкрили", "показали", "виміряли", "передбачили", "змоделювали", "зафіксували", "перевірили",
  "прискорили", "описали", "створили",
];
const OBJECTS = [
  "новий механізм старіння клітин", "рекордну швидкість обчислень", "слід води на далекій планеті",
  "ефективніший акумулятор", "стійкий до посухи сорт пшениці", "спосіб переробки пластику",
  "ранні ознаки хвороби Альцгеймера", "загадкові радіосигнали", "матеріал, що проводить струм без втрат",
  "алгоритм для точнішого прогнозу погоди", "вакцину нового покоління", "древню галактику",
  "мікроорганізми у вічній мерзлоті", "швидший спосіб секвенування ДНК", "енергію з морських хвиль",
];
const TAGS = [
  "космос", "астрономія", "фізика", "квантові технології", "медицина", "генетика", "біологія", "екологія",
  "клімат", "енергетика", "штучний інтелект", "робототехніка", "матеріалознавство", "нейронауки",
  "вакцини", "океан", "Марс", "телескопи", "CERN", "Україна", "стартапи", "батареї", "кібербезпека",
  "дані", "мікробіом", "сільське господарство", "археологія", "математика", "хімія", "освіта",
];
const PARAGRAPHS = [
  "Дослідження тривало понад три роки: команда зібрала дані з десятків лабораторій і перевірила кожен результат незалежними методами. За словами авторів, це перший випадок, коли ефект вдалося відтворити у звичайних умовах, а не лише в надточних експериментах.",
  "Науковці наголошують, що до практичного застосування ще далеко, але сам підхід уже змінює уявлення про можливе. **Ключовим** стало поєднання старих спостережень із новими *обчислювальними* моделями.",
  "Незалежні експерти, з якими поспілкувалася редакція, називають роботу ретельною, проте радять дочекатися повторних експериментів. «Такі заяви потребують перевірки, і добре, що дані відкриті», — зазначив один із рецензентів.",
  "Для українських дослідницьких груп це шанс долучитися до міжнародної співпраці: частину вимірювань можна виконати на наявному обладнанні, а обробку даних — віддалено.",
  "Автори вже планують наступний етап: збільшити вибірку, перевірити результат в інших кліматичних зонах і оприлюднити програмний код, щоб будь-хто міг повторити розрахунки.",
  "Фінансування проєкту надійшло з кількох грантових програм, а частину обладнання лабораторія отримала завдяки партнерству з університетами Європи.",
];

/** Markdown bodies: a few headings, paragraphs, a list, a quote and a link, about 2 KB each. */
function bodyTemplates(random: () => number, n = 12): string[] {
  const pick = <T,>(list: T[]) => list[Math.floor(random() * list.length)];
  return Array.from({ length: n }, (_, i) =>
    [
      pick(PARAGRAPHS),
      `## ${pick(SUBJECTS)}: що відомо`,
      pick(PARAGRAPHS),
      pick(PARAGRAPHS),
      `- ${pick(OBJECTS)}\n- ${pick(OBJECTS)}\n- ${pick(OBJECTS)}`,
      `> ${pick(PARAGRAPHS).slice(0, 160)}`,
      `### Що далі`,
      `${pick(PARAGRAPHS)} Докладніше — у [публікації](https://example.org/paper/${i}).`,
    ].join("\n\n"),
  );
}

export interface GenerateOptions {
  count: number;
  /** PRNG seed: same seed, same articles. */
  seed?: number;
  now?: number;
  /** Share of drafts among the generated articles. */
  draftShare?: number;
  onProgress?: (done: number, total: number) => void;
}

/**
 * Inserts `count` generated articles into the database of DATA_DIR (which must be migrated and
 * have its categories and users). Slugs are `gen-{n}-...` and continue after earlier runs.
 */
export async function generateArticles({ count, seed = 42, now = Date.now(), draftShare = 0.03, onProgress }: GenerateOptions): Promise<{ inserted: number; ms: number }> {
  const started = Date.now();
  const random = mulberry32(seed);
  const categories = await db.selectFrom("categories").select("id").orderBy("slug").execute();
  const authors = await db.selectFrom("users").select("id").execute();
  if (!categories.length) throw new Error("No categories: migrate and seed the database first.");
  const offset = Number((await db.selectFrom("articles").select((eb) => eb.fn.countAll<number>().as("n")).where("slug", "like", "gen-%").executeTakeFirstOrThrow()).n);

  // The expensive part (marked + DOMPurify in the worker) once per template.
  const templates = bodyTemplates(random);
  const rendered = await Promise.all(templates.map((t) => renderArticleHtml(t)));

  const pick = <T,>(list: T[]) => list[Math.floor(random() * list.length)];
  for (let start = 0; start < count; start += CHUNK) {
    const size = Math.min(CHUNK, count - start);
    await writeTransaction(async (trx) => {
      for (let i = 0; i < size; i++) {
        const n = offset + start + i + 1;
        const t = Math.floor(random() * templates.length);
        const title = `${pick(SUBJECTS)} ${pick(VERBS)} ${pick(OBJECTS)} (${n})`;
        const tagCount = 2 + Math.floor(random() * 3);
        const tags = [...new Set(Array.from({ length: tagCount }, () => pick(TAGS)))];
        const createdAt = new Date(now - Math.floor(random() * 730 * DAY)).toISOString();
        await insertArticle(trx, {
          slug: `gen-${n}-${t}`,
          title,
          subtitle: pick(PARAGRAPHS).slice(0, 140),
          content: templates[t],
          contentHtml: rendered[t],
          categoryId: categories[(start + i) % categories.length].id,
          authorId: authors.length ? pick(authors).id : null,
          status: random() < draftShare ? "draft" : "published",
          createdAt,
          publishedAt: createdAt,
          views: Math.floor(random() * 5_000),
          tags,
        });
      }
    });
    onProgress?.(start + size, count);
  }
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
  await stopSanitizer();
  await closeDatabase();
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  cli().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
