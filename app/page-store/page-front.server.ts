import type { Encoding, StoredPage } from "./page-store.server";

// A small in-memory front of the most recently served pages (parsed headers and the bodies asked
// for): a hot page costs no SQLite read and no JSON parse. Bounded by bytes; the store empties
// what any change touches. 8 MB (24 MB before issue 30 item 4) holds some 500 pages with both
// their compressed bodies: the hot set of a news site (home, sections, the day's stories); a
// rotation over the archive misses it at any size, and its 16 MB more were resident for good.
const FRONT_BYTES = 8 * 1024 * 1024;
// What a page in the front costs besides its bodies (parsed headers, tags, the Map entry).
const FRONT_OVERHEAD = 1_000;

/** The pages most recently served, least recently used out first past FRONT_BYTES. */
export class PageFront {
  private pages = new Map<string, StoredPage>();
  private bytes = 0;

  has(key: string): boolean {
    return this.pages.has(key);
  }

  /** The page kept under the key, made the most recently used. */
  take(key: string): StoredPage | undefined {
    const page = this.pages.get(key);
    if (!page) return undefined;
    this.pages.delete(key);
    this.pages.set(key, page);
    return page;
  }

  /** The page kept under the key, its place unchanged. */
  peek(key: string): StoredPage | undefined {
    return this.pages.get(key);
  }

  /** Keeps a page (replacing what the key held). */
  remember(page: StoredPage): void {
    this.forget(page.key);
    this.pages.set(page.key, page);
    this.bytes += FRONT_OVERHEAD;
    this.trim();
  }

  /** Keeps a body of a page beside it, while the front still holds that page. */
  keepBody(page: StoredPage, encoding: Encoding, body: Buffer): void {
    if (this.pages.get(page.key) !== page || page[encoding]) return;
    page[encoding] = body;
    this.bytes += body.length;
    this.trim();
  }

  forget(key: string): void {
    const page = this.pages.get(key);
    if (!page) return;
    this.pages.delete(key);
    this.bytes -= FRONT_OVERHEAD + (page.gzip?.length ?? 0) + (page.br?.length ?? 0) + (page.identity?.length ?? 0);
  }

  clear(): void {
    this.pages.clear();
    this.bytes = 0;
  }

  private trim(): void {
    for (const [key] of this.pages) {
      if (this.bytes <= FRONT_BYTES) break;
      this.forget(key);
    }
  }
}
