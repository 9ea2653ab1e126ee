// In-process cache of anonymous public responses (DESIGN §9). Writes that change what readers
// see call invalidatePublicCache(); entries also expire after MAX_AGE_MS. Lives on globalThis so
// server.ts middleware and the Remix build share one cache.
const MAX_AGE_MS = 60_000;
const MAX_ENTRIES = 2_000;

export interface CachedResponse {
  status: number;
  headers: [string, string][];
  body: Buffer;
  etag: string;
  storedAt: number;
}

const cache: Map<string, CachedResponse> = ((globalThis as any).__newsPageCache ??= new Map());

export function getCachedResponse(key: string): CachedResponse | undefined {
  const entry = cache.get(key);
  if (!entry) return undefined;
  if (Date.now() - entry.storedAt > MAX_AGE_MS) {
    cache.delete(key);
    return undefined;
  }
  return entry;
}

export function setCachedResponse(key: string, entry: CachedResponse): void {
  if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value!);
  cache.set(key, entry);
}

/** Drops every cached public response; call after any write readers can see. */
export function invalidatePublicCache(): void {
  cache.clear();
}

export function publicCacheSize(): number {
  return cache.size;
}
