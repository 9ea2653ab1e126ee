import { randomUUID } from "node:crypto";
import type { DB } from "../../db/index";
import { rememberSource, type SourceMaps } from "./sources.server";
import type { ParsedComment, ParsedSite } from "./types";

// Issue 27 with issue 28's comments (docs/decisions/026): a WordPress export's comments become rows of
// `comments` on the imported articles. Approved stays approved, waiting ("0") becomes pending, spam
// stays spam (the bin is not brought over: parse-wxr counts it as skipped). One level of replies, as
// here: a deeper reply hangs under its top-level ancestor. The text becomes plain text (no HTML
// survives: tags are dropped, entities decoded, and dropped again), the author's site address is
// not kept (our comments have no such field). Idempotent by the comment's source id (import_sources).

const NAME_MAX = 80;
const EMAIL_MAX = 254;
const BODY_MAX = 5000;
const CHUNK = 200;

const NAMED: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
  hellip: "…",
  mdash: "—",
  ndash: "–",
  laquo: "«",
  raquo: "»",
  lsquo: "‘",
  rsquo: "’",
  ldquo: "“",
  rdquo: "”",
};

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|[a-z]{2,8});/gi, (whole, code: string) => {
    if (code[0] !== "#") return NAMED[code.toLowerCase()] ?? whole;
    const n = code[1] === "x" || code[1] === "X" ? parseInt(code.slice(2), 16) : parseInt(code.slice(1), 10);
    return n > 0 && n <= 0x10ffff && !(n >= 0xd800 && n <= 0xdfff) ? String.fromCodePoint(n) : "";
  });
}

const TAG = /<\/?[a-z!?][^>]*>/gi;

/** A comment's HTML as plain text: paragraphs and line breaks kept as new lines, no tag left. */
export function commentText(html: string): string {
  const lines = html
    .replace(/<br\s*\/?>/gi, "\n")
    .replace(/<\/p\s*>/gi, "\n\n")
    .replace(TAG, "");
  return decodeEntities(lines)
    .replace(TAG, "")
    .replace(/\r\n?/g, "\n")
    .split("\n")
    .map((line) => line.replace(/[^\S\n]+/g, " ").trim())
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim()
    .slice(0, BODY_MAX)
    .trim();
}

const clip = (text: string, max: number) => (text.length > max ? text.slice(0, max).trim() : text);

/** What a comment run did; `note` says why there is nothing to import (Ghost). */
export interface CommentCounts {
  found: number;
  created: number;
  existing: number;
  /** Empty after the HTML was dropped, or on a post that was not imported. */
  skipped: number;
  note: string | null;
}

export const GHOST_COMMENTS_NOTE = "Експорт Ghost не містить коментарів (Ghost зберігає їх окремо від файлу експорту)";

/**
 * Writes the comments of `site` not yet imported onto the articles of `articles` (source id → our
 * id, imported now or before); top-level comments first so a reply finds its parent.
 */
export async function writeComments(
  trx: DB,
  { site, maps, articles, dryRun }: { site: ParsedSite; maps: SourceMaps; articles: Map<string, string>; dryRun: boolean },
): Promise<CommentCounts> {
  const counts: CommentCounts = {
    found: site.comments.length,
    created: 0,
    existing: 0,
    skipped: 0,
    note: site.source === "ghost" ? GHOST_COMMENTS_NOTE : null,
  };
  const bySource = new Map(site.comments.map((c) => [c.sourceId, c]));
  const topOf = (c: ParsedComment): ParsedComment => {
    let top = c;
    const seen = new Set<string>([c.sourceId]);
    for (;;) {
      const parent = top.parentSourceId ? bySource.get(top.parentSourceId) : undefined;
      // A parent on another post, a missing one or a loop: the comment stands on its own.
      if (!parent || parent.postSourceId !== c.postSourceId || seen.has(parent.sourceId)) return top;
      seen.add(parent.sourceId);
      top = parent;
    }
  };
  const ours = new Map(maps.comment);
  const rows: { values: Record<string, unknown>; sourceId: string }[] = [];
  const ordered = site.comments.map((c) => ({ c, top: topOf(c) })).sort((a, b) => Number(a.top !== a.c) - Number(b.top !== b.c));
  for (const { c, top } of ordered) {
    if (ours.has(c.sourceId)) {
      counts.existing++;
      continue;
    }
    const articleId = articles.get(c.postSourceId);
    const body = commentText(c.content);
    const parentId = top === c ? null : ours.get(top.sourceId);
    if (!articleId || !body || (top !== c && !parentId)) {
      counts.skipped++;
      continue;
    }
    const id = randomUUID();
    ours.set(c.sourceId, id);
    const email = c.authorEmail?.trim() ?? "";
    rows.push({
      sourceId: c.sourceId,
      values: {
        id,
        article_id: articleId,
        parent_id: parentId,
        author_name: clip(commentText(c.authorName) || "Анонім", NAME_MAX),
        author_email: email && email.length <= EMAIL_MAX && /^[^\s@]+@[^\s@]+$/.test(email) ? email : null,
        body,
        status: c.status,
        created_at: c.createdAt,
      },
    });
  }
  counts.created = rows.length;
  if (dryRun || !rows.length) return counts;
  for (let i = 0; i < rows.length; i += CHUNK) {
    const chunk = rows.slice(i, i + CHUNK);
    await trx
      .insertInto("comments")
      .values(chunk.map((r) => r.values as never))
      .execute();
    for (const r of chunk) {
      await rememberSource(trx, { source: site.source, site: site.site, kind: "comment", sourceId: r.sourceId, targetId: String(r.values.id) });
    }
  }
  return counts;
}
