// Redirect targets built from a request (SECURITY.md 'API and input': no redirect built from the
// request may leave the site). Browsers read `\` as `/` and drop tabs and newlines from URLs, so
// `/\evil.example`, `/\t/evil.example` and `/a/../..//evil.example` all lead off-site when sent
// as a Location; each is refused here before any redirect is built.

const BASE = "http://site.invalid";

/** `value` as a same-site path (pathname, query, hash) under `prefix`, or `fallback`. */
export function safePath(value: unknown, fallback: string, prefix = "/"): string {
  if (typeof value !== "string" || !value.startsWith("/") || value.length > 2048) return fallback;
  // Control characters (CR/LF would also break the Location header) and backslashes are refused.
  if (/[\u0000-\u001f\u007f\\]/.test(value)) return fallback;
  let url: URL;
  try {
    url = new URL(value, BASE);
  } catch {
    return fallback;
  }
  if (url.origin !== BASE || url.pathname.startsWith("//")) return fallback;
  const path = `${url.pathname}${url.search}${url.hash}`;
  const underPrefix = prefix === "/" || url.pathname === prefix || url.pathname.startsWith(prefix.endsWith("/") ? prefix : `${prefix}/`);
  return underPrefix ? path : fallback;
}

/** True for a link target a markdown body may carry: http(s), mailto, an anchor or a same-site path. */
export function isSafeLink(href: string): boolean {
  const url = href.replace(/[\t\n\r]/g, ""); // what a browser's URL parser drops
  if (/^(https?:\/\/|mailto:)/i.test(url)) return !/^https?:\/\/[^/]*\\/i.test(url);
  if (/^#/.test(url)) return true;
  if (/^\.\.?\//.test(url)) return !url.includes("\\");
  return safePath(url, "") !== "";
}
