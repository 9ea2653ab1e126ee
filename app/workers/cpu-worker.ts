import { setPriority } from "node:os";
import { parentPort } from "node:worker_threads";
import DOMPurify from "isomorphic-dompurify";
import { convertBatch, parseImportFile } from "../import/parse.server";
import { markdownToHtml, SANITIZE_CONFIG } from "../utils/markdown";
import { diffVersions } from "../utils/revision-diff";
import { searchRows } from "../utils/search-text.server";
import type { CpuJob, CpuReply, CpuRequest, CpuResults } from "./cpu-protocol";

// The CPU worker (issue 25, docs/decisions/018): markdown rendering with the one pipeline of
// app/utils/markdown.ts, DOMPurify sanitising and revision diffs, one job at a time, off the
// request thread. scripts/build-worker.mjs bundles it into build/cpu-worker.js (packages stay
// external); app/utils/cpu-pool.server.ts runs it with a heap limit and a time budget per job.

const port = parentPort;
if (!port) throw new Error("cpu-worker.ts runs as a worker thread (app/utils/cpu-pool.server.ts)");

type SanitizeConfig = Parameters<typeof DOMPurify.sanitize>[1];
const sanitize = (html: string) => (html ? String(DOMPurify.sanitize(html, SANITIZE_CONFIG as unknown as SanitizeConfig)) : "");

// A diff stops by itself at 80% of the job's budget, so the answer is a message, not a replaced
// worker; Myers' diff costs (n + m) × edits, so a cap on edits bounds it as well.
const DIFF_SHARE = 0.8;
const MAX_DIFF_EDITS = 50_000;

type Answer = { type: "done"; result: CpuResults[keyof CpuResults] } | { type: "refused"; reason: "depth" | "edits" };

function run(job: CpuJob, budgetMs: number): Answer {
  switch (job.kind) {
    case "sanitize":
      return { type: "done", result: sanitize(job.html) };
    case "render":
      return { type: "done", result: sanitize(markdownToHtml(job.markdown)) };
    case "search":
      return { type: "done", result: searchRows(job.fields) };
    case "diff": {
      const fields = diffVersions(job.pair, { timeoutMs: Math.floor(budgetMs * DIFF_SHARE), maxEditLength: MAX_DIFF_EDITS });
      return fields ? { type: "done", result: fields } : { type: "refused", reason: "edits" };
    }
    case "import-parse":
      return { type: "done", result: parseImportFile(job.format, job.text, job.sourceUrl) };
    case "import-convert":
      return { type: "done", result: convertBatch(job.items, sanitize) };
  }
}

port.on("message", ({ id, job, budgetMs }: CpuRequest) => {
  let reply: CpuReply;
  try {
    reply = { ...run(job, budgetMs), id };
  } catch (error) {
    // marked and jsdom recurse per nesting level: 3,000 levels of `>` overflow the stack.
    if (error instanceof RangeError && /call stack/i.test(error.message)) reply = { type: "refused", id, reason: "depth" };
    else reply = { type: "failed", id, message: String((error as Error)?.message ?? error) };
  }
  port.postMessage(reply);
});

// Readers first: when this thread and the request thread want the same core, the request thread
// wins (nice 10 here is per thread on Linux, the request thread keeps 0). On an idle box nothing
// changes; on a busy one a budget may run out sooner, which is the point of a budget.
try {
  setPriority(10);
} catch {
  // Not permitted or not supported (Windows without rights): the budgets still hold.
}

// jsdom loads and DOMPurify sets itself up on the first call (seconds on a busy machine): done
// before the worker says it is ready, so no job's time budget pays for it.
sanitize("<p>warm</p>");
port.postMessage({ type: "ready" } satisfies CpuReply);
