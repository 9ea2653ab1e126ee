import { slugify } from "../utils/slug.server";

// Issue 31 item 11: an article's address follows its title until the article is first published
// (or scheduled: published_at is then set), so a junk first title never goes live in the address.
// It follows only while the slug is still the one made from the title (the title's
// transliteration, perhaps with -2, -3 …): a slug typed by hand stays, and so does any change of
// the slug in the same save.

interface Current {
  title: string;
  slug: string;
  published_at: string | null;
}

/** Whether `slug` is the one the site would make from `title` (ignoring a -N suffix). */
export function isTitleSlug(slug: string, title: string): boolean {
  const base = slugify(title) || "stattia";
  return slug === base || new RegExp(`^${base.replace(/[^a-z0-9-]/g, "")}-\\d+$`).test(slug);
}

/** True when this save moves the address to the new title. */
export function slugFollowsTitle(current: Current, input: { title: string; slug?: string | null }): boolean {
  if (current.published_at) return false;
  if (input.title === current.title) return false;
  if (input.slug && input.slug !== current.slug) return false;
  return isTitleSlug(current.slug, current.title);
}
