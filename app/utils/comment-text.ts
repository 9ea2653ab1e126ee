// A comment is plain text (issue 28): paragraphs split on blank lines, line breaks kept, and
// http(s) addresses made links (rel="nofollow ugc"); nothing else is markup. The pieces are
// rendered by React, which escapes every character, so no HTML string is ever built from a
// comment. Shared by the page (rendering) and the server (the links limit counts the same links).

/** http(s) addresses; a trailing full stop, comma, bracket or quote belongs to the sentence. */
const URL_PATTERN = /\bhttps?:\/\/[^\s<>"'«»]+/gi;
const TRAILING = /[.,;:!?)\]}»"'…]+$/;

export type CommentPiece = { text: string } | { href: string };

function linkPieces(line: string): CommentPiece[] {
  const pieces: CommentPiece[] = [];
  let at = 0;
  for (const match of line.matchAll(URL_PATTERN)) {
    const href = match[0].replace(TRAILING, "");
    const start = match.index ?? 0;
    if (start > at) pieces.push({ text: line.slice(at, start) });
    pieces.push({ href });
    at = start + href.length;
  }
  if (at < line.length) pieces.push({ text: line.slice(at) });
  return pieces;
}

/** The comment as paragraphs of lines of pieces (text or a link). */
export function commentParagraphs(body: string): CommentPiece[][][] {
  return body
    .replace(/\r\n?/g, "\n")
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.trim())
    .filter(Boolean)
    .map((paragraph) => paragraph.split("\n").map(linkPieces));
}

/** How many links a comment holds (http(s) addresses and bare `www.` names). */
export function countLinks(body: string): number {
  const urls = body.match(URL_PATTERN)?.length ?? 0;
  const bare = body.match(/(^|[^/\w.])www\.[^\s.]+\.[^\s]+/gi)?.length ?? 0;
  return urls + bare;
}

/** The blocklist setting (one word or phrase a line) as lower-case entries. */
export function blocklistEntries(setting: string): string[] {
  return setting
    .split("\n")
    .map((line) => line.trim().toLowerCase())
    .filter(Boolean);
}

/** The first blocked entry found in any of the texts (case aside), or undefined. */
export function findBlocked(texts: string[], entries: string[]): string | undefined {
  const haystack = texts.join("\n").toLowerCase();
  return entries.find((entry) => haystack.includes(entry));
}

/** Minutes a reader may delete their own comment from the same browser (issue 28). */
export const READER_DELETE_MINUTES = 15;

export const COMMENT_LIMITS = { name: 80, email: 254, body: 5000 } as const;
