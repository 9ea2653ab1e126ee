import { markdownToHtml } from "../utils/markdown";
import { searchRows, type SearchRows } from "../utils/search-text.server";
import { htmlToMarkdown } from "./html-to-markdown.server";
import { parseGhost } from "./parse-ghost.server";
import { isOurExport, parseOurs } from "./parse-ours.server";
import { parseWxr } from "./parse-wxr.server";
import { ImportRefusal, type ParsedSite } from "./types";

// The import's CPU work, run in the CPU worker (app/workers/cpu-worker.ts, docs/decisions/018 and
// 025): reading the whole file into a ParsedSite, and converting bodies (HTML → markdown → the
// rendered HTML the sanitiser then cleans) in batches, with each article's search rows (its words
// and their stems, as the editor's save makes them in the `search` job), so the import's writes on
// the request thread only insert.

export type ImportFormat = "wordpress" | "ghost" | "ours" | "auto";

export const FORMAT_MESSAGES = {
  empty: "Файл порожній. Нічого не імпортовано",
  json: "Файл пошкоджений або обрізаний: JSON не читається. Нічого не імпортовано",
  unknown: "Невідомий формат: очікується експорт WordPress (XML), Ghost (JSON) або цього сайту (JSON). Нічого не імпортовано",
  wrong: (want: string, got: string) => `Файл не відповідає вибраному формату: вибрано ${want}, а це ${got}. Нічого не імпортовано`,
};

const NAMES: Record<Exclude<ImportFormat, "auto">, string> = { wordpress: "WordPress", ghost: "Ghost", ours: "експорт цього сайту" };

export type ParseAnswer = { ok: true; site: ParsedSite } | { ok: false; message: string };

function parse(format: ImportFormat, text: string, sourceUrl: string): ParsedSite {
  const body = text.replace(/^\uFEFF/, "").trimStart();
  if (!body) throw new ImportRefusal(FORMAT_MESSAGES.empty);
  let found: Exclude<ImportFormat, "auto">;
  let json: unknown;
  if (body.startsWith("<")) found = "wordpress";
  else if (body.startsWith("{") || body.startsWith("[")) {
    try {
      json = JSON.parse(body);
    } catch {
      throw new ImportRefusal(FORMAT_MESSAGES.json);
    }
    found = isOurExport(json) ? "ours" : "ghost";
  } else throw new ImportRefusal(FORMAT_MESSAGES.unknown);
  if (format !== "auto" && format !== found) throw new ImportRefusal(FORMAT_MESSAGES.wrong(NAMES[format], NAMES[found]));
  if (found === "wordpress") return parseWxr(body);
  if (found === "ours") return parseOurs(json);
  return parseGhost(json, sourceUrl);
}

/** The whole file into a ParsedSite, or the Ukrainian reason it is refused. */
export function parseImportFile(format: ImportFormat, text: string, sourceUrl = ""): ParseAnswer {
  try {
    return { ok: true, site: parse(format, text, sourceUrl) };
  } catch (error) {
    if (error instanceof ImportRefusal) return { ok: false, message: error.message };
    if (error instanceof RangeError) return { ok: false, message: "Файл занадто складний для читання (надто глибока вкладеність). Нічого не імпортовано" };
    throw error;
  }
}

export interface ConvertItem {
  html: string | null;
  markdown: string | null;
  wordpress: boolean;
  /** Image address → its new address here, rewritten in the body before conversion. */
  images: Record<string, string>;
  /** The article's other searchable fields as they will be saved (the body is the converted markdown). */
  search: { title: string; subtitle: string | null; tags: string[] };
}
export type ConvertAnswer = { markdown: string; html: string; search: SearchRows } | { error: string };

function rewrite(text: string, images: Record<string, string>): string {
  let out = text;
  for (const [from, to] of Object.entries(images)) {
    out = out.split(from).join(to);
    const amp = from.replace(/&/g, "&amp;");
    if (amp !== from) out = out.split(amp).join(to);
  }
  return out;
}

/** Converts a batch of bodies; `sanitize` is the worker's DOMPurify with the shared policy. */
export function convertBatch(items: ConvertItem[], sanitize: (html: string) => string): ConvertAnswer[] {
  return items.map((item) => {
    try {
      const markdown =
        item.markdown !== null ? rewrite(item.markdown, item.images) : htmlToMarkdown(rewrite(item.html ?? "", item.images), { wordpress: item.wordpress });
      const html = markdown.trim() ? sanitize(markdownToHtml(markdown)) : "";
      return { markdown, html, search: searchRows({ ...item.search, content: markdown }) };
    } catch (error) {
      return { error: error instanceof RangeError ? "надто глибока вкладеність" : String((error as Error)?.message ?? error) };
    }
  });
}
