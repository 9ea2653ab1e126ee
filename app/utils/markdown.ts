import { Marked, type Tokens } from "marked";
import { responsiveImage } from "./media-url";
import { isSafeLink } from "./safe-path";

// One markdown pipeline for the public article and the editor preview (SPEC §5 'Markdown to
// HTML'). This file runs on both sides; sanitising happens after it: in the browser with
// DOMPurify on the native DOM, on the server in a recycled worker (markdown.server.ts).

/** DOMPurify policy (SECURITY.md 'Content'): HTML only, no style, safe URL schemes. */
export const SANITIZE_CONFIG = {
  USE_PROFILES: { html: true },
  FORBID_TAGS: ["style", "form", "input", "button", "textarea", "select", "iframe", "object", "embed"],
  FORBID_ATTR: ["style"],
  ADD_ATTR: ["target", "loading", "decoding"],
  ALLOW_DATA_ATTR: false,
  // http, https, mailto and relative links only; never `//host` or `/\host` (off-site).
  ALLOWED_URI_REGEXP: /^(?:(?:https?|mailto):|[^a-z/\\]|\/(?![/\\])|[a-z+.-]+(?:[^a-z+.\-:]|$))/i,
} as const;

function escapeAttribute(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** Content may come as one markdown string or as a list of paragraphs (SPEC §3 'Article'). */
export function normalizeContent(content: string | string[] | null | undefined): string {
  if (Array.isArray(content)) return content.filter(Boolean).join("\n\n");
  return content ?? "";
}

const marked = new Marked({
  gfm: true,
  breaks: true, // a single newline gives a line break (SPEC §5)
  renderer: {
    link({ href, title, tokens }: Tokens.Link) {
      const text = this.parser.parseInline(tokens);
      if (!isSafeLink(href)) return text;
      const external = /^https?:\/\//i.test(href);
      const titleAttr = title ? ` title="${escapeAttribute(title)}"` : "";
      const rel = external ? ` target="_blank" rel="noopener noreferrer"` : "";
      return `<a href="${escapeAttribute(href)}"${titleAttr}${rel}>${text}</a>`;
    },
    image({ href, title, text }: Tokens.Image) {
      if (!isSafeLink(href)) return "";
      const alt = text || "Image in article";
      const titleAttr = title ? ` title="${escapeAttribute(title)}"` : "";
      // Uploads and demo images have resized WebP variants (media-url.ts): a phone downloads the
      // 400- or 800-pixel one, not the original (Lighthouse 'Properly size images').
      const { src, srcSet, sizes } = responsiveImage(href, "(max-width: 900px) 100vw, 760px");
      const responsive = srcSet ? ` srcset="${escapeAttribute(srcSet)}" sizes="${escapeAttribute(sizes!)}"` : "";
      return `<img src="${escapeAttribute(src)}"${responsive} alt="${escapeAttribute(alt)}"${titleAttr} loading="lazy" decoding="async">`;
    },
    // Raw HTML in markdown is shown as text, never passed through.
    html({ text }: Tokens.HTML | Tokens.Tag) {
      return escapeAttribute(text);
    },
  },
});

/** Markdown to (unsanitised) HTML; always sanitise the result before showing it. */
export function markdownToHtml(content: string | string[] | null | undefined): string {
  const html = marked.parse(normalizeContent(content), { async: false }) as string;
  const trimmed = html.trim();
  if (!trimmed) return "";
  return trimmed.startsWith("<") ? trimmed : `<p>${trimmed}</p>`;
}
