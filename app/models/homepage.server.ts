import { db } from "../../db/index";
import type { BlockId } from "../../db/schema";

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
export async function getHomepageLayout(): Promise<Record<BlockId, string[]>> {
  const rows = await db
    .selectFrom("homepage_blocks")
    .select(["block_id", "article_id"])
    .orderBy("block_id")
    .orderBy("position")
    .execute();
  const layout = Object.fromEntries(BLOCK_IDS.map((id) => [id, [] as string[]])) as Record<BlockId, string[]>;
  for (const row of rows) layout[row.block_id]?.push(row.article_id);
  return layout;
}
