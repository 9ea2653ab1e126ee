// Makes the resized WebP variants of the demo images (public/images/demo/<name>-w<width>.webp),
// with the same widths and settings as uploads (app/models/media.server.ts), so the demo home page
// uses srcset like uploaded media does. Run after adding or changing a demo image:
//   npx tsx scripts/demo-image-variants.ts
import { readdirSync } from "node:fs";
import { join } from "node:path";
import sharp from "sharp";
import { VARIANT_WIDTHS } from "../app/utils/media-url";

const dir = join(process.cwd(), "public/images/demo");
for (const file of readdirSync(dir).filter((f) => /^[a-z0-9-]+\.jpg$/.test(f))) {
  const stem = file.replace(/\.jpg$/, "");
  for (const width of VARIANT_WIDTHS) {
    const out = join(dir, `${stem}-w${width}.webp`);
    const info = await sharp(join(dir, file)).autoOrient().resize({ width, withoutEnlargement: true }).webp({ quality: 80 }).toFile(out);
    console.log(`${out}: ${info.width}x${info.height}, ${info.size} bytes`);
  }
}
