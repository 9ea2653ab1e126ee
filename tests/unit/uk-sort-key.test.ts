import { describe, expect, it } from "vitest";
import { ukSortKey } from "../../db/index";

// The article list's title sort (issue 17): SQLite compares uk_sort_key(title) byte by byte.
describe("ukSortKey", () => {
  it("orders titles as the Ukrainian alphabet does, case and quotes aside, Cyrillic before Latin", () => {
    const titles = [
      "Яблуко",
      "Їжак",
      "«Джеймс Вебб»",
      "CRISPR у клініці",
      "Ґава",
      "галактика",
      "Єдність",
      "Електрика",
      "Іній",
      "Ймовірність",
      "иній",
      "Апельсин",
      "5G мережі",
    ];
    const bySqlKey = [...titles].sort((a, b) => (ukSortKey(a) < ukSortKey(b) ? -1 : ukSortKey(a) > ukSortKey(b) ? 1 : 0));
    expect(bySqlKey).toEqual([
      "5G мережі",
      "Апельсин",
      "галактика",
      "Ґава",
      "«Джеймс Вебб»",
      "Електрика",
      "Єдність",
      "иній",
      "Іній",
      "Їжак",
      "Ймовірність",
      "Яблуко",
      "CRISPR у клініці",
    ]);
    const normalise = (t: string) => t.toLocaleLowerCase("uk").replace(/[^\p{L}\p{N}\s]/gu, "");
    expect(bySqlKey.map(normalise)).toEqual([...titles].map(normalise).sort((a, b) => a.localeCompare(b, "uk")));
  });
});
