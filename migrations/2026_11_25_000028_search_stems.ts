import { StemmerUk } from "@nlpjs/lang-uk";
import { sql, type Kysely } from "kysely";
import { isPostgres } from "./dialect";

// Issue 30 item 2 and issue 31 item 6 (docs/decisions/030-search-stemming.md): search that knows
// Ukrainian. Two search tables, both written by the app when an article is saved:
// - `articles_stems` (new): the stems of each field's words, for ordinary queries;
// - `articles_fts` (rebuilt): the words themselves, normalised (apostrophes joined, lower case,
//   no combining marks), for phrases in quotes. No prefix indexes: queries no longer use prefixes.
// Title matches rank first, so the stems of the heading (title, subtitle, tags) are also indexed
// on their own: a walk over heading matches never reads a word's body matches.
// SQLite: FTS5 with unicode61 and diacritics kept (the text is normalised before it is written, so
// both engines see the same tokens); `articles_stems` (all four fields) and `articles_headings`
// (title, subtitle, tags) are contentless with detail=column (which column holds a stem, no
// positions: phrases go to articles_fts). PostgreSQL: `articles_stems` with two generated
// tsvectors (`simple` config), `document` (title A, subtitle B, tags C, content D) and `heading`
// (title A, subtitle B, tags C), each with a GIN index.
// Existing articles are indexed here in batches of 500 (a big archive never sits in memory).
// Like every migration this imports nothing from the app: the normalisation below is a copy of
// app/utils/search-text.server.ts as of this migration (a later change there needs its own rebuild).

const BATCH = 500;
const MAX_WORD_LENGTH = 60;
const stemmer = new StemmerUk();
const remembered = new Map<string, string>();

function words(text: string): string[] {
  const normal = text
    .normalize("NFC")
    .toLowerCase()
    .replace(/\p{M}+/gu, "")
    .replace(/(?<=[\p{L}\p{N}])[ʼ'’`]+(?=[\p{L}\p{N}])/gu, "")
    .replace(/ʼ/g, "");
  return (normal.match(/[\p{L}\p{N}]+/gu) ?? []).map((w) => w.slice(0, MAX_WORD_LENGTH));
}

function stem(word: string): string {
  let s = remembered.get(word);
  if (s === undefined) {
    s = /[а-яіїєґ]/.test(word) ? stemmer.stemWord(word) || word : word;
    if (remembered.size >= 50_000) remembered.clear();
    remembered.set(word, s);
  }
  return s;
}

const FIELDS = ["title", "subtitle", "content", "tags"] as const;

async function createTables(db: Kysely<any>) {
  if (isPostgres(db)) {
    await sql`delete from articles_fts`.execute(db);
    await sql`create table articles_stems (
      rowid bigint primary key, title text not null default '', subtitle text not null default '',
      content text not null default '', tags text not null default '',
      document tsvector generated always as (
        setweight(to_tsvector('simple', title), 'A') || setweight(to_tsvector('simple', subtitle), 'B') ||
        setweight(to_tsvector('simple', tags), 'C') || setweight(to_tsvector('simple', content), 'D')
      ) stored,
      heading tsvector generated always as (
        setweight(to_tsvector('simple', title), 'A') || setweight(to_tsvector('simple', subtitle), 'B') ||
        setweight(to_tsvector('simple', tags), 'C')
      ) stored
    )`.execute(db);
    await sql`create index articles_stems_document on articles_stems using gin (document)`.execute(db);
    await sql`create index articles_stems_heading on articles_stems using gin (heading)`.execute(db);
    return;
  }
  await sql`drop table articles_fts`.execute(db);
  await sql`create virtual table articles_fts using fts5(
    article_id unindexed, title, subtitle, content, tags, tokenize = 'unicode61 remove_diacritics 0'
  )`.execute(db);
  await sql`create virtual table articles_stems using fts5(
    title, subtitle, content, tags, tokenize = 'unicode61 remove_diacritics 0',
    content = '', contentless_delete = 1, detail = column
  )`.execute(db);
  await sql`create virtual table articles_headings using fts5(
    title, subtitle, tags, tokenize = 'unicode61 remove_diacritics 0',
    content = '', contentless_delete = 1, detail = column
  )`.execute(db);
}

interface ArticleRow {
  rowid: number | string;
  id: string;
  title: string;
  subtitle: string | null;
  content: string;
}

export async function up(db: Kysely<any>): Promise<void> {
  await createTables(db);
  for (let after: number | string = -1; ;) {
    const { rows } = await sql<ArticleRow>`select rowid, id, title, subtitle, content from articles
      where rowid > ${after} order by rowid limit ${BATCH}`.execute(db);
    if (!rows.length) break;
    after = rows[rows.length - 1].rowid;
    const tagRows = await sql<{ article_id: string; name: string }>`select at.article_id, t.name from article_tags at
      join tags t on t.id = at.tag_id where at.article_id in (${sql.join(rows.map((r) => r.id))}) order by at.position`.execute(db);
    const tags = new Map<string, string[]>();
    for (const t of tagRows.rows) tags.set(t.article_id, [...(tags.get(t.article_id) ?? []), t.name]);
    const forms: Record<string, unknown>[] = [];
    const stems: Record<string, unknown>[] = [];
    for (const a of rows) {
      const source = { title: a.title, subtitle: a.subtitle ?? "", content: a.content, tags: (tags.get(a.id) ?? []).join(" ") };
      const form: Record<string, unknown> = { rowid: a.rowid, article_id: a.id };
      const stemmed: Record<string, unknown> = { rowid: a.rowid };
      for (const field of FIELDS) {
        const w = words(source[field]);
        form[field] = w.join(" ");
        stemmed[field] = w.map(stem).join(" ");
      }
      forms.push(form);
      stems.push(stemmed);
    }
    // Multi-row inserts of 500 × 6 values stay under both engines' bound-parameter limits.
    await db.insertInto("articles_fts").values(forms).execute();
    await db.insertInto("articles_stems").values(stems).execute();
    if (!isPostgres(db))
      await db
        .insertInto("articles_headings")
        .values(stems.map(({ content: _, ...heading }) => heading))
        .execute();
  }
  if (!isPostgres(db)) await sql`insert into articles_fts (articles_fts) values ('optimize')`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  // Back to the one table of raw text with prefix indexes (2026_11_22_000001_initial).
  await sql`drop table articles_stems`.execute(db);
  if (!isPostgres(db)) await sql`drop table articles_headings`.execute(db);
  if (isPostgres(db)) await sql`delete from articles_fts`.execute(db);
  else {
    await sql`drop table articles_fts`.execute(db);
    await sql`create virtual table articles_fts using fts5(
      article_id unindexed, title, subtitle, content, tags,
      tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3'
    )`.execute(db);
  }
  const names = isPostgres(db) ? sql`string_agg(t.name, ' ' order by at.position)` : sql`group_concat(t.name, ' ')`;
  await sql`insert into articles_fts (rowid, article_id, title, subtitle, content, tags)
    select a.rowid, a.id, a.title, coalesce(a.subtitle, ''), a.content,
      coalesce((select ${names} from article_tags at join tags t on t.id = at.tag_id where at.article_id = a.id), '')
    from articles a`.execute(db);
}
