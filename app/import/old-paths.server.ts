import { findRedirect, OLD_QUERY } from "./sources.server";

/**
 * For server/app.ts, before the trailing-slash redirect: the new address of an imported site's old
 * path, looked up only when the request would be redirected anyway (a trailing slash) or is `/`
 * with a WordPress query (`/?p=123`); every other path answers undefined without a query.
 */
export async function oldPathRedirect(path: string, url: string): Promise<string | null> {
  if (path.startsWith("/api/") || path.startsWith("/admin") || path.startsWith("/media/") || path.startsWith("/build/")) return null;
  const query = url.slice(path.length);
  if (path === "/") return OLD_QUERY.test(query) ? findRedirect(url) : null;
  if (path.length > 1 && path.endsWith("/")) return findRedirect(url);
  return null;
}
