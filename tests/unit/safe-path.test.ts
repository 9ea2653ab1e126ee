import { describe, expect, it } from "vitest";
import { isSafeLink, safePath } from "../../app/utils/safe-path";

describe("safePath: no redirect built from a request leaves the site", () => {
  const offSite = [
    "//evil.example",
    "//evil.example/",
    "/\\evil.example",
    "/\\/evil.example",
    "\\\\evil.example",
    "/\t/evil.example",
    "/\n/evil.example",
    "/admin/../..//evil.example",
    "/admin/%2e%2e/%2e%2e//evil.example",
    "https://evil.example/admin",
    "http:evil.example",
    "javascript:alert(1)",
    "/admin\r\nSet-Cookie: x=1",
    "admin",
    "",
    null,
    42,
  ];
  it.each(offSite.map((v) => [v]))("refuses %j", (value) => {
    expect(safePath(value, "/fallback")).toBe("/fallback");
  });

  it("keeps same-site paths, normalising dot segments, and honours the prefix", () => {
    expect(safePath("/admin/articles?page=2#x", "/f")).toBe("/admin/articles?page=2#x");
    expect(safePath("/admin/articles/../users", "/f", "/admin")).toBe("/admin/users");
    expect(safePath("/admin", "/f", "/admin")).toBe("/admin");
    expect(safePath("/administrator", "/f", "/admin")).toBe("/f");
    expect(safePath("/admin/../article/x", "/f", "/admin")).toBe("/f");
    expect(safePath("/статті", "/f")).toBe("/%D1%81%D1%82%D0%B0%D1%82%D1%82%D1%96");
  });
});

describe("isSafeLink: markdown link targets", () => {
  it.each([["https://example.org/a"], ["http://x.y"], ["mailto:a@b.c"], ["#top"], ["/article/x"], ["./a"], ["../b"]])("allows %s", (href) => {
    expect(isSafeLink(href)).toBe(true);
  });
  it.each([
    ["/\\evil.example"],
    ["//evil.example"],
    ["/\t/evil.example"],
    ["https://evil.example\\@site"],
    ["javascript:alert(1)"],
    ["data:text/html,x"],
    ["vbscript:x"],
    ["\\\\evil"],
  ])("refuses %j", (href) => {
    expect(isSafeLink(href)).toBe(false);
  });
});
