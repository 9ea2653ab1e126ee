import { db, type DB } from "../../db/index";
import { DomainError } from "../utils/errors";
import type { ArticleInput, ArticleStatus } from "../utils/newsroom-rules";
import { SCIENCE_MESSAGES, type SourceInput, type SourceKind } from "../utils/science-rules";
import { nextEmbargo, refuseEarlyPublish } from "./article-desk-rules.server";
import { keptFields, pickKept } from "./article-revision.server";
import { recordAudit, type Actor } from "./audit.server";

// Issue 29 items 3–5 (DESIGN §16): what a save does with the embargo, the sources and a correction.
// article-writes.server.ts calls `scienceSave` before its write (the checks, the columns to set) and
// its `after` inside the same transaction (sources, the correction and its revision).

export interface ArticleSource {
  kind: SourceKind;
  doi: string | null;
  title: string;
  publisher: string | null;
  year: number | null;
  peer_reviewed: boolean | null;
  url: string | null;
}

export interface ArticleCorrection {
  id: number;
  note: string;
  created_at: string;
  revision_id: number | null;
}

interface CurrentRow {
  status: ArticleStatus;
  published_at: string | null;
  embargo_until: string | null;
  embargo_note: string | null;
}

/**
 * The checks of a save that come before its write, and the article columns it sets: the embargo
 * (never public before it lifts; only an admin shortens one in force), the correction (only of a
 * published article, with its note) and the "Оновлено" time.
 */
export function scienceSave({
  actor,
  current,
  input,
  status,
  now,
}: {
  actor: Actor;
  current: CurrentRow | null;
  input: ArticleInput;
  status: ArticleStatus;
  now: string;
}) {
  const embargo = nextEmbargo(actor, current?.embargo_until ?? null, input.embargo_until, now);
  refuseEarlyPublish({ status, embargoUntil: embargo, publishedAt: current?.published_at }, now);
  if (input.correction && current?.status !== "published") throw new DomainError(422, SCIENCE_MESSAGES.correctionNotPublished, "correction");
  const note = input.embargo_note === undefined ? (current?.embargo_note ?? null) : input.embargo_note;
  const significant = Boolean(input.correction || (input.significant_update && current?.status === "published"));
  return {
    columns: {
      embargo_until: embargo,
      embargo_note: embargo ? note : null,
      ...(significant && { updated_significantly_at: now }),
    },
    /** Inside the save's transaction, after its revision: sources and the correction. */
    after: async (trx: DB, { articleId, changed }: { articleId: string; changed: readonly string[] }) => {
      if (input.sources !== undefined) await setSources(trx, articleId, input.sources);
      if (input.correction && input.correction_note) {
        await recordCorrection(trx, { articleId, actor, note: input.correction_note, changed, at: now });
      }
    },
  };
}

/** Replaces an article's sources (in the caller's transaction). */
export async function setSources(trx: DB, articleId: string, sources: SourceInput[]): Promise<void> {
  await trx.deleteFrom("article_sources").where("article_id", "=", articleId).execute();
  if (!sources.length) return;
  await trx
    .insertInto("article_sources")
    .values(
      sources.map((s, position) => ({
        article_id: articleId,
        position,
        kind: s.kind,
        doi: s.doi,
        title: s.title,
        publisher: s.publisher,
        year: s.year,
        peer_reviewed: s.peer_reviewed === null ? null : s.peer_reviewed ? 1 : 0,
        url: s.url,
      })),
    )
    .execute();
}

export const CORRECTION_PREFIX = "Виправлення: ";

/**
 * Writes a correction linked to the revision its save wrote, so the history shows it: that
 * revision's summary starts with "Виправлення: {note}". A correction that changed no kept field
 * (say, only a source) still gets a revision of its own.
 */
async function recordCorrection(
  trx: DB,
  { articleId, actor, note, changed, at }: { articleId: string; actor: Actor; note: string; changed: readonly string[]; at: string },
) {
  const actorId = actor.id;
  const label = `${CORRECTION_PREFIX}${note.length > 200 ? `${note.slice(0, 199)}…` : note}`;
  let revisionId: number;
  const newest = await trx
    .selectFrom("article_revisions")
    .select(["id", "summary"])
    .where("article_id", "=", articleId)
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
  if (changed.length && newest) {
    await trx
      .updateTable("article_revisions")
      .set({ summary: `${label} · ${newest.summary}` })
      .where("id", "=", newest.id)
      .execute();
    revisionId = newest.id;
  } else {
    const kept = await keptFields(trx, articleId);
    const fields = pickKept(kept!);
    const row = await trx
      .insertInto("article_revisions")
      .values({ article_id: articleId, author_id: actorId, created_at: at, title: fields.title, summary: label, fields: JSON.stringify(fields) })
      .returning("id")
      .executeTakeFirstOrThrow();
    revisionId = row.id;
  }
  await trx.insertInto("article_corrections").values({ article_id: articleId, note, created_at: at, created_by: actorId, revision_id: revisionId }).execute();
  const { title } = await trx.selectFrom("articles").select("title").where("id", "=", articleId).executeTakeFirstOrThrow();
  await recordAudit(trx, {
    actor,
    action: "article.correct",
    object: { type: "article", id: articleId, label: title },
    details: { note, revision: revisionId },
  });
}

const toSource = (r: {
  kind: SourceKind;
  doi: string | null;
  title: string;
  publisher: string | null;
  year: number | null;
  peer_reviewed: number | null;
  url: string | null;
}): ArticleSource => ({
  kind: r.kind,
  doi: r.doi,
  title: r.title,
  publisher: r.publisher,
  year: r.year === null ? null : Number(r.year),
  peer_reviewed: r.peer_reviewed === null ? null : Boolean(Number(r.peer_reviewed)),
  url: r.url,
});

/** An article's sources in order and its corrections newest first (the API shapes, the page). */
export async function articleScience(articleId: string, executor: DB = db): Promise<{ sources: ArticleSource[]; corrections: ArticleCorrection[] }> {
  const [sources, corrections] = await Promise.all([
    executor
      .selectFrom("article_sources")
      .select(["kind", "doi", "title", "publisher", "year", "peer_reviewed", "url"])
      .where("article_id", "=", articleId)
      .orderBy("position")
      .execute(),
    executor
      .selectFrom("article_corrections")
      .select(["id", "note", "created_at", "revision_id"])
      .where("article_id", "=", articleId)
      .orderBy("id", "desc")
      .execute(),
  ]);
  return { sources: sources.map(toSource), corrections: corrections.map((c) => ({ ...c, id: Number(c.id) })) };
}

export interface UpcomingEmbargo {
  id: string;
  title: string;
  status: ArticleStatus;
  embargo_until: string;
  embargo_note: string | null;
}

/** What lifts next: articles whose embargo is still ahead, soonest first (the dashboard and the article list). */
export async function listUpcomingEmbargoes({ limit = 5, now = new Date() }: { limit?: number; now?: Date } = {}): Promise<UpcomingEmbargo[]> {
  const rows = await db
    .selectFrom("articles")
    .select(["id", "title", "status", "embargo_until", "embargo_note"])
    .where("embargo_until", ">", now.toISOString())
    .where("status", "!=", "archived")
    .orderBy("embargo_until", "asc")
    .limit(limit)
    .execute();
  return rows.map((r) => ({ ...r, embargo_until: r.embargo_until! }));
}
