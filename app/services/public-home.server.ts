import { HOMEPAGE_BLOCKS } from "../models/homepage.server";
import { getPublicHomepage, listRelated, type Card, type HomepageBlocks } from "../models/public-article.server";
import { SAMPLE_BLOCKS } from "../utils/sample-content";

// The public home's data, one function for the page, the home-style 404 fallback and
// GET /api/homepage/public.

export interface HomeData {
  blocks: HomepageBlocks;
  /** Three tiles beside the hero: newer stories of its category, else the newest others. */
  related: Card[];
  /** True when nothing is published and the built-in sample is shown (SPEC §4, DESIGN §8). */
  sample: boolean;
}

export async function loadHome(): Promise<HomeData> {
  const blocks = await getPublicHomepage();
  if (!blocks) return { blocks: SAMPLE_BLOCKS, related: SAMPLE_BLOCKS.main, sample: true };
  const hero = blocks.hero[0];
  let related: Card[] = [];
  if (hero) {
    const exclude = [hero.id, ...blocks.main.map((c) => c.id)];
    related = await listRelated({ categorySlug: hero.category_slug, excludeIds: exclude, limit: 3 });
    if (related.length < 3) {
      const more = await listRelated({ categorySlug: null, excludeIds: [...exclude, ...related.map((c) => c.id)], limit: 3 - related.length });
      related = [...related, ...more];
    }
  }
  return { blocks, related, sample: false };
}

/** Every article the home shows (its blocks and the hero's related tiles); the built-in sample has none. */
export function homeCards(home: HomeData): Card[] {
  return home.sample ? [] : [...Object.values(home.blocks).flat(), ...home.related];
}

/** SPEC §7 'GET /api/homepage/public': blocks with id and their articles as cards. */
export function homeToJson(home: HomeData) {
  return {
    blocks: HOMEPAGE_BLOCKS.map((b) => ({ id: b.id, name: b.name, maxArticles: b.maxArticles, articles: home.blocks[b.id] })),
    sample: home.sample,
  };
}
