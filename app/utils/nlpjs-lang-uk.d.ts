// @nlpjs/lang-uk ships no types; only its stemmer is used here (app/utils/search-text.server.ts).
declare module "@nlpjs/lang-uk" {
  export class StemmerUk {
    /** The stem of one lower-case word: вакцина, вакцинами, вакцинах → "вакцин". */
    stemWord(word: string): string;
  }
}
