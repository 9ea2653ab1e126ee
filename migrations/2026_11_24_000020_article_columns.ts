import type { Kysely } from "kysely";
import { isPostgres } from "./dialect";
import { columnDefinitions, rebuildArticles } from "./rebuild-articles";

// Issue 16 (cheaper cold renders): the articles table is rebuilt with its two long text columns,
// `content` (markdown) and `content_html`, last. SQLite stores a row's columns in order and a long
// row spills into overflow pages; to read any column after a long one it walks that chain. Every
// card (home, category, search, related, feeds) reads status, published_at, category, author,
// image and views, all after ~65 KB of text: about 16 page reads a card. Measured on 10,000
// articles: docs/perf/016-page-store.md. Nothing else changes: names, types, checks, defaults,
// indexes and rowids (articles_fts rows share them) stay. PostgreSQL keeps long values out of line
// (TOAST) by itself: nothing to do there.

const LONG = ['"content"', '"content_html"'];

function longLast(definition: string): string {
  const { head, parts } = columnDefinitions(definition);
  const isLong = (part: string) => LONG.some((name) => part.startsWith(`${name} `));
  if (parts.filter(isLong).length !== LONG.length) throw new Error("articles: expected the columns content and content_html");
  const ordered = [...parts.filter((p) => !isLong(p)), ...LONG.map((name) => parts.find((p) => p.startsWith(`${name} `))!)];
  return `${head}(${ordered.join(", ")})`;
}

export async function up(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) return;
  await rebuildArticles(db, longLast);
}

// Going back puts the long columns where they were, after subtitle.
function longAfterSubtitle(definition: string): string {
  const { head, parts } = columnDefinitions(definition);
  const long = LONG.map((name) => parts.find((p) => p.startsWith(`${name} `))!);
  const rest = parts.filter((p) => !long.includes(p));
  const at = rest.findIndex((p) => p.startsWith('"subtitle" ')) + 1;
  return `${head}(${[...rest.slice(0, at), ...long, ...rest.slice(at)].join(", ")})`;
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) return;
  await rebuildArticles(db, longAfterSubtitle);
}
