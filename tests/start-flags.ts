import { readFileSync } from "node:fs";
import { resolve } from "node:path";

// What `npm start` gives the server (package.json's `start` script, docs/decisions/034), so the
// tests, the e2e server and the bench run it as a real start does.
const start = (JSON.parse(readFileSync(resolve("package.json"), "utf8")) as { scripts: { start: string } }).scripts.start;
const [, assignments = "", flags = ""] = start.match(/^((?:\w+=\S*\s+)*)node\s+(.*?)\s*build\/server\.js/) ?? [];

/** The Node flags: the heap settings. */
export const START_FLAGS: string[] = flags.split(/\s+/).filter(Boolean);

/** The variables set before `node` (NODE_ENV, MALLOC_ARENA_MAX): a caller's own values win. */
export const START_ENV: Record<string, string> = Object.fromEntries(
  assignments
    .split(/\s+/)
    .filter(Boolean)
    .map((pair) => [pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1)]),
);
