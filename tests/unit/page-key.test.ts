import * as fc from "fast-check";
import { describe, expect, it } from "vitest";
import { publicPage } from "../../app/page-store/page-key.server";

// One stored page per page (issue 25, docs/decisions/021-page-keys.md): every spelling of a path
// Remix answers the same way, and any query the page does not read, is one key. The HTTP side
// (variants stored, then withdrawn) is tests/integration/page-store.test.ts.
const key = (url: string) => publicPage(url)?.key;

describe("publicPage: the store's key of a request target", () => {
  it("brings case, percent-encoding and dot segments of the fixed words to one path; parameters keep their case", () => {
    for (const url of [
      "/article/some-slug",
      "/ARTICLE/some-slug",
      "/Article/some-slug",
      "/%61rticle/some-slug",
      "/%61%72%74%69%63%6C%65/some-slug",
      "/%41RTICLE/some-slug",
      "/x/../article/some-slug",
      "/x/%2e%2e/article/some-slug",
      "/./article/some-slug",
      "/article/%73ome-slug",
      "/article/some-slug?utm_source=x&fbclid=1&gclid=2",
      "/article/some-slug?page=2&q=x&_data=routes%2F_public.article.%24slug&index&_routes=root",
    ]) {
      expect(key(url), url).toBe("/article/some-slug");
    }
    // Slugs are compared as written (SQLite's BINARY): another case is another (unknown) article.
    expect(key("/article/Some-Slug")).toBe("/article/Some-Slug");
    // One encoding of a slug outside ASCII, however the client escaped it.
    const encoded = encodeURIComponent("космос-і-зорі");
    expect(key(`/article/${encoded.toLowerCase()}`)).toBe(`/article/${encoded}`);
    expect(key(`/article/космос-і-зорі`)).toBe(`/article/${encoded}`);
    expect(key("/CATEGORY/Medicine")).toBe("/category/Medicine");
    expect(key("/API/Articles/SLUG/x")).toBe("/api/articles/slug/x");
    expect(key("/api/homepage/public/")).toBe("/api/homepage/public");
  });

  it("keys feeds and sitemaps without their query; /sitemap.xml keeps only the file it is asked for", () => {
    for (const url of ["/rss.xml", "/RSS.xml", "/Rss.XML", "/%72ss.xml", "/rss.xml?x=1", "/rss.xml?utm_source=a&page=3"])
      expect(key(url), url).toBe("/rss.xml");
    for (const url of ["/sitemap.xml", "/SITEMAP.XML", "/sitemap.xml?x=1&page=2"]) expect(key(url), url).toBe("/sitemap.xml");
    expect(key("/sitemap.xml?file=articles-2&x=1")).toBe("/sitemap.xml?file=articles-2");
    // A file name no sitemap has is a 404: never a key.
    expect(publicPage("/sitemap.xml?file=../../etc")).toBeUndefined();
    expect(key("/api/seo/sitemap.xml?file=articles-2")).toBe("/api/seo/sitemap.xml");
    expect(key("/ROBOTS.txt?x")).toBe("/robots.txt");
    expect(publicPage("/RSS.xml")).toMatchObject({ kind: "feed", tags: ["feed"] });
  });

  it("keeps only the parameters a page reads, in one form: page on categories and search, q on search", () => {
    expect(key("/category/medicine?page=2&utm_source=x&foo=bar")).toBe("/category/medicine?page=2");
    expect(key("/category/medicine?foo=bar&page=02")).toBe("/category/medicine?page=2");
    // page=1, 0 or anything malformed is the first page, as pageParam reads it.
    for (const page of ["1", "0", "abc", "", "-3", "1e3", "1234567"]) expect(key(`/category/medicine?page=${page}`), page).toBe("/category/medicine");
    expect(key("/search?page=3&q=%D0%BA%D0%BE%D1%81%D0%BC%D0%BE%D1%81&x=1")).toBe(key("/search?q=космос&page=3"));
    expect(key("/search?q=космос&q=other")).toBe(key("/search?q=космос"));
    expect(key("/search?q=")).toBe("/search");
    expect(key(`/search?q=${"я".repeat(300)}`)).toBe(key(`/search?q=${"я".repeat(200)}`));
    // The home and the article read no parameter.
    expect(key("/?page=2&q=x")).toBe("/");
  });

  it("keys a page's single-fetch data (.data) apart from the page, with the loaders it names in one order", () => {
    for (const url of ["/article/x.data", "/ARTICLE/x.data", "/article/x/.data", "/%61rticle/x.data?foo=1"]) expect(key(url), url).toBe("/article/x.data");
    for (const url of ["/_root.data", "/.data"]) expect(key(url), url).toBe("/_root.data");
    expect(publicPage("/article/x.data")).toMatchObject({ kind: "json", tags: ["article:x"] });
    expect(key("/article/x.data?_routes=routes%2F_public.article.%24slug%2Croot%2Cbogus")).toBe(
      `/article/x.data?_routes=${encodeURIComponent("root,routes/_public.article.$slug")}`,
    );
    expect(key("/category/y.data?page=2&_routes=routes%2F_public.category.%24slug")).toBe(
      `/category/y.data?page=2&_routes=${encodeURIComponent("routes/_public.category.$slug")}`,
    );
    // Loaders none of which the page has: Remix runs none; nothing worth keeping.
    expect(publicPage("/article/x.data?_routes=bogus")).toBeUndefined();
    expect(publicPage("/article/x.data?_routes=")).toBeUndefined();
    // A parameter that ends in .data is not a data request (Remix: a 404), and never becomes one.
    expect(publicPage("/article/x%2Edata")).toBeUndefined();
    expect(publicPage("/_ROOT.data")).toBeUndefined();
  });

  it("tags a page by its route, whatever the spelling of its path", () => {
    expect(publicPage("/ARTICLE/Slug")?.tags).toEqual(["article:Slug"]);
    expect(publicPage("/Category/x?page=3")?.tags).toEqual(["categories", "category:x"]);
    expect(publicPage("/SEARCH?q=a")?.tags).toEqual(["search"]);
    expect(publicPage("/_root.data")?.tags).toEqual(["home"]);
    expect(publicPage("/API/homepage/public")?.tags).toEqual(["home"]);
    expect(publicPage("/API/articles/slug/x")?.tags).toEqual(["article:x"]);
  });

  it("keeps nothing but the public pages: not the admin, the private API, previews or unknown paths, however spelt", () => {
    for (const url of [
      "/admin",
      "/ADMIN/articles",
      "/%61dmin",
      "/api/auth/me",
      "/API/auth/me",
      "/api/articles/",
      "/preview/token",
      "/PREVIEW/token",
      "/preview.data",
      "/no/such/page",
      "/article",
      "/article/x/y",
      "//article/x",
      "/article//x",
      "/__manifest?p=%2F&version=1",
      "/build/x.js",
      "/media/x.jpg",
      "/healthz",
      "http://evil.example/article/x",
      "*",
    ]) {
      expect(publicPage(url), url).toBeUndefined();
    }
  });

  it("gives a key back unchanged, and any query on an article the article's key (property)", () => {
    fc.assert(
      fc.property(
        fc.constantFrom("/article/x", "/Category/med", "/search", "/", "/rss.xml", "/article/x.data", "/sitemap.xml"),
        fc.webQueryParameters(),
        (path, query) => {
          const page = publicPage(`${path}?${query}`);
          if (page) expect(publicPage(page.key)).toEqual(page);
          if (path === "/article/x") expect(page?.key).toBe("/article/x");
        },
      ),
      { numRuns: 1_000 },
    );
  });
});
