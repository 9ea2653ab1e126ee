import { runCpuJob, CpuBudgetError, type BudgetReason } from "./cpu-pool.server";
import { DomainError } from "./errors";
import { normalizeContent } from "./markdown";
import { MESSAGES } from "./newsroom-rules";

// Markdown is rendered and sanitised when content is saved or previewed, never per page view
// (DESIGN §9), and never on the request thread: both run in the CPU pool's worker
// (cpu-pool.server.ts, docs/decisions/018), whose budgets turn a pathological text into a message.

const CONTENT_REFUSAL: Record<BudgetReason, { status: 413 | 422; message: string }> = {
  size: { status: 413, message: MESSAGES.content },
  time: { status: 422, message: MESSAGES.contentTooSlow },
  memory: { status: 422, message: MESSAGES.contentTooHeavy },
  depth: { status: 422, message: MESSAGES.contentTooDeep },
  edits: { status: 422, message: MESSAGES.contentTooSlow },
};

/** A budget refusal as the content field's message (422, or 413 past the input budget). */
function asContentError(error: unknown): never {
  if (error instanceof CpuBudgetError) {
    const { status, message } = CONTENT_REFUSAL[error.reason];
    throw new DomainError(status, message, "content");
  }
  throw error;
}

/** Sanitises HTML with the shared policy (SECURITY.md 'Content'), off the request thread. */
export async function sanitizeHtml(html: string): Promise<string> {
  if (!html) return "";
  return runCpuJob({ kind: "sanitize", html }).catch(asContentError);
}

/**
 * Markdown to the sanitised HTML stored beside it (DESIGN §4, §9) or shown as the editor's
 * preview. Past a budget: a DomainError on `content` with a Ukrainian message.
 */
export async function renderArticleHtml(content: string | string[] | null | undefined): Promise<string> {
  const markdown = normalizeContent(content);
  if (!markdown.trim()) return "";
  return runCpuJob({ kind: "render", markdown }).catch(asContentError);
}
