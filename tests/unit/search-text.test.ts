import { describe, expect, it } from "vitest";
import { indexWords, markMatches, parseSearch, searchRows, stemWord } from "../../app/utils/search-text.server";
import { ftsExpression } from "../../db/sql/search";

// Issue 30 item 2, issue 31 item 6: one reading of words for the index, the query and the highlight.

const sqliteQuery = (input: string | null | undefined) => {
  const q = parseSearch(input);
  return ftsExpression({ words: q.stems, phrases: q.phrases }, { on: "sqlite" });
};

describe("words and stems", () => {
  it("stems the forms of a Ukrainian word to one stem (DESIGN §2)", () => {
    for (const forms of [
      ["вакцина", "вакцини", "вакцинами", "вакциною", "вакцинах"],
      ["дослідження", "досліджень", "дослідженнями"],
    ]) {
      expect(new Set(forms.map(stemWord)).size, forms.join()).toBe(1);
    }
    expect(stemWord("вакцинами")).toBe("вакцин");
    expect(stemWord("covid")).toBe("covid");
  });

  it("treats the four apostrophes as one (none), lower-cases, drops stress marks, keeps й and ї", () => {
    for (const word of ["Компʼютери", "Комп'ютери", "Комп’ютери", "Комп`ютери"]) expect(indexWords(word)).toEqual(["компютери"]);
    expect(indexWords("за́мок Їжак мій")).toEqual(["замок", "їжак", "мій"]);
    expect(indexWords("COVID-19, 3.14; ʼслово")).toEqual(["covid", "19", "3", "14", "слово"]);
    expect(indexWords("я".repeat(500))[0]).toHaveLength(60);
  });

  it("writes each field's words and their stems, space-separated", () => {
    expect(searchRows({ title: "Вакцини проти грипу", subtitle: null, content: "Комп’ютери **рахують**.", tags: ["Медицина", "ШІ"] })).toEqual({
      forms: { title: "вакцини проти грипу", subtitle: "", content: "компютери рахують", tags: "медицина ші" },
      stems: { title: "вакцин прот грип", subtitle: "", content: "компютер рахуют", tags: "медицин ші" },
    });
  });
});

describe("parseSearch (the search box → terms)", () => {
  it("stems words outside quotes and keeps phrases in quotes word for word", () => {
    expect(parseSearch("Вакцинами проти")).toEqual({ stems: ["вакцин", "прот"], phrases: [] });
    expect(parseSearch('«чорна діра» телескопами "вакцина"')).toEqual({ stems: ["телескоп"], phrases: [["чорна", "діра"], ["вакцина"]] });
    // An unclosed quote's tail is plain words.
    expect(parseSearch('космос "вакцинами')).toEqual({ stems: ["космос", "вакцин"], phrases: [] });
  });

  it("gives nothing for empty or wordless input", () => {
    for (const input of ["", "   ", null, undefined, '"', '""', "***", "()", "-- ;", "^:"]) expect(parseSearch(input)).toEqual({ stems: [], phrases: [] });
  });

  it("turns FTS5 syntax into plain quoted words, caps their number", () => {
    expect(sqliteQuery("title:космос OR NEAR(a b) -y *")).toBe('"title" "космос" "or" "near" "a" "b" "y"');
    expect(sqliteQuery("'); drop table articles;--")).toBe('"drop" "table" "articles"');
    expect(sqliteQuery('"чорна діра" зорі')).toBe('"зор" "чорна діра"');
    expect(parseSearch("а б в г д е є ж з и").stems).toHaveLength(8);
  });

  it("builds PostgreSQL's to_tsquery text: lexemes ANDed, phrases with <->, weights for a tier", () => {
    const q = parseSearch('вакцини "чорна діра"');
    expect(ftsExpression({ words: q.stems, phrases: q.phrases }, { on: "postgres" })).toBe("'вакцин' & ('чорна' <-> 'діра')");
    expect(ftsExpression({ words: q.stems }, { on: "postgres", weight: "A" })).toBe("'вакцин':A");
    expect(ftsExpression({ words: ["x'y"] }, { on: "postgres" })).toBe("'x''y'");
  });
});

describe("markMatches (highlight)", () => {
  it("marks every form that shares a stem, phrases word for word, apostrophes in any spelling", () => {
    const q = parseSearch("вакцина");
    expect(markMatches("Вакцини і вакцинами, не вакцинація", q)).toBe("\u0001Вакцини\u0002 і \u0001вакцинами\u0002, не вакцинація");
    expect(markMatches("Нові комп’ютери", parseSearch("компʼютери"))).toBe("Нові \u0001комп’ютери\u0002");
    expect(markMatches("чорна діра і чорна кішка", parseSearch('"чорна діра"'))).toBe("\u0001чорна\u0002 \u0001діра\u0002 і чорна кішка");
  });

  it("never lets the text open or close a mark", () => {
    expect(markMatches("a\u0001b\u0002 <b>вакцина</b>", parseSearch("вакцина"))).toBe("ab <b>\u0001вакцина\u0002</b>");
  });
});
