import { readFileSync } from "node:fs";
import { resolve } from "node:path";

/**
 * The Node flags `npm start` gives the server (package.json's `start` script: the heap settings of
 * docs/decisions/034), so the tests, the e2e server and the bench run it as a real start does.
 */
export const START_FLAGS: string[] = (
  (JSON.parse(readFileSync(resolve("package.json"), "utf8")) as { scripts: { start: string } }).scripts.start.match(
    /\bnode\s+(.*?)\s*build\/server\.js/,
  )?.[1] ?? ""
)
  .split(/\s+/)
  .filter(Boolean);
