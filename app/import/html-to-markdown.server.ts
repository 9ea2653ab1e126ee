import TurndownService from "turndown";
import { tables, strikethrough } from "turndown-plugin-gfm";

// Imported HTML becomes our markdown (issue 27 item 3) with turndown (DESIGN §2), then goes through
// the same renderer and sanitiser as any save. Runs in the CPU worker. WordPress bodies first lose
// their Gutenberg block comments, have their shortcodes resolved and get WordPress's paragraphs
// (wpautop: a blank line is a paragraph). Embeds we do not render (iframes, video, audio, objects,
// [embed] shortcodes) become links; scripts, styles and forms are dropped; a link or image whose
// address is not http(s), mailto or relative keeps its text only, so `javascript:` never reaches
// the markdown (the sanitiser would remove it anyway).

const SAFE_URL = /^(?:https?:|mailto:|\/(?![/\\])|#|[^a-z:/\\]*(?:[/?#]|$))/i;
const safeUrl = (url: string | null | undefined) => Boolean(url && SAFE_URL.test(url.trim()));

const BLOCK =
  /^<(?:p|div|h[1-6]|ul|ol|li|blockquote|pre|table|thead|tbody|tr|td|th|figure|figcaption|hr|img|iframe|video|audio|section|article|aside|header|footer|dl|dt|dd|address|object|embed|form|style|script)\b/i;

/** WordPress's wpautop, simplified: a chunk of text between blank lines that is not a block becomes a paragraph. */
export function autop(html: string): string {
  if (!html.includes("\n")) return BLOCK.test(html.trim()) ? html : `<p>${html}</p>`;
  return html
    .replace(/\r\n?/g, "\n")
    .split(/\n\s*\n/)
    .map((chunk) => {
      const t = chunk.trim();
      if (!t) return "";
      return BLOCK.test(t) ? t : `<p>${t.replace(/\n/g, "<br>\n")}</p>`;
    })
    .join("\n");
}

const attr = (attrs: string, name: string) => new RegExp(`${name}\\s*=\\s*["']([^"']*)["']`, "i").exec(attrs)?.[1] ?? null;
const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");

/** WordPress shortcodes: [caption] keeps its image and caption, [embed]/[video]/[audio] become links, the common others go. */
export function resolveShortcodes(html: string): string {
  return html
    .replace(/\[caption([^\]]*)\]([\s\S]*?)\[\/caption\]/gi, (_m, _attrs: string, inner: string) => {
      const img = /<img[^>]*>/i.exec(inner)?.[0] ?? "";
      const link = /<a[^>]*>\s*<img[^>]*>\s*<\/a>/i.exec(inner)?.[0];
      const caption = inner.replace(/<a[^>]*>\s*<img[^>]*>\s*<\/a>|<img[^>]*>/i, "").trim();
      return `<figure>${link ?? img}${caption ? `<figcaption>${caption}</figcaption>` : ""}</figure>`;
    })
    .replace(/\[embed([^\]]*)\]([\s\S]*?)\[\/embed\]/gi, (_m, _a: string, url: string) => `<p><a href="${esc(url.trim())}">${esc(url.trim())}</a></p>`)
    .replace(/\[(video|audio)([^\]]*)\](?:\[\/\1\])?/gi, (_m, _kind: string, attrs: string) => {
      const src = attr(attrs, "src") ?? attr(attrs, "mp4") ?? attr(attrs, "mp3");
      return src ? `<p><a href="${esc(src)}">${esc(src)}</a></p>` : "";
    })
    .replace(/\[youtube\s+([^\]\s]+)\s*\]/gi, (_m, url: string) => `<p><a href="${esc(url)}">${esc(url)}</a></p>`)
    .replace(/\[\/?(?:gallery|playlist|contact-form-7|contact-form|wpforms|wp_[a-z_]+|et_pb_[a-z_]+|vc_[a-z_]+|su_[a-z_]+)\b[^\]]*\]/gi, "");
}

/** What a WordPress body needs before it is HTML like any other. */
export function prepareWordpressHtml(html: string): string {
  const noBlocks = html.replace(/<!--\s*\/?wp:[\s\S]*?-->/g, "");
  return autop(resolveShortcodes(noBlocks));
}

let service: TurndownService | undefined;

function turndown(): TurndownService {
  if (service) return service;
  const td = new TurndownService({ headingStyle: "atx", codeBlockStyle: "fenced", bulletListMarker: "-", emDelimiter: "*", hr: "---" });
  td.use([tables, strikethrough]);
  td.remove(["script", "style", "noscript", "form", "input", "button", "select", "textarea", "template", "head", "meta", "link"]);
  // A `<` in text would be raw HTML to the markdown renderer: kept as an entity, it stays text.
  const escape = td.escape.bind(td);
  td.escape = (text: string) => escape(text).replace(/</g, "&lt;");
  td.addRule("embeds", {
    filter: ["iframe", "video", "audio", "embed", "object"],
    replacement: (_content, node) => {
      const el = node as HTMLElement;
      const src = el.getAttribute("src") ?? el.getAttribute("data") ?? el.querySelector?.("source")?.getAttribute("src") ?? null;
      return safeUrl(src) ? `\n\n[${src}](${src})\n\n` : "";
    },
  });
  td.addRule("safeLinks", {
    filter: (node) => node.nodeName === "A" && !safeUrl((node as HTMLElement).getAttribute("href")),
    replacement: (content) => content,
  });
  td.addRule("safeImages", {
    filter: (node) => node.nodeName === "IMG" && !safeUrl((node as HTMLElement).getAttribute("src")),
    replacement: () => "",
  });
  td.addRule("figcaption", {
    filter: ["figcaption"],
    replacement: (content) => (content.trim() ? `\n\n*${content.trim()}*\n\n` : ""),
  });
  service = td;
  return td;
}

/** HTML to markdown (the WordPress preparation first when `wordpress`). */
export function htmlToMarkdown(html: string, { wordpress = false }: { wordpress?: boolean } = {}): string {
  const source = wordpress ? prepareWordpressHtml(html) : html;
  if (!source.trim()) return "";
  return turndown()
    .turndown(source)
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/** Image addresses in an HTML body (`<img src>`), in order, each once. */
export function imageUrlsOf(html: string): string[] {
  const urls = new Set<string>();
  for (const m of html.matchAll(/<img\b[^>]*?\bsrc\s*=\s*["']([^"']+)["']/gi)) urls.add(m[1].replace(/&amp;/g, "&"));
  return [...urls];
}
