import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { responsiveImage, variantUrl } from "../../app/utils/media-url";

describe("media-url", () => {
  it("gives uploads and demo images a srcset of their WebP variants; other URLs pass through", () => {
    expect(responsiveImage("/media/abc123.png", "50vw")).toEqual({
      src: "/media/abc123-w800.webp",
      srcSet: "/media/abc123-w400.webp 400w, /media/abc123-w800.webp 800w, /media/abc123-w1200.webp 1200w",
      sizes: "50vw",
    });
    expect(variantUrl("/images/demo/space-1.jpg", 400)).toBe("/images/demo/space-1-w400.webp");
    expect(responsiveImage("https://example.com/x.jpg")).toEqual({ src: "https://example.com/x.jpg" });
    expect(responsiveImage("/media/../news.db")).toEqual({ src: "/media/../news.db" });
    expect(responsiveImage("data:image/png;base64,AAAA")).toEqual({ src: "data:image/png;base64,AAAA" });
  });

  it("every demo image has its variants on disk (scripts/demo-image-variants.ts)", () => {
    const dir = join(process.cwd(), "public/images/demo");
    const originals = readdirSync(dir).filter((f) => /^[a-z0-9-]+\.jpg$/.test(f));
    expect(originals.length).toBeGreaterThan(0);
    for (const file of originals) {
      const { srcSet } = responsiveImage(`/images/demo/${file}`);
      for (const entry of srcSet!.split(", ")) {
        expect(existsSync(join(process.cwd(), "public", entry.split(" ")[0]))).toBe(true);
      }
    }
  });
});
