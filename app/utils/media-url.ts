// Responsive images for uploaded media (DESIGN §8, issue 'media library'). An upload stored as
// /media/<name>.<ext> also has resized WebP variants /media/<name>-w<width>.webp for each width
// below (never enlarged: a narrower original gives a file of its own width under that name).
// Public pages use responsiveImage() so a reader never downloads a 4000-pixel original for a
// 400-pixel card. Other URLs (demo images, external links) pass through unchanged.

export const VARIANT_WIDTHS = [400, 800, 1200] as const;

const MEDIA_URL = /^\/media\/([A-Za-z0-9_-]+)\.(jpe?g|png|gif|webp)$/;
// The demo images have the same variants, made once by scripts/demo-image-variants.ts.
const DEMO_URL = /^\/images\/demo\/([a-z0-9-]+)\.jpg$/;

/** The URL of one resized variant of an uploaded (or demo) image, or undefined for other URLs. */
export function variantUrl(url: string, width: number): string | undefined {
  const match = MEDIA_URL.exec(url);
  if (match) return `/media/${match[1]}-w${width}.webp`;
  const demo = DEMO_URL.exec(url);
  return demo ? `/images/demo/${demo[1]}-w${width}.webp` : undefined;
}

/** src, srcSet and sizes for an <img>; srcSet only for uploaded media. */
export function responsiveImage(url: string, sizes = "(max-width: 768px) 100vw, 50vw"): { src: string; srcSet?: string; sizes?: string } {
  if (!MEDIA_URL.test(url) && !DEMO_URL.test(url)) return { src: url };
  const srcSet = VARIANT_WIDTHS.map((w) => `${variantUrl(url, w)} ${w}w`).join(", ");
  return { src: variantUrl(url, 800)!, srcSet, sizes };
}
