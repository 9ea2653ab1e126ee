import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";

// patches/@remix-run+router+1.23.3.patch (applied by `npm install` through patch-package): the
// server's route matcher keeps each route tree's ranked branches and each compiled pattern instead
// of making them again on every match (docs/perf/016-page-store.md: a sixth of a cold render).
// Matching must give exactly what the unpatched router gives.
const require = createRequire(import.meta.url);
const router = require("@remix-run/router") as typeof import("@remix-run/router");

const routes = [
  {
    id: "root",
    path: "/",
    children: [
      { id: "home", index: true },
      { id: "article", path: "article/:slug" },
      { id: "article-new", path: "article/new" },
      { id: "category", path: "category/:slug?" },
      { id: "feed", path: "rss.xml" },
      { id: "exact-case", path: "Case", caseSensitive: true },
      {
        id: "admin",
        path: "admin",
        children: [
          { id: "admin-index", index: true },
          { id: "admin-article", path: "articles/edit/:id" },
        ],
      },
      { id: "splat", path: "*" },
    ],
  },
];

const ids = (path: string) => router.matchRoutes(routes, path)?.map((m) => [m.route.id, m.params]) ?? null;

describe("the patched @remix-run/router", () => {
  it("is the patched file (npm install ran patch-package)", () => {
    const source = readFileSync(require.resolve("@remix-run/router"), "utf8");
    expect(source).toContain("rankedBranches.get(routes)");
    expect(source).toContain("compiledPaths.get(compiledKey)");
    expect(source).toContain("firstSegments[i] !== first");
  });

  it("ranks and matches as before, the same on every call", () => {
    for (let round = 0; round < 3; round++) {
      expect(ids("/")).toEqual([
        ["root", {}],
        ["home", {}],
      ]);
      expect(ids("/article/new")?.at(-1)).toEqual(["article-new", {}]);
      expect(ids("/article/%D0%BA%D0%BE%D1%81%D0%BC%D0%BE%D1%81")?.at(-1)).toEqual(["article", { slug: "космос" }]);
      expect(ids("/ARTICLE/x/")?.at(-1)).toEqual(["article", { slug: "x" }]);
      expect(ids("/category")?.at(-1)).toEqual(["category", {}]);
      expect(ids("/admin/articles/edit/42")?.at(-1)).toEqual(["admin-article", { id: "42" }]);
      expect(ids("/nowhere/at/all")?.at(-1)).toEqual(["splat", { "*": "nowhere/at/all" }]);
      // The first-segment check skips only branches that could not match.
      expect(ids("/Admin/")?.at(-1)).toEqual(["admin-index", {}]);
      expect(ids("/adminx")?.at(-1)).toEqual(["splat", { "*": "adminx" }]);
      expect(ids("//admin")?.at(-1)?.[0]).toBe("splat");
      expect(ids("/RSS.XML")?.at(-1)).toEqual(["feed", {}]);
      expect(ids("/rssxxml")?.at(-1)?.[0]).toBe("splat");
      expect(ids("/Case")?.at(-1)).toEqual(["exact-case", {}]);
      expect(ids("/case")?.at(-1)?.[0]).toBe("splat");
      expect(ids("/категорія")?.at(-1)).toEqual(["splat", { "*": "категорія" }]);
    }
  });

  it("a new route tree (a new array) is ranked afresh", () => {
    const other = [{ id: "only", path: "/only/:x" }];
    expect(router.matchRoutes(other, "/only/1")?.[0].params).toEqual({ x: "1" });
    expect(router.matchRoutes(other, "/article/x")).toBeNull();
    expect(ids("/article/x")?.at(-1)).toEqual(["article", { slug: "x" }]);
  });
});
