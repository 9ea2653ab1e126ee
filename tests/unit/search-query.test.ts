import { describe, expect, it } from "vitest";
import { searchTerms } from "../../app/utils/search-query";
import { ftsExpression } from "../../db/sql/search";

const buildMatchQuery = (input: string | null | undefined) => ftsExpression(searchTerms(input), { on: "sqlite" });

describe("buildMatchQuery (public search → FTS5 MATCH)", () => {
  it("quotes each word and adds a prefix star", () => {
    expect(buildMatchQuery("Вакцини проти раку")).toBe('"вакцини"* "проти"* "раку"*');
    expect(buildMatchQuery("  ШІ  ")).toBe('"ші"*');
  });

  it("gives nothing for empty or wordless input", () => {
    for (const input of ["", "   ", null, undefined, '"', "***", "()", "-- ;", "^:"]) expect(buildMatchQuery(input)).toBe("");
  });

  it("turns FTS5 syntax into plain words", () => {
    expect(buildMatchQuery('title:космос OR NEAR(a b) "x" -y *')).toBe('"title"* "космос"* "or"* "near"* "a"* "b"* "x"* "y"*');
    expect(buildMatchQuery("'); drop table articles;--")).toBe('"drop"* "table"* "articles"*');
  });

  it("splits Ukrainian apostrophes as the index does, keeps digits, drops duplicates", () => {
    expect(searchTerms("м'ята Мʼята COVID-19 covid")).toEqual(["м", "ята", "covid", "19"]);
  });

  it("caps the number and length of words", () => {
    expect(searchTerms("а б в г д е є ж з и")).toHaveLength(8);
    expect(searchTerms("я".repeat(500))[0]).toHaveLength(40);
  });
});

describe("the same words for PostgreSQL's to_tsquery", () => {
  it("makes each word a quoted prefix, all required, and weighs a column filter", () => {
    expect(ftsExpression(searchTerms("Вакцини проти раку"), { on: "postgres" })).toBe("'вакцини':* & 'проти':* & 'раку':*");
    expect(ftsExpression(searchTerms("космос"), { on: "postgres", column: "title" })).toBe("'космос':*A");
    expect(ftsExpression(searchTerms("'); drop table articles;--"), { on: "postgres" })).toBe("'drop':* & 'table':* & 'articles':*");
  });
});
