import type { ConvertAnswer, ConvertItem, ImportFormat, ParseAnswer } from "../import/parse.server";
import type { DiffField, VersionPair } from "../utils/revision-diff";
import type { SearchFields, SearchRows } from "../utils/search-text.server";

// The messages between the CPU pool (app/utils/cpu-pool.server.ts) and its worker
// (cpu-worker.ts), one job at a time per worker (docs/decisions/018).

/** A job: sanitise HTML, render markdown to sanitised HTML, or compare two versions word by word. */
export type CpuJob =
  | { kind: "sanitize"; html: string }
  | { kind: "render"; markdown: string }
  | { kind: "diff"; pair: VersionPair }
  // Issue 27: an import file read whole, and its bodies converted in batches (app/import/parse.server.ts).
  | { kind: "import-parse"; format: ImportFormat; text: string; sourceUrl: string }
  | { kind: "import-convert"; items: ConvertItem[] }
  // Issue 30: an article's search rows (its words and their stems).
  | { kind: "search"; fields: SearchFields };

/** What each kind of job answers. */
export interface CpuResults {
  sanitize: string;
  render: string;
  diff: DiffField[];
  "import-parse": ParseAnswer;
  "import-convert": ConvertAnswer[];
  search: SearchRows;
}

/** Pool → worker: the job and its time budget (the diff gives up by itself a little before it). */
export interface CpuRequest {
  id: number;
  job: CpuJob;
  budgetMs: number;
}

/**
 * Worker → pool. `refused` is a budget the worker noticed itself: `depth` a stack overflow (3,000
 * nested quotes), `edits` a diff that gave up. A heap or time overrun ends the worker instead.
 */
export type CpuReply =
  | { type: "ready" }
  | { type: "done"; id: number; result: CpuResults[keyof CpuResults] }
  | { type: "refused"; id: number; reason: "depth" | "edits" }
  | { type: "failed"; id: number; message: string };
