import { CACHE_TAG } from "./page-cache.server";

// Which pages the page store keeps, and under which key (issue 25, docs/decisions/021-page-keys.md).
// Remix resolves dot segments, decodes each path segment before matching, matches the fixed words of
// a route ignoring case, answers `<path>.data` with the page's loader data, and its loaders read only
// a few query parameters: `/ARTICLE/x`, `/%61rticle/x`, `/a/../article/x` and `/article/x?foo=1` are
// all the page `/article/x`. Keyed by their spelling, each variant made a stored copy of its own,
// tagged by a pattern that did not know it (a withdrawal left it served), and any query string made
// another (the store grew with whatever a crawler invented). So every request target is brought to
// one key: the path as Remix matches it (fixed words in lower case, each parameter decoded and
// encoded again one way), `.data` kept, and only the query parameters the page reads, in one form.
// The store renders the page from its key, so a stored page is always what its key names.

export type PageKind = "page" | "feed" | "json";

export interface PublicPage {
  /** The store key, and the path and query the page is rendered from. */
  key: string;
  kind: PageKind;
  /** What the route says the page shows (the store adds the articles its loaders reported). */
  tags: string[];
}

/** One query parameter as its loader reads it: its one spelling, `undefined` to leave it out (the loader's default), `false` for a value no stored page has. */
type Param = (value: string | null) => string | undefined | false;

/** `?page=N` as pageParam (app/utils/paging.ts) reads it: 1, left out, for anything missing or malformed. */
const pageNumber: Param = (raw) => {
  const page = raw && /^\d{1,6}$/.test(raw) ? Number(raw) : 1;
  return page > 1 ? String(page) : undefined;
};

/** `?q=` as the search loader reads it: its first 200 characters; empty is no query. */
const searchText: Param = (raw) => raw?.slice(0, 200) || undefined;

/** `?file=` of /sitemap.xml (one sitemap file, app/services/feeds.server.ts): a short name; the route answers 404 to any it does not know. */
const sitemapFile: Param = (raw) => (raw === null ? undefined : /^[a-z0-9-]{1,24}$/.test(raw) ? raw : false);

interface Shape {
  /** Fixed words, compared ignoring ASCII case as Remix's routes are, and `$` for a parameter (kept as written: slugs are case-sensitive). */
  path: string[];
  kind: PageKind;
  /** The query parameters the route's loader reads, in key order. */
  params?: Record<string, Param>;
  /** Route ids of the page's `.data` URL, whose `?_routes=` names the loaders to run; no `.data` kept without them. */
  data?: string[];
  tags: (param: string) => string[];
}

const LAYOUT = ["root", "routes/_public"];

const SHAPES: Shape[] = [
  { path: [], kind: "page", data: [...LAYOUT, "routes/_public._index"], tags: () => [CACHE_TAG.home] },
  { path: ["article", "$"], kind: "page", data: [...LAYOUT, "routes/_public.article.$slug"], tags: (slug) => [CACHE_TAG.article(slug)] },
  {
    path: ["category", "$"],
    kind: "page",
    params: { page: pageNumber },
    data: [...LAYOUT, "routes/_public.category.$slug"],
    tags: (slug) => [CACHE_TAG.categories, CACHE_TAG.category(slug)],
  },
  // Issue 29: author and tag pages with their feeds.
  {
    path: ["author", "$"],
    kind: "page",
    params: { page: pageNumber },
    data: [...LAYOUT, "routes/_public.author.$slug"],
    tags: (slug) => [CACHE_TAG.author(slug)],
  },
  { path: ["author", "$", "rss.xml"], kind: "feed", tags: (slug) => [CACHE_TAG.author(slug), CACHE_TAG.feed] },
  { path: ["tag", "$"], kind: "page", params: { page: pageNumber }, data: [...LAYOUT, "routes/_public.tag.$slug"], tags: (slug) => [CACHE_TAG.tag(slug)] },
  { path: ["tag", "$", "rss.xml"], kind: "feed", tags: (slug) => [CACHE_TAG.tag(slug), CACHE_TAG.feed] },
  // Static pages (issue 31 item 5): any page change empties the whole store (the footer lists them).
  { path: ["page", "$"], kind: "page", data: [...LAYOUT, "routes/_public.page.$slug"], tags: () => [] },
  { path: ["search"], kind: "page", params: { q: searchText, page: pageNumber }, data: [...LAYOUT, "routes/_public.search"], tags: () => [CACHE_TAG.search] },
  { path: ["rss.xml"], kind: "feed", tags: () => [CACHE_TAG.feed] },
  // Issue 29: the corrections page and feed change with published articles, as the feeds do.
  { path: ["corrections"], kind: "page", params: { page: pageNumber }, data: [...LAYOUT, "routes/_public.corrections"], tags: () => [CACHE_TAG.feed] },
  { path: ["corrections", "rss.xml"], kind: "feed", tags: () => [CACHE_TAG.feed] },
  { path: ["sitemap.xml"], kind: "feed", params: { file: sitemapFile }, tags: () => [CACHE_TAG.feed] },
  // robots.txt changes only with the settings, which empty the whole store.
  { path: ["robots.txt"], kind: "feed", tags: () => [] },
  { path: ["api", "homepage", "public"], kind: "json", tags: () => [CACHE_TAG.home] },
  { path: ["api", "articles", "slug", "$"], kind: "json", tags: (slug) => [CACHE_TAG.article(slug)] },
  { path: ["api", "seo", "sitemap.xml"], kind: "feed", tags: () => [CACHE_TAG.feed] },
];

const asciiLower = (text: string) => text.replace(/[A-Z]+/g, (s) => s.toLowerCase());

/**
 * The page a request target (path and query, as `req.url`) names, if the page store keeps it: its
 * key (one per page, however the path was spelt and whatever else the query holds), its kind and its
 * tags. Undefined for everything else (the admin, the private API, previews, assets, unknown paths),
 * which Remix answers without the store.
 */
export function publicPage(url: string): PublicPage | undefined {
  // An absolute-form or `*` target is no page of ours.
  if (!url.startsWith("/")) return undefined;
  let parsed: URL;
  try {
    // Concatenated, as Remix builds a request's URL (server/remix-handler.ts): `//x` stays a path.
    parsed = new URL(`http://page.store${url}`);
  } catch {
    return undefined;
  }
  // Remix's single fetch: `/p.data` is the data of `/p`, and `/_root.data` that of `/`.
  let pathname = parsed.pathname;
  const data = pathname.endsWith(".data");
  if (data) pathname = pathname.slice(0, -".data".length).replace(/^\/_root$/, "/");
  let segments: string[];
  try {
    segments = pathname.split("/").slice(1).map(decodeURIComponent);
  } catch {
    return undefined;
  }
  // A trailing slash matches the same route (pages redirect it before this; /api/ and `.data` do not).
  if (segments.at(-1) === "") segments.pop();
  const shape = SHAPES.find(
    (s) => s.path.length === segments.length && s.path.every((word, i) => (word === "$" ? segments[i] !== "" : asciiLower(segments[i]) === word)),
  );
  if (!shape || (data && !shape.data)) return undefined;
  const at = shape.path.indexOf("$");
  const param = at === -1 ? "" : segments[at];
  let path = `/${shape.path.map((word, i) => (word === "$" ? encodeURIComponent(segments[i]) : word)).join("/")}`;
  // A parameter that ends in `.data` would make the key a data URL: Remix answers it 404 anyway.
  if (!data && path.endsWith(".data")) return undefined;
  if (data) path = path === "/" ? "/_root.data" : `${path}.data`;

  // (No parameter is read when there is no query: each reader answers undefined for a missing one.)
  let search = "";
  if (parsed.search) {
    const query = new URLSearchParams();
    for (const [name, read] of Object.entries(shape.params ?? {})) {
      const value = read(parsed.searchParams.get(name));
      if (value === false) return undefined;
      if (value !== undefined) query.set(name, value);
    }
    const routes = parsed.searchParams.get("_routes");
    if (data && routes !== null) {
      // Remix loads the named routes among those the path matches (none: an empty answer, not kept).
      const named = routes.split(",");
      const load = shape.data!.filter((id) => named.includes(id));
      if (!load.length) return undefined;
      query.set("_routes", load.join(","));
    }
    search = query.toString();
  }
  return { key: search ? `${path}?${search}` : path, kind: data ? "json" : shape.kind, tags: shape.tags(param) };
}
