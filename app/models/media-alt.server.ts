import type { DB } from "../../db/index";

// Issue 31 item 16: the alt text typed in the editor (the featured image's "Alt" field, or
// `![alt](/media/…)` in the text) is carried to the media item when the item has none yet, so the
// library stops saying "Без опису" and the next article that inserts the image gets it too. An
// alt the library already holds is never overwritten from an article.

const MEDIA_URL = /^\/media\/([a-f0-9]{32})(?:-w\d{1,5})?\.(?:jpg|png|gif|webp)$/;
const MARKDOWN_IMAGE = /!\[([^\]\n]{1,200})\]\((\/media\/[a-f0-9]{32}(?:-w\d{1,5})?\.(?:jpg|png|gif|webp))(?:\s+"[^"]*")?\)/g;
const ALT_MAX = 200;

/** The alt texts an article gives its library images: stored file stem → alt. */
export function altsOf({ featuredImage, featuredAlt, content }: { featuredImage?: string | null; featuredAlt?: string | null; content?: string | null }) {
  const alts = new Map<string, string>();
  const add = (url: string | null | undefined, alt: string | null | undefined) => {
    const stem = url ? MEDIA_URL.exec(url)?.[1] : undefined;
    const text = alt?.trim().slice(0, ALT_MAX);
    if (stem && text && !alts.has(stem)) alts.set(stem, text);
  };
  add(featuredImage, featuredAlt);
  for (const [, alt, url] of (content ?? "").matchAll(MARKDOWN_IMAGE)) add(url, alt);
  return alts;
}

/** Gives each library image the article uses its alt text from the article, where the image has none. */
export async function carryAltToMedia(trx: DB, source: { featuredImage?: string | null; featuredAlt?: string | null; content?: string | null }) {
  for (const [stem, alt] of altsOf(source)) {
    await trx
      .updateTable("media")
      .set({ alt })
      .where("stored_path", "like", `${stem}.%`)
      .where((eb) => eb.or([eb("alt", "is", null), eb("alt", "=", "")]))
      .execute();
  }
}
