import { databaseChangeVersion, dataDir } from "../../db/index";

// The public menus are read on every public render, so they are kept in process (DESIGN §13),
// like the settings: a write in this process forgets them (the menu editor, and category and page
// writes, which rename or remove links); a commit by another process or box moves
// databaseChangeVersion (SQLite `PRAGMA data_version`, PostgreSQL notifications), and the copy is
// read afresh. Keyed by DATA_DIR as the settings cache is (tests run several sites in one process).

const cache = new Map<string, unknown>();
let cacheVersion: number | undefined;
// Bumped by every forget: a read that began before a write does not keep what it read.
let generation = 0;

/** Where a read begins: pass it to keepMenus. */
export function menusGeneration(): number {
  return generation;
}

/** The cached value for this site, or undefined when a change may have happened since. */
export function cachedMenus<T>(): T | undefined {
  const version = databaseChangeVersion();
  if (version !== cacheVersion) {
    cache.clear();
    cacheVersion = version;
  }
  return cache.get(dataDir()) as T | undefined;
}

export function keepMenus(value: unknown, readAt: number): void {
  if (readAt === generation) cache.set(dataDir(), value);
}

/** Call after a write that changes what a menu shows (a menu, a category, a page). */
export function forgetMenus(): void {
  generation++;
  cache.delete(dataDir());
}
