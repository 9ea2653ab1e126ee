import { findRedirect, OLD_QUERY } from "./sources.server";

/**
 * For server/app.ts, before the trailing-slash redirect, synchronously: whether a request may be an
 * imported site's old path at all. Only a path that would be redirected anyway (a trailing slash)
 * or `/` with a WordPress query (`/?p=123`) is; admin, API, media and build paths never are. Every
 * other request goes on without a promise or a query.
 */
export function mayBeOldPath(path: string, url: string): boolean {
  if (path.length <= 1) return path === "/" && OLD_QUERY.test(url.slice(path.length));
  if (!path.endsWith("/")) return false;
  return !(path.startsWith("/api/") || path.startsWith("/admin") || path.startsWith("/media/") || path.startsWith("/build/"));
}

/** The new address of an imported site's old path, or null (one primary-key read; ask mayBeOldPath first). */
export async function oldPathRedirect(path: string, url: string): Promise<string | null> {
  return mayBeOldPath(path, url) ? findRedirect(url) : null;
}
