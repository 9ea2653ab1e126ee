import { randomUUID } from "node:crypto";
import { subHours } from "date-fns";
import { insertArticle } from "../app/models/article.server";
import { MENU_CATEGORY_SLUGS } from "../app/models/category.server";
import { HOMEPAGE_BLOCKS } from "../app/models/homepage.server";
import { seedHeaderCategories } from "../app/models/menu.server";
import { saveSettings } from "../app/models/settings.server";
import { createUser } from "../app/models/user.server";
import { daysBefore, utcDayBefore } from "../app/utils/dates";
import { renderArticleHtml } from "../app/utils/markdown.server";
import type { Role } from "../app/utils/roles";
import type { BlockId } from "./schema";
import { seedArticles, seedCategories } from "./seed-content";
import { db, writeTransaction } from "./index";
import type { DB } from "./index";

// DESIGN §3: on an empty database, the eight categories, and either the demo newsroom
// (SEED_DEMO=1) or the first admin from ADMIN_USERNAME/ADMIN_PASSWORD, or both. Everything is
// written in one transaction together with the 'seed' marker, so a second start (or a crash half
// way through the first) never leaves duplicates or half a seed.

const DEMO_USERS: { username: string; password: string; role: Role; name: string; email: string }[] = [
  { username: "admin", password: "admin123", role: "admin", name: "Олена Коваленко", email: "admin@nauka-ua.example" },
  { username: "editor", password: "editor123", role: "editor", name: "Андрій Мельник", email: "editor@nauka-ua.example" },
  { username: "reporter", password: "reporter123", role: "reporter", name: "Марія Шевчук", email: "reporter@nauka-ua.example" },
];

/** The block maximums, from the one definition the editor and the API enforce. */
export const HOMEPAGE_LAYOUT = Object.fromEntries(HOMEPAGE_BLOCKS.map((b) => [b.id, b.maxArticles])) as Record<BlockId, number>;

const HISTORY_DAYS = 40;

/** A small deterministic PRNG, so the demo figures are the same on every machine. */
export function mulberry32(seed: number) {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export async function isSeeded(executor: DB = db): Promise<boolean> {
  const row = await executor.selectFrom("settings").select("key").where("key", "=", "seed").executeTakeFirst();
  return Boolean(row);
}

export async function seedDatabase({
  demo,
  admin,
  now = Date.now(),
}: {
  demo: boolean;
  admin?: { username: string; password: string };
  now?: number;
}): Promise<{ seeded: boolean }> {
  if (await isSeeded()) return { seeded: false };
  if (!demo && !admin) {
    console.warn("Empty database and no ADMIN_USERNAME/ADMIN_PASSWORD: nobody can sign in yet.");
  }

  // Slow work (bcrypt, markdown rendering) happens before the write lock is taken.
  const articles = demo ? await Promise.all(seedArticles.map(async (a) => ({ ...a, html: await renderArticleHtml(a.content) }))) : [];

  await writeTransaction(async (trx) => {
    if (await isSeeded(trx)) return;
    const categoryIds = new Map<string, string>();
    for (const c of seedCategories) {
      const id = randomUUID();
      categoryIds.set(c.slug, id);
      await trx.insertInto("categories").values({ id, name: c.name, slug: c.slug, description: c.description }).execute();
    }
    // SPEC §2's header menu: 'Latest news' (migration 000031) and then these, in SPEC order.
    await seedHeaderCategories(
      trx,
      MENU_CATEGORY_SLUGS.flatMap((slug) => categoryIds.get(slug) ?? []),
    );

    const userIds = new Map<string, string>();
    if (demo) {
      for (const u of DEMO_USERS) userIds.set(u.username, (await createUser(u, trx)).id);
    }
    if (admin && !userIds.has(admin.username.trim().toLowerCase())) {
      await createUser({ username: admin.username, password: admin.password, role: "admin", email: `${admin.username}@localhost` }, trx);
    }

    if (demo) await seedNewsroom(trx, { articles, categoryIds, userIds, now });
    await saveSettings("seed", { demo_users: demo, seeded_at: new Date(now).toISOString() }, trx);
  });
  return { seeded: true };
}

async function seedNewsroom(
  trx: DB,
  {
    articles,
    categoryIds,
    userIds,
    now,
  }: {
    articles: ((typeof seedArticles)[number] & { html: string })[];
    categoryIds: Map<string, string>;
    userIds: Map<string, string>;
    now: number;
  },
) {
  const random = mulberry32(20261122);
  const published: { id: string; views: number; publishedAt: number; image: string }[] = [];

  for (const [index, a] of articles.entries()) {
    const publishedAt = subHours(daysBefore(now, a.daysAgo), index % 9).getTime();
    const id = randomUUID();
    // Daily views from publication until today: a launch peak that decays, with some noise.
    const daily: [string, number][] = [];
    if (a.status === "published") {
      const peak = 300 + Math.floor(random() * 1500);
      for (let d = Math.min(a.daysAgo, HISTORY_DAYS); d >= 0; d--) {
        const age = a.daysAgo - d;
        const views = Math.max(1, Math.round(peak * Math.exp(-age / 6) * (0.7 + random() * 0.6) + random() * 25));
        daily.push([utcDayBefore(now, d), views]);
      }
    }
    const total = daily.reduce((sum, [, v]) => sum + v, 0);
    await insertArticle(trx, {
      id,
      slug: a.slug,
      title: a.title,
      subtitle: a.subtitle,
      content: a.content,
      contentHtml: a.html,
      categoryId: categoryIds.get(a.category) ?? null,
      authorId: userIds.get(a.author) ?? null,
      status: a.status,
      publishedAt: a.status === "published" ? new Date(publishedAt).toISOString() : null,
      createdAt: subHours(publishedAt, 2).toISOString(),
      views: total,
      seoDescription: a.seoDescription,
      featuredImage: a.image,
      tags: a.tags,
    });
    for (const [day, views] of daily) {
      await trx
        .insertInto("page_views")
        .values({ day, path: `/article/${a.slug}`, article_id: id, views })
        .execute();
    }
    if (a.status === "published") published.push({ id, views: total, publishedAt, image: a.image });
  }

  // The home page's own daily visits, for the site-wide charts.
  for (let d = HISTORY_DAYS; d >= 0; d--) {
    const views = 800 + Math.round(random() * 700 + (d % 7 < 2 ? -250 : 0));
    await trx
      .insertInto("page_views")
      .values({ day: utcDayBefore(now, d), path: "/", article_id: null, views })
      .execute();
  }

  // Homepage layout: newest for hero and main, most read for trending, the rest spread out.
  const newest = [...published].sort((a, b) => b.publishedAt - a.publishedAt);
  const mostRead = [...published].sort((a, b) => b.views - a.views);
  const blocks: Record<BlockId, string[]> = {
    hero: newest.slice(0, 1).map((a) => a.id),
    main: newest.slice(1, 4).map((a) => a.id),
    trending: mostRead.slice(0, 4).map((a) => a.id),
    sidebar: newest.slice(4, 9).map((a) => a.id),
    featured: newest.slice(9, 15).map((a) => a.id),
  };
  for (const [blockId, ids] of Object.entries(blocks) as [BlockId, string[]][]) {
    for (const [position, articleId] of ids.slice(0, HOMEPAGE_LAYOUT[blockId]).entries()) {
      await trx.insertInto("homepage_blocks").values({ block_id: blockId, position, article_id: articleId }).execute();
    }
  }
}
