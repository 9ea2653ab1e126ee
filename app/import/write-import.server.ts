import { randomBytes, randomUUID } from "node:crypto";
import { sql } from "kysely";
import type { DB } from "../../db/index";
import { lowerCase } from "../../db/sql/text";
import { hashPassword } from "../models/user.server";
import { firstFreeSlug, slugify } from "../utils/slug.server";
import { rememberSource, type SourceMaps } from "./sources.server";
import type { ParsedAuthor, ParsedSite, ParsedTerm } from "./types";

// Issue 27: authors and categories of an import, matched to ours or created (inside the run's
// first transaction). Authors: by login or email, else an inactive reporter with an unknown
// password (no way to sign in until an admin sets one). Categories: by slug or name, else created
// (Ghost's first tags are only matched).

export interface Counted {
  matched: number;
  created: number;
}

export const FALLBACK_CATEGORY = { slug: "imported", name: "Імпортовані" };

function usernameBase(author: ParsedAuthor): string {
  const raw = (author.login ?? author.email?.split("@")[0] ?? author.name ?? "author").toLowerCase();
  let base = slugify(raw)
    .replace(/[^a-z0-9_.-]/g, "-")
    .slice(0, 44);
  if (base.length < 3) base = `${base}-author`.replace(/^-/, "");
  return base;
}

/** Source author id → our user id, for every author the posts name. */
export async function resolveAuthors(
  trx: DB,
  { site, maps, needed, dryRun }: { site: ParsedSite; maps: SourceMaps; needed: Set<string>; dryRun: boolean },
): Promise<{ ids: Map<string, string>; counts: Counted }> {
  const ids = new Map<string, string>();
  const counts: Counted = { matched: 0, created: 0 };
  for (const author of site.authors) {
    if (!needed.has(author.sourceId)) continue;
    const known = maps.user.get(author.sourceId);
    if (known && (await trx.selectFrom("users").select("id").where("id", "=", known).executeTakeFirst())) {
      ids.set(author.sourceId, known);
      counts.matched++;
      continue;
    }
    const login = author.login?.toLowerCase() ?? null;
    const email = author.email?.toLowerCase() ?? null;
    const match =
      login || email
        ? await trx
            .selectFrom("users")
            .select("id")
            .where((eb) =>
              eb.or([...(login ? [eb(lowerCase(sql.ref("username")), "=", login)] : []), ...(email ? [eb(lowerCase(sql.ref("email")), "=", email)] : [])]),
            )
            .orderBy("created_at")
            .executeTakeFirst()
        : undefined;
    if (match) {
      ids.set(author.sourceId, match.id);
      counts.matched++;
    } else {
      counts.created++;
      if (dryRun) continue;
      const username = await firstFreeSlug(usernameBase(author), async (u) =>
        Boolean(await trx.selectFrom("users").select("id").where("username", "=", u).executeTakeFirst()),
      );
      const now = new Date().toISOString();
      const id = randomUUID();
      await trx
        .insertInto("users")
        .values({
          id,
          username,
          email: author.email?.slice(0, 254) ?? `${username}@imported.invalid`,
          // Nobody knows this password: the account signs in only after an admin sets one.
          password_hash: await hashPassword(randomBytes(24).toString("base64url").slice(0, 32)),
          role: author.role === "admin" || author.role === "editor" ? author.role : "reporter",
          is_active: 0,
          name: author.name?.slice(0, 100) ?? null,
          bio: author.bio?.slice(0, 1000) ?? null,
          avatar: null,
          last_login: null,
          created_at: now,
          updated_at: now,
        })
        .execute();
      ids.set(author.sourceId, id);
    }
    if (!dryRun)
      await rememberSource(trx, { source: site.source, site: site.site, kind: "user", sourceId: author.sourceId, targetId: ids.get(author.sourceId)! });
  }
  return { ids, counts };
}

/** Source category id → our category (id and slug), for every category the posts name; plus the fallback. */
export async function resolveCategories(
  trx: DB,
  { site, maps, needed, dryRun }: { site: ParsedSite; maps: SourceMaps; needed: Set<string>; dryRun: boolean },
): Promise<{ ids: Map<string, { id: string; slug: string }>; counts: Counted; terms: ParsedTerm[] }> {
  const ids = new Map<string, { id: string; slug: string }>();
  const counts: Counted = { matched: 0, created: 0 };
  const all = await trx.selectFrom("categories").select(["id", "slug", "name"]).execute();
  const find = (term: Pick<ParsedTerm, "slug" | "name">) => {
    const slugs = new Set([term.slug, slugify(term.slug), slugify(term.name)].filter(Boolean));
    return all.find((c) => slugs.has(c.slug)) ?? all.find((c) => c.name.toLowerCase() === term.name.toLowerCase());
  };
  const terms: ParsedTerm[] = [];
  for (const term of site.categories) {
    if (!needed.has(term.sourceId)) continue;
    const known = maps.category.get(term.sourceId);
    const existing = (known && all.find((c) => c.id === known)) || find(term);
    if (existing) {
      ids.set(term.sourceId, { id: existing.id, slug: existing.slug });
      counts.matched++;
    } else if (!term.matchOnly) {
      counts.created++;
      const slug = await firstFreeSlug(slugify(term.slug) || slugify(term.name) || "katehoriia", async (s) => all.some((c) => c.slug === s));
      const row = { id: randomUUID(), slug, name: term.name.slice(0, 100) };
      if (!dryRun) {
        const now = new Date().toISOString();
        await trx
          .insertInto("categories")
          .values({ ...row, description: term.description?.slice(0, 1000) ?? null, created_at: now, updated_at: now })
          .execute();
      }
      all.push(row);
      ids.set(term.sourceId, { id: row.id, slug });
    } else continue;
    terms.push(term);
    if (!dryRun)
      await rememberSource(trx, { source: site.source, site: site.site, kind: "category", sourceId: term.sourceId, targetId: ids.get(term.sourceId)!.id });
  }
  return { ids, counts, terms };
}

/** The category of posts that have none of ours: 'Імпортовані', made once. */
export async function fallbackCategory(trx: DB, dryRun: boolean): Promise<{ id: string; slug: string }> {
  const row = await trx.selectFrom("categories").select(["id", "slug"]).where("slug", "=", FALLBACK_CATEGORY.slug).executeTakeFirst();
  if (row) return row;
  const id = randomUUID();
  if (!dryRun) {
    const now = new Date().toISOString();
    await trx
      .insertInto("categories")
      .values({ id, ...FALLBACK_CATEGORY, description: null, created_at: now, updated_at: now })
      .execute();
  }
  return { id, slug: FALLBACK_CATEGORY.slug };
}
