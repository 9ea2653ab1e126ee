import { getSettings } from "../models/settings.server";
import { getUser } from "./auth.server";

// DESIGN §8: maintenance mode really closes the public site (503 page); staff who are signed in
// still see it. SECURITY.md 'Staying up': it closes every public door, so the rule is deny by
// default: a reader's GET gets the 503 unless its path is one of the few left open (the admin, for
// signing in; the staff API, which asks for a sign-in itself; /healthz; robots.txt), and the public
// JSON API (the reads that need no sign-in) closes with the pages, as a 503 `{detail}`. Files under
// /build, /media and public/ were served before this check runs; a missing one lands here.
//
// The decision is made on the path as Remix will match it (routePath below), never on its
// spelling: `/api/articles.data` (single fetch), `/api/Articles` and `/api/%61rticles` are all the
// public list (issue 25). The `?_data=` form of a data request uses the page's own path, so it
// meets the same rule.
const OPEN_PATHS = /^\/(admin|api|healthz|robots\.txt|favicon\.ico)(\/|$)/;
const PUBLIC_API = /^\/api\/(homepage\/public|articles|articles\/slug\/[^/]+|seo\/sitemap\.xml)\/?$/;

/**
 * The path a request reaches in Remix, lower-cased (its route matching ignores case): dot
 * segments resolved as the URL parser does (`%2e%2e` too), the single-fetch `.data` suffix dropped
 * (`/_root.data` is the home page), each segment percent-decoded as the router decodes it (an
 * encoded slash stays inside its segment).
 */
function routePath(path: string): string {
  let pathname: string;
  try {
    // Concatenated, not resolved: `//host/x` stays a path, as in server/remix-handler.ts.
    pathname = new URL(`http://localhost${path.startsWith("/") ? path : `/${path}`}`).pathname;
  } catch {
    return path.toLowerCase();
  }
  if (pathname.endsWith(".data")) pathname = pathname.slice(0, -".data".length).replace(/^\/_root$/, "/");
  const decoded = pathname
    .split("/")
    .map((segment) => {
      try {
        return decodeURIComponent(segment).replace(/\//g, "%2F");
      } catch {
        return segment;
      }
    })
    .join("/");
  return decoded.toLowerCase();
}

export const MAINTENANCE_DETAIL = "Сайт на технічному обслуговуванні. Спробуйте трохи згодом.";

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The 503 answer for readers in maintenance mode: the page (`html`), or `{detail}` for the public
 * API (`json`); undefined when the request may go on. Signed-in staff (a valid session cookie or
 * bearer token) pass, as on the public pages.
 */
export async function maintenanceResponse({
  path,
  method,
  cookie,
  authorization,
}: {
  path: string;
  method: string;
  cookie?: string;
  authorization?: string;
}): Promise<{ type: "html" | "json"; body: string } | undefined> {
  if (method !== "GET" && method !== "HEAD") return undefined;
  const route = routePath(path);
  const publicApi = PUBLIC_API.test(route);
  if (!publicApi && OPEN_PATHS.test(route)) return undefined;
  const { maintenance_mode } = await getSettings("general");
  if (!maintenance_mode) return undefined;
  const headers: Record<string, string> = {};
  if (cookie?.includes("__session=")) headers.Cookie = cookie;
  if (authorization) headers.Authorization = authorization;
  if ((headers.Cookie || headers.Authorization) && (await getUser(new Request("http://localhost/", { headers })))) return undefined;
  if (publicApi) return { type: "json", body: JSON.stringify({ detail: MAINTENANCE_DETAIL }) };
  return { type: "html", body: await maintenancePage() };
}

async function maintenancePage(): Promise<string> {
  const { site_title } = await getSettings("seo");
  const title = escapeHtml(site_title);
  return `<!doctype html>
<html lang="uk">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>Технічні роботи — ${title}</title>
<style>
body{margin:0;min-height:100vh;display:grid;place-items:center;font-family:system-ui,sans-serif;background:#14171f;color:#f6f7f9;text-align:center;padding:24px}
h1{font-size:1.8rem;margin:0 0 12px}p{margin:0 0 8px;color:#c9cdd6;line-height:1.5}
</style>
</head>
<body>
<main>
<h1>Сайт на технічному обслуговуванні</h1>
<p>Ми оновлюємо «${title}» і незабаром повернемося.</p>
<p>Спробуйте відкрити сторінку трохи згодом.</p>
</main>
</body>
</html>`;
}
