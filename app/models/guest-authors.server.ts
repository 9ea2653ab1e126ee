import { randomUUID } from "node:crypto";
import { db, writeTransaction, type DB } from "../../db/index";
import { CACHE_TAG, invalidatePublicCache } from "../page-store/page-cache.server";
import { BYLINE_MESSAGES, type AuthorLink, type GuestAuthorInput } from "../utils/bylines";
import { DomainError } from "../utils/errors";
import { recordAudit, type Actor } from "./audit.server";
import { authorSlugTaken, freeAuthorSlug } from "./bylines.server";

// Guest contributors (issue 29 item 1): a name, a slug, a short bio, a photo and links; no account.
// Editors and admins manage them at /admin/authors; staff keep their own author profile at
// /admin/profile/author. A change reaches every stored page that names the author (DESIGN §12).

const parseLinks = (text: string | null): AuthorLink[] => {
  try {
    return text ? (JSON.parse(text) as AuthorLink[]) : [];
  } catch {
    return [];
  }
};

export async function listGuestAuthors() {
  const rows = await db
    .selectFrom("guest_authors")
    .leftJoin("article_authors", "article_authors.guest_id", "guest_authors.id")
    .select(["guest_authors.id", "guest_authors.name", "guest_authors.slug", "guest_authors.bio", "guest_authors.photo", "guest_authors.links"])
    .select((eb) => eb.fn.count<number>("article_authors.article_id").as("articles"))
    .groupBy(["guest_authors.id", "guest_authors.name", "guest_authors.slug", "guest_authors.bio", "guest_authors.photo", "guest_authors.links"])
    .orderBy("guest_authors.name")
    .execute();
  return rows.map((r) => ({ ...r, links: parseLinks(r.links), articles: Number(r.articles) }));
}
export type GuestAuthorView = Awaited<ReturnType<typeof listGuestAuthors>>[number];

/** Marks stale every stored page that names an author: their page and feed, and every page showing one of their articles. */
async function invalidateAuthor(executor: DB, author: { kind: "staff" | "guest"; id: string }, slugs: string[]) {
  const articles = await executor
    .selectFrom("article_authors")
    .select("article_id")
    .where(author.kind === "staff" ? "user_id" : "guest_id", "=", author.id)
    .execute();
  invalidatePublicCache([...slugs.map(CACHE_TAG.author), ...articles.map((a) => CACHE_TAG.article(a.article_id))]);
}

const values = (input: GuestAuthorInput) => ({
  name: input.name,
  bio: input.bio,
  photo: input.photo,
  links: input.links.length ? JSON.stringify(input.links) : null,
});

export async function createGuestAuthor({ actor, input }: { actor: Actor; input: GuestAuthorInput }) {
  return writeTransaction(async (trx) => {
    if (input.slug && (await authorSlugTaken(trx, input.slug))) throw new DomainError(409, BYLINE_MESSAGES.slugTaken, "slug");
    const id = randomUUID();
    const slug = input.slug ?? (await freeAuthorSlug(trx, input.name));
    await trx
      .insertInto("guest_authors")
      .values({ id, slug, ...values(input) })
      .execute();
    await recordAudit(trx, { actor, action: "guest_author.create", object: { type: "guest_author", id, label: input.name } });
    return { id, slug };
  });
}

export async function updateGuestAuthor({ actor, id, input }: { actor: Actor; id: string; input: GuestAuthorInput }) {
  const result = await writeTransaction(async (trx) => {
    const current = await trx.selectFrom("guest_authors").select(["id", "slug"]).where("id", "=", id).executeTakeFirst();
    if (!current) throw new DomainError(404, "Автора не знайдено");
    const slug = input.slug ?? current.slug;
    if (slug !== current.slug && (await authorSlugTaken(trx, slug, { kind: "guest", id }))) throw new DomainError(409, BYLINE_MESSAGES.slugTaken, "slug");
    await trx
      .updateTable("guest_authors")
      .set({ slug, ...values(input), updated_at: new Date().toISOString() })
      .where("id", "=", id)
      .execute();
    await recordAudit(trx, { actor, action: "guest_author.update", object: { type: "guest_author", id, label: input.name } });
    return { slugs: [current.slug, slug] };
  });
  await invalidateAuthor(db, { kind: "guest", id }, result.slugs);
  return result;
}

/** Deletes a guest who signs no article (a byline is removed in the article first). */
export async function deleteGuestAuthor({ actor, id }: { actor: Actor; id: string }) {
  await writeTransaction(async (trx) => {
    const current = await trx.selectFrom("guest_authors").select(["id", "name", "slug"]).where("id", "=", id).executeTakeFirst();
    if (!current) throw new DomainError(404, "Автора не знайдено");
    const signed = await trx.selectFrom("article_authors").select("article_id").where("guest_id", "=", id).limit(1).executeTakeFirst();
    if (signed) throw new DomainError(409, "Цей автор підписує статті: спершу приберіть його з них");
    await trx.deleteFrom("guest_authors").where("id", "=", id).execute();
    await recordAudit(trx, { actor, action: "guest_author.delete", object: { type: "guest_author", id, label: current.name } });
  });
}

/** A staff member's own author profile (bio, photo, links): /admin/profile/author. */
export async function getOwnAuthorProfile(userId: string) {
  const user = await db.selectFrom("users").select(["slug", "bio", "avatar", "links"]).where("id", "=", userId).executeTakeFirstOrThrow();
  return { slug: user.slug, bio: user.bio, photo: user.avatar, links: parseLinks(user.links) };
}

export async function updateOwnAuthorProfile({ actor, input }: { actor: Actor; input: { bio: string | null; photo: string | null; links: AuthorLink[] } }) {
  const slug = await writeTransaction(async (trx) => {
    await trx
      .updateTable("users")
      .set({ bio: input.bio, avatar: input.photo, links: input.links.length ? JSON.stringify(input.links) : null, updated_at: new Date().toISOString() })
      .where("id", "=", actor.id)
      .execute();
    await recordAudit(trx, {
      actor,
      action: "user.update",
      object: { type: "user", id: actor.id, label: actor.username },
      details: { fields: ["bio", "avatar", "links"] },
    });
    return (await trx.selectFrom("users").select("slug").where("id", "=", actor.id).executeTakeFirst())?.slug ?? null;
  });
  if (slug) invalidatePublicCache([CACHE_TAG.author(slug)]);
}
