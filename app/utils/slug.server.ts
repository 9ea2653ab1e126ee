import cyrillicToTranslit from "cyrillic-to-translit-js";

// Slugs are Ukrainian titles transliterated by the national passport rules (the package's 'uk'
// preset): 'Щастя у Києві' → 'shchastia-u-kyievi'. Readable, stable ASCII URLs.
const translit = cyrillicToTranslit({ preset: "uk" });
const MAX_SLUG = 80;

/** A URL slug for a title or name ('' when nothing usable is left). */
export function slugify(text: string): string {
  const latin = translit.transform(text.normalize("NFC").replace(/['’ʼ`]/g, ""), " ");
  const slug = latin
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  return slug.length > MAX_SLUG ? slug.slice(0, MAX_SLUG).replace(/-[^-]*$/, "") || slug.slice(0, MAX_SLUG) : slug;
}

/** base, base-2, base-3 ... : the first candidate `taken` says is free. */
export async function firstFreeSlug(base: string, taken: (slug: string) => Promise<boolean>): Promise<string> {
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? base : `${base}-${n}`;
    if (!(await taken(candidate))) return candidate;
  }
}
