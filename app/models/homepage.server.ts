import { z } from "zod";
import { db, writeTransaction, type DB } from "../../db/index";
import type { BlockId } from "../../db/schema";
import { CACHE_TAG, invalidatePublicCache } from "../page-store/page-cache.server";
import { DomainError } from "../utils/errors";
import { articleRows } from "./article-queries.server";
import { recordAudit, type Actor } from "./audit.server";

// The homepage layout (SPEC §3 'Homepage config', §9): five blocks, each an ordered list of
// article ids with a maximum. The public home reads it; the homepage editor writes it.

export interface BlockDefinition {
  id: BlockId;
  /** Ukrainian name shown in the homepage editor. */
  name: string;
  maxArticles: number;
}

export const HOMEPAGE_BLOCKS: readonly BlockDefinition[] = [
  { id: "hero", name: "Головна історія", maxArticles: 1 },
  { id: "main", name: "Останні наукові відкриття", maxArticles: 3 },
  { id: "sidebar", name: "Стрічка новин", maxArticles: 5 },
  { id: "trending", name: "Популярне", maxArticles: 4 },
  { id: "featured", name: "Вибрані публікації", maxArticles: 6 },
];

export const BLOCK_IDS = HOMEPAGE_BLOCKS.map((b) => b.id);

/** The saved layout: article ids per block, in their order (empty lists for empty blocks). */
export async function getHomepageLayout(executor: DB = db): Promise<Record<BlockId, string[]>> {
  const rows = await executor.selectFrom("homepage_blocks").select(["block_id", "article_id"]).orderBy("block_id").orderBy("position").execute();
  const layout = Object.fromEntries(BLOCK_IDS.map((id) => [id, [] as string[]])) as Record<BlockId, string[]>;
  for (const row of rows) layout[row.block_id]?.push(row.article_id);
  return layout;
}

// ---------------------------------------------------------------------------------------------
// Homepage editor (issue 6): the config shape of SPEC §3, the block rules of SPEC §5 and saving.

export type HomepageLayout = Record<BlockId, string[]>;

export interface HomepageBlockConfig {
  id: BlockId;
  name: string;
  articles: string[];
  maxArticles: number;
}

const blockById = new Map(HOMEPAGE_BLOCKS.map((b) => [b.id, b]));

/** `PUT /api/homepage/config` and the editor's save: blocks with id and articles (ids or {id}). */
export const HomepageConfigSchema = z.object({
  blocks: z
    .array(
      z.object({
        id: z.enum(BLOCK_IDS as [BlockId, ...BlockId[]], { message: `Невідомий блок (можливі: ${BLOCK_IDS.join(", ")})` }),
        name: z.string().max(200).optional(),
        maxArticles: z.number().int().optional(),
        articles: z
          .array(z.union([z.string().min(1).max(100), z.object({ id: z.string().min(1).max(100) }).transform((a) => a.id)]), { message: "Список статей" })
          .max(50, "Забагато статей"),
      }),
      { message: "Список блоків" },
    )
    .max(BLOCK_IDS.length, "Забагато блоків"),
});

/**
 * The block rules (SPEC §5 'Homepage blocks'): each block at most its maximum, no article twice in
 * one block (the same article may sit in several blocks), each block once. Field errors keyed
 * "blocks.<id>"; empty when the layout is valid.
 */
export function checkBlockRules(blocks: { id: BlockId; articles: string[] }[]): Record<string, string> {
  const errors: Record<string, string> = {};
  const seen = new Set<BlockId>();
  for (const block of blocks) {
    const definition = blockById.get(block.id);
    const key = `blocks.${block.id}`;
    if (!definition) {
      errors[key] = "Невідомий блок";
      continue;
    }
    if (seen.has(block.id)) errors[key] = "Блок вказано двічі";
    seen.add(block.id);
    if (block.articles.length > definition.maxArticles) {
      errors[key] = `У блоці «${definition.name}» не більше ${definition.maxArticles} статей`;
    } else if (new Set(block.articles).size !== block.articles.length) {
      errors[key] = `Стаття вже є в блоці «${definition.name}»`;
    }
  }
  return errors;
}

/** Ids of published articles among `ids`. */
async function publishedIds(ids: string[], executor = db): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await executor.selectFrom("articles").select("id").where("id", "in", ids).where("status", "=", "published").execute();
  return new Set(rows.map((r) => r.id));
}

/**
 * Saves the whole layout (blocks not given become empty). Refuses with 422 when a block rule is
 * broken or an article id is unknown or not published; nothing is written then.
 */
export async function saveHomepageLayout(blocks: { id: BlockId; articles: string[] }[], actor: Actor): Promise<HomepageLayout> {
  const errors = checkBlockRules(blocks);
  const firstError = Object.entries(errors)[0];
  if (firstError) throw new DomainError(422, firstError[1], firstError[0]);
  const layout = Object.fromEntries(BLOCK_IDS.map((id) => [id, [] as string[]])) as HomepageLayout;
  for (const block of blocks) layout[block.id] = block.articles;
  const saved = await writeTransaction(async (trx) => {
    const all = [...new Set(Object.values(layout).flat())];
    const published = await publishedIds(all, trx);
    for (const block of blocks) {
      const missing = block.articles.find((id) => !published.has(id));
      if (missing) {
        throw new DomainError(422, `Статтю ${missing} не знайдено серед опублікованих`, `blocks.${block.id}`);
      }
    }
    const before = await getHomepageLayout(trx);
    const changed = BLOCK_IDS.filter((id) => JSON.stringify(before[id]) !== JSON.stringify(layout[id]));
    // A save that changed nothing is not a change (the audit log records changes).
    if (changed.length)
      await recordAudit(trx, { actor, action: "homepage.save", object: { type: "homepage", label: "Головна сторінка" }, details: { blocks: changed } });
    await trx.deleteFrom("homepage_blocks").execute();
    for (const id of BLOCK_IDS) {
      for (const [position, articleId] of layout[id].entries()) {
        await trx.insertInto("homepage_blocks").values({ block_id: id, position, article_id: articleId }).execute();
      }
    }
    return layout;
  });
  // The layout shows only on the home (and its JSON); the 404 page that also shows it is never cached.
  invalidatePublicCache([CACHE_TAG.home]);
  return saved;
}

/** The saved layout with only published articles (what readers can see and the editor edits). */
export async function getPublishedLayout(): Promise<HomepageLayout> {
  const layout = await getHomepageLayout();
  const published = await publishedIds([...new Set(Object.values(layout).flat())]);
  for (const id of BLOCK_IDS) layout[id] = layout[id].filter((a) => published.has(a));
  return layout;
}

/** SPEC §3 'Homepage config': blocks with id, name, articles (ids) and maxArticles. */
export function toHomepageConfig(layout: HomepageLayout): { blocks: HomepageBlockConfig[] } {
  return { blocks: HOMEPAGE_BLOCKS.map((b) => ({ id: b.id, name: b.name, articles: layout[b.id] ?? [], maxArticles: b.maxArticles })) };
}

export interface EditorArticle {
  id: string;
  title: string;
  category: string | null;
  views: number;
}

/** The editor's source list: the newest 50 published articles, plus any already in a block. */
export async function listEditorArticles(layout: HomepageLayout): Promise<EditorArticle[]> {
  const base = () => articleRows().where("articles.status", "=", "published");
  const newest = await base().orderBy("articles.published_at", "desc").orderBy("articles.id").limit(50).execute();
  const have = new Set(newest.map((a) => a.id));
  const extra = [...new Set(Object.values(layout).flat())].filter((id) => !have.has(id));
  const more = extra.length ? await base().where("articles.id", "in", extra).execute() : [];
  return [...newest, ...more].map((a) => ({ id: a.id, title: a.title, category: a.category_name, views: Number(a.views) }));
}
