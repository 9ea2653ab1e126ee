const UK_ALPHABET = "абвгґдеєжзиіїйклмнопрстуфхцчшщьюя";
const LATIN = "abcdefghijklmnopqrstuvwxyz";

/**
 * A key that sorts titles as a Ukrainian reader expects when compared byte by byte (SQLite's
 * own NOCASE folds only ASCII and puts ґ, є, і, ї after я): case and punctuation ignored, the
 * Ukrainian alphabet in its order, then Latin letters (Cyrillic first, as CLDR's uk collation).
 * Registered as the SQL function uk_sort_key(text) on SQLite; PostgreSQL sorts with the ICU
 * collation `uk_sort` instead (db/sql/text.ts).
 */
export function ukSortKey(text: string): string {
  let key = "";
  for (const c of text.toLocaleLowerCase("uk").replace(/[^\p{L}\p{N}\s]/gu, "")) {
    const uk = UK_ALPHABET.indexOf(c);
    const latin = LATIN.indexOf(c);
    key += uk >= 0 ? String.fromCharCode(0x3000 + uk) : latin >= 0 ? String.fromCharCode(0x3100 + latin) : c;
  }
  return key;
}
