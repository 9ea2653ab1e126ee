import type { User } from "../../db/schema";
import { DomainError } from "../utils/errors";
import type { ArticleStatus } from "../utils/newsroom-rules";
import { formatPublicDateTime } from "../utils/public-format";

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

// Issue 29 (DESIGN §16, docs/decisions/029): the embargo. Every write that can make an article
// public asks embargoRefusal first: the editor's save, POST/PUT /api/articles, the publish call,
// setArticleStatus and the article list's bulk action, a revision restore (a save), the
// scheduler, and insertArticle (the import path). The database's trigger
// (migration 2026_11_25_000027) refuses the row anyway if a path ever forgot.

/** "25.11.2026 о 16:00 (Київ)": an embargo time as the desk reads it. */
export function kyivTime(iso: string): string {
  return `${formatPublicDateTime(iso)} (Київ)`;
}

export const EMBARGO_MESSAGES = {
  early: (until: string) => `Статтю під ембарго до ${kyivTime(until)} не можна опублікувати раніше`,
  scheduleEarly: (until: string) => `Статтю під ембарго до ${kyivTime(until)} не можна запланувати раніше: оберіть час ембарго або пізніший`,
  adminOnly: "Зняти ембарго чи перенести його на раніше може лише адміністратор",
} as const;

/** Whether an embargo is still in force at `now` (ISO). */
export const embargoInForce = (until: string | null | undefined, now: string) => Boolean(until && until > now);

/**
 * Throws when an article with this embargo would be public before it lifts: `status` is the status
 * the write stores, `publishedAt` the time a scheduled article goes out. 409 for publishing now (the
 * article's state forbids it), 422 for a schedule time before the embargo (a bad field).
 */
export function refuseEarlyPublish(
  { status, embargoUntil, publishedAt }: { status: ArticleStatus; embargoUntil: string | null | undefined; publishedAt?: string | null },
  now: string,
): void {
  if (!embargoUntil) return;
  if (status === "published" && embargoInForce(embargoUntil, now)) throw new DomainError(409, EMBARGO_MESSAGES.early(embargoUntil), "status");
  if (status === "scheduled" && publishedAt && publishedAt < embargoUntil)
    throw new DomainError(422, EMBARGO_MESSAGES.scheduleEarly(embargoUntil), "publish_at");
}

/**
 * An embargo in force may be set or moved later by whoever may edit the article; lifting it or
 * moving it earlier is an admin's correction of a wrong date (audited as a save). Answers the
 * embargo the save keeps (`requested` undefined: unchanged).
 */
export function nextEmbargo(actor: Actor, current: string | null, requested: string | null | undefined, now: string): string | null {
  if (requested === undefined) return current;
  // The editor's field holds minutes: the same minute as the stored time is no change.
  if (requested && current && requested.slice(0, 16) === current.slice(0, 16)) return current;
  const shortened = embargoInForce(current, now) && (requested === null || requested < current!);
  if (shortened && actor.role !== "admin") throw new DomainError(403, EMBARGO_MESSAGES.adminOnly, "embargo_until");
  return requested;
}
