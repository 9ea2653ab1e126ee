// The search box to the words the full-text index looks up (issue 3 'Search'). Nothing the reader
// types reaches the index as syntax: the input is cut into words of letters and digits, and
// db/sql/search.ts makes each a quoted prefix ("сон"* matches 'сонце', 'сонячний') and ANDs them.
// Operators (AND, OR, NEAR), quotes, column filters and stray stars are just dropped characters.

const MAX_TERMS = 8;
const MAX_TERM_LENGTH = 40;
const MAX_INPUT = 200;

/** The words of a query as the index sees them: letters and digits, lower case. */
export function searchTerms(input: string | null | undefined): string[] {
  const text = (input ?? "").slice(0, MAX_INPUT).normalize("NFC").toLowerCase();
  const words = text.match(/[\p{L}\p{N}\p{M}ʼ']+/gu) ?? [];
  const terms: string[] = [];
  for (const raw of words) {
    // Apostrophes inside Ukrainian words (м'ята, ім'я) split tokens in unicode61 too.
    for (const part of raw.split(/[ʼ']+/)) {
      const term = part.replace(/\p{M}+/gu, "").slice(0, MAX_TERM_LENGTH);
      if (term && !terms.includes(term)) terms.push(term);
    }
  }
  return terms.slice(0, MAX_TERMS);
}
