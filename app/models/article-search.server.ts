import { sql } from "kysely";
import { db } from "../../db/index";
import { newestMatches, type SearchTier } from "../../db/sql/search";
import { firstMatch, isEmptyQuery, markMatches, parseSearch, type SearchQuery } from "../utils/search-text.server";
import { articleRows } from "./article-queries.server";
import { approvedCommentCount } from "./comment-count.server";
import { toCard, type Card } from "./public-article.server";

// Public search (/search; issue 30 items 2 and 3, docs/decisions/030-search-stemming.md).

/** One search hit: the card plus highlighted title and snippet, marked with \u0001...\u0002. */
export interface SearchHit extends Card {
  title_marked: string;
  snippet: string;
}

/** The deepest result a reader can page to (the 100th page of 10): the cost of a search is bounded by it. */
export const SEARCH_WINDOW = 1000;
/** Matches counted exactly; past them the page says "понад …" and offers the next page. */
export const SEARCH_COUNTED = 100;

/**
 * Full-text search over published articles. Words match by stem (вакцина finds вакцинами), a
 * phrase in quotes word for word; an input without words gives no hits.
 *
 * Order: matches with every term in the title first, then in the heading (subtitle, tags), then
 * anywhere; newest first within each. Each of the three is a walk over the index from the newest
 * article that stops after the rows the page needs (`offset + perPage + 1`; at least
 * SEARCH_COUNTED + 1 for the anywhere walk, which gives the count), so no search reads every match
 * of a common word: the cost does not grow with the archive. `total` is exact up to
 * SEARCH_COUNTED; past it `capped` is true and `total` is how many are known to exist (the page
 * says "понад"). Highlights and snippets are made for the page's rows only.
 */
export async function searchArticles({ q, page, perPage }: { q: string; page: number; perPage: number }) {
  const query = parseSearch(q);
  const offset = (page - 1) * perPage;
  if (isEmptyQuery(query) || offset >= SEARCH_WINDOW) return { hits: [] as SearchHit[], total: 0, capped: false };
  const need = offset + perPage + 1;
  const walk = async (tier: SearchTier | undefined, limit: number) =>
    (await newestMatches(query, { tier, limit }).execute(db)).rows.map((row) => Number(row.r));
  const counted = Math.max(need, SEARCH_COUNTED + 1);
  const anywhere = await walk(undefined, counted);
  const capped = anywhere.length >= counted;
  const total = capped ? counted - 1 : anywhere.length;
  if (offset >= anywhere.length) return { hits: [] as SearchHit[], total, capped };
  // Title matches, then heading matches, then the rest: a tier walked only while the page is not full.
  const order: number[] = [];
  const seen = new Set<number>();
  const add = (rows: number[]) => {
    for (const r of rows) {
      if (order.length >= need) return;
      if (seen.has(r)) continue;
      seen.add(r);
      order.push(r);
    }
  };
  add(await walk("title", need));
  if (order.length < need) add(await walk("heading", need));
  add(anywhere);
  const pageRows = order.slice(offset, offset + perPage);
  if (!pageRows.length) return { hits: [] as SearchHit[], total, capped };
  const rows = await articleRows()
    .where("articles.status", "=", "published")
    .select(["articles.content", sql<number>`articles.rowid`.as("r")])
    .select(approvedCommentCount)
    .where(sql<boolean>`articles.rowid in (${sql.join(pageRows)})`)
    .execute();
  const byRowid = new Map(rows.map((row) => [Number(row.r), row]));
  const hits = pageRows.flatMap((r): SearchHit[] => {
    const row = byRowid.get(r);
    if (!row) return [];
    const title = row.title || "No title";
    const snippet = makeSnippet(cleanSnippet(row.content), query) ?? makeSnippet(row.subtitle ?? "", query) ?? firstWords(cleanSnippet(row.content));
    return [{ ...toCard(row), title_marked: markMatches(title, query), snippet }];
  });
  return { hits, total, capped };
}

const SNIPPET_WORDS = 24;
const SNIPPET_SCAN = 5_000;

function firstWords(text: string): string {
  const words = text.split(" ");
  return words.slice(0, SNIPPET_WORDS).join(" ") + (words.length > SNIPPET_WORDS ? "…" : "");
}

/** About SNIPPET_WORDS words of text around its first matching word, marked, with '…' where cut; undefined without a match. */
function makeSnippet(text: string, query: SearchQuery): string | undefined {
  const words = text.split(" ");
  // The first SNIPPET_SCAN words are looked at: a match further into a very long body shows the subtitle or the opening instead.
  const at = firstMatch(words.length > SNIPPET_SCAN ? words.slice(0, SNIPPET_SCAN) : words, query);
  if (at === -1) return undefined;
  const from = Math.max(0, Math.min(at - 6, words.length - SNIPPET_WORDS));
  const to = Math.min(words.length, from + SNIPPET_WORDS);
  return `${from > 0 ? "…" : ""}${markMatches(words.slice(from, to).join(" "), query)}${to < words.length ? "…" : ""}`;
}

/** Snippets come from the markdown source: drop its syntax so readers see prose. */
function cleanSnippet(text: string | null): string {
  return (text ?? "")
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/[#*_>`]+/g, "")
    .replace(/\s+/g, " ")
    .trim();
}
