import { sql, type ExpressionBuilder } from "kysely";
import { db, type DB } from "../../db/index";
import type { Database, User } from "../../db/schema";
import { jsonArrayFrom } from "../../db/sql/json";
import { BYLINE_MESSAGES, type Byline, type BylineOption, type BylineRef } from "../utils/bylines";
import { DomainError } from "../utils/errors";
import { firstFreeSlug, slugify } from "../utils/slug.server";

// Bylines (issue 29 item 1, DESIGN §16, docs/decisions/028): an article's authors in order, staff
// users or guest contributors. The first is always a staff user and is the article's owner
// (`articles.author_id`, the SPEC `author` of every shape and whom the desk's rules name); the
// others are co-authors, shown and linked but with no rights over the article.

/** An article's bylines in order, as one JSON column of the same query (articleRows). */
export function bylineColumn(eb: ExpressionBuilder<Database, "articles">) {
  return jsonArrayFrom(
    eb
      .selectFrom("article_authors")
      .leftJoin("users as byline_user", "byline_user.id", "article_authors.user_id")
      .leftJoin("guest_authors", "guest_authors.id", "article_authors.guest_id")
      .select([
        "article_authors.user_id as u",
        "article_authors.guest_id as g",
        "byline_user.name as un",
        "byline_user.username as uu",
        "byline_user.slug as us",
        "guest_authors.name as gn",
        "guest_authors.slug as gs",
      ])
      .whereRef("article_authors.article_id", "=", "articles.id")
      .orderBy("article_authors.position"),
  ).as("bylines");
}

interface BylineJson {
  u: string | null;
  g: string | null;
  un: string | null;
  uu: string | null;
  us: string | null;
  gn: string | null;
  gs: string | null;
}

/** The bylines column as a list (SQLite hands JSON back as text); `withIds` for the newsroom's shapes. */
export function parseBylines(value: unknown, { withIds = false } = {}): Byline[] {
  const list: BylineJson[] = typeof value === "string" ? JSON.parse(value) : ((value as BylineJson[] | null) ?? []);
  return list.flatMap((b): Byline[] => {
    const staff = Boolean(b.u);
    const slug = (staff ? b.us : b.gs) ?? "";
    const name = (staff ? b.un || b.uu : b.gn) ?? "";
    if (!slug) return [];
    return [{ ...(withIds && { id: (staff ? b.u : b.g)! }), kind: staff ? "staff" : "guest", name, slug, url: `/author/${slug}` }];
  });
}

/** Whether an author page slug is taken, by a staff member or a guest (one namespace). */
export async function authorSlugTaken(executor: DB, slug: string, except?: { kind: "staff" | "guest"; id: string }) {
  const user = await executor
    .selectFrom("users")
    .select("id")
    .where("slug", "=", slug)
    .$if(except?.kind === "staff", (q) => q.where("id", "!=", except!.id))
    .executeTakeFirst();
  if (user) return true;
  const guest = await executor
    .selectFrom("guest_authors")
    .select("id")
    .where("slug", "=", slug)
    .$if(except?.kind === "guest", (q) => q.where("id", "!=", except!.id))
    .executeTakeFirst();
  return Boolean(guest);
}

export async function freeAuthorSlug(executor: DB, text: string, except?: { kind: "staff" | "guest"; id: string }) {
  return firstFreeSlug(slugify(text) || "avtor", (s) => authorSlugTaken(executor, s, except));
}

/** Gives a staff member an author page slug if they have none yet (they sign their first article). */
export async function ensureUserSlug(trx: DB, userId: string): Promise<void> {
  const user = await trx.selectFrom("users").select(["id", "slug", "username", "name"]).where("id", "=", userId).executeTakeFirst();
  if (!user || user.slug) return;
  const slug = await freeAuthorSlug(trx, user.name || user.username);
  await trx.updateTable("users").set({ slug }).where("id", "=", userId).execute();
}

/** The byline of a new article: its owner alone (insertArticle, so every door that creates one). */
export async function addOwnerByline(trx: DB, articleId: string, userId: string | null): Promise<void> {
  if (!userId) return;
  await ensureUserSlug(trx, userId);
  await trx.insertInto("article_authors").values({ article_id: articleId, position: 0, user_id: userId, guest_id: null }).execute();
}

/**
 * Replaces an article's bylines (inside the save's transaction). The first must be a staff user:
 * a reporter stays first on their own article (they add co-authors, never give the article away);
 * an editor or admin may put another staff member first, who then owns the article. Returns the
 * owner's id.
 */
export async function setArticleBylines(
  trx: DB,
  { articleId, actor, refs, ownerId }: { articleId: string; actor: Pick<User, "id" | "role">; refs: BylineRef[]; ownerId: string | null },
): Promise<string | null> {
  const [first] = refs;
  if (!first) throw new DomainError(422, BYLINE_MESSAGES.empty, "authors");
  if (first.kind !== "staff") throw new DomainError(422, BYLINE_MESSAGES.firstStaff, "authors");
  if (actor.role === "reporter" && first.id !== (ownerId ?? actor.id)) throw new DomainError(403, BYLINE_MESSAGES.reporterFirst, "authors");
  const userIds = refs.filter((r) => r.kind === "staff").map((r) => r.id);
  const guestIds = refs.filter((r) => r.kind === "guest").map((r) => r.id);
  const [users, guests] = await Promise.all([
    userIds.length ? trx.selectFrom("users").select("id").where("id", "in", userIds).execute() : [],
    guestIds.length ? trx.selectFrom("guest_authors").select("id").where("id", "in", guestIds).execute() : [],
  ]);
  if (users.length !== new Set(userIds).size || guests.length !== new Set(guestIds).size) throw new DomainError(422, BYLINE_MESSAGES.unknown, "authors");
  if (new Set(refs.map((r) => `${r.kind}:${r.id}`)).size !== refs.length) throw new DomainError(422, BYLINE_MESSAGES.duplicate, "authors");
  for (const id of userIds) await ensureUserSlug(trx, id);
  await trx.deleteFrom("article_authors").where("article_id", "=", articleId).execute();
  await trx
    .insertInto("article_authors")
    .values(
      refs.map((r, position) => ({
        article_id: articleId,
        position,
        user_id: r.kind === "staff" ? r.id : null,
        guest_id: r.kind === "guest" ? r.id : null,
      })),
    )
    .execute();
  if (first.id !== ownerId) await trx.updateTable("articles").set({ author_id: first.id }).where("id", "=", articleId).execute();
  return first.id;
}

/**
 * The byline fields of a save (POST/PUT /api/articles, the editor): `authors` and `noindex`, each
 * only when sent. Answers which of them changed (the save's audit entry names them).
 */
export async function saveBylineFields(
  trx: DB,
  {
    articleId,
    actor,
    input,
    ownerId,
  }: { articleId: string; actor: Pick<User, "id" | "role">; input: { authors?: BylineRef[]; noindex?: boolean }; ownerId: string | null },
): Promise<string[]> {
  const changed: string[] = [];
  if (input.noindex !== undefined) {
    const before = await trx.selectFrom("articles").select("noindex").where("id", "=", articleId).executeTakeFirst();
    if (Boolean(before?.noindex) !== input.noindex) {
      await trx
        .updateTable("articles")
        .set({ noindex: input.noindex ? 1 : 0 })
        .where("id", "=", articleId)
        .execute();
      changed.push("noindex");
    }
  }
  if (input.authors) {
    const key = (rows: { user_id: string | null; guest_id: string | null }[]) =>
      rows.map((r) => (r.user_id ? `staff:${r.user_id}` : `guest:${r.guest_id}`)).join(",");
    const before = await trx.selectFrom("article_authors").select(["user_id", "guest_id"]).where("article_id", "=", articleId).orderBy("position").execute();
    await setArticleBylines(trx, { articleId, actor, refs: input.authors, ownerId });
    if (key(before) !== input.authors.map((r) => `${r.kind}:${r.id}`).join(",")) changed.push("authors");
  }
  return changed;
}

/** The author and tag page slugs an article shows on (the page store's tags of a save, article-cache.server.ts). */
export async function listingSlugs(executor: DB, articleId: string): Promise<{ authors: string[]; tags: string[] }> {
  const [people, tags] = await Promise.all([
    executor
      .selectFrom("article_authors")
      .leftJoin("users", "users.id", "article_authors.user_id")
      .leftJoin("guest_authors", "guest_authors.id", "article_authors.guest_id")
      .select(sql<string | null>`coalesce(users.slug, guest_authors.slug)`.as("slug"))
      .where("article_authors.article_id", "=", articleId)
      .execute(),
    executor
      .selectFrom("article_tags")
      .innerJoin("tags", "tags.id", "article_tags.tag_id")
      .select("tags.slug")
      .where("article_tags.article_id", "=", articleId)
      .execute(),
  ]);
  return { authors: people.flatMap((p) => (p.slug ? [p.slug] : [])), tags: tags.flatMap((t) => (t.slug ? [t.slug] : [])) };
}

/** Gives every tag without a page slug one (tags are created by name in article saves). */
export async function fillTagSlugs(trx: DB): Promise<void> {
  const missing = await trx.selectFrom("tags").select(["id", "name"]).where("slug", "is", null).execute();
  for (const tag of missing) {
    const slug = await firstFreeSlug(slugify(tag.name) || "teh", async (s) =>
      Boolean(await trx.selectFrom("tags").select("id").where("slug", "=", s).executeTakeFirst()),
    );
    await trx.updateTable("tags").set({ slug }).where("id", "=", tag.id).execute();
  }
}

/** What the editor's byline picker offers (active staff and every guest) and the article's current bylines. */
export async function bylineEditorData({ articleId, actor }: { articleId?: string; actor: Pick<User, "id"> }) {
  const [staff, guests, current] = await Promise.all([
    db.selectFrom("users").select(["id", "name", "username", "is_active"]).orderBy("username").execute(),
    db.selectFrom("guest_authors").select(["id", "name"]).orderBy("name").execute(),
    articleId
      ? db.selectFrom("article_authors").select(["user_id", "guest_id"]).where("article_id", "=", articleId).orderBy("position").execute()
      : Promise.resolve([{ user_id: actor.id, guest_id: null }]),
  ]);
  const selected = current.map((r) => (r.user_id ? `staff:${r.user_id}` : `guest:${r.guest_id}`));
  const options: BylineOption[] = [
    ...staff
      .filter((u) => u.is_active || selected.includes(`staff:${u.id}`))
      .map((u) => ({ kind: "staff" as const, id: u.id, name: u.name || u.username, detail: u.username })),
    ...guests.map((g) => ({ kind: "guest" as const, id: g.id, name: g.name, detail: "гість" })),
  ];
  return { options, selected };
}
export type BylineEditorData = Awaited<ReturnType<typeof bylineEditorData>>;

/** An article's tags with their page slugs, in their saved order (the article page links them). */
export function tagLinks(eb: ExpressionBuilder<Database, "articles">) {
  return jsonArrayFrom(
    eb
      .selectFrom("article_tags")
      .innerJoin("tags", "tags.id", "article_tags.tag_id")
      .select(["tags.name", "tags.slug"])
      .whereRef("article_tags.article_id", "=", "articles.id")
      .orderBy("article_tags.position"),
  ).as("tag_links");
}

export function parseTagLinks(value: unknown): { name: string; slug: string | null }[] {
  return typeof value === "string" ? JSON.parse(value) : ((value as { name: string; slug: string | null }[] | null) ?? []);
}
