import type { User } from "../../db/schema";
import { DomainError } from "../utils/errors";
import type { ArticleStatus } from "../utils/newsroom-rules";

// The editorial desk's status rules for a save (DESIGN §11), kept apart from article-desk.server.ts
// so that article-writes.server.ts can use them without an import cycle.

type Actor = Pick<User, "id" | "role">;

export const DESK_MESSAGES = {
  reporterDraftsOnly: "Репортер може зберігати лише чернетки: опублікувати, запланувати чи архівувати статтю може редактор",
  reviewBySubmit: "На перевірку статтю надсилає кнопка «Надіслати на перевірку» (POST /api/articles/{id}/submit)",
  scheduleByPublish: "Запланувати статтю можна лише публікацією з часом (POST /api/articles/{id}/publish з publish_at)",
} as const;

/**
 * The status a save stores. `review` and `scheduled` are reached by their own calls (submit,
 * publish with a time), never by a save; a save of an article already in one of them keeps it.
 * A reporter saves drafts only, and their own article in review stays in review while they edit.
 */
export function saveStatus(actor: Actor, current: ArticleStatus | null, requested: ArticleStatus): ArticleStatus {
  if (actor.role === "reporter") {
    if (current === "review" && (requested === "draft" || requested === "review")) return "review";
    if (requested !== "draft") throw new DomainError(403, DESK_MESSAGES.reporterDraftsOnly, "status");
    return "draft";
  }
  if (requested === "review" && current !== "review") throw new DomainError(422, DESK_MESSAGES.reviewBySubmit, "status");
  if (requested === "scheduled" && current !== "scheduled") throw new DomainError(422, DESK_MESSAGES.scheduleByPublish, "status");
  return requested;
}

/**
 * The `published_at` an article going public now keeps: its earlier publication time, unless
 * that is missing or still ahead (a scheduled article published early goes out now).
 */
export function publishedAtNow(current: string | null, now: string): string {
  return current && current <= now ? current : now;
}
