import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import express, { type RequestHandler } from "express";

/** How long a previous build's browser files stay served after a new build first started. */
export const KEEP_OLD_ASSETS_MS = 60 * 60_000;

const RETIRED = ".retired-at";

/**
 * Issue 30 (docs/decisions/032): after a deploy, the page store serves the previous build's pages
 * (stale) until each is rendered again, and those pages name the previous build's fingerprinted
 * scripts and styles under /build. A fresh checkout or image has only the new ones, so every build
 * copies its own `public/build` into `DATA_DIR/build-assets/<assets version>` when it first starts,
 * and the files of the builds before it are served from there for an hour after it took over
 * (`.retired-at`), then deleted at a later start. Names are content hashes: a file of an old build
 * never shadows a new one (public/build is asked first). Answers whether a build's files
 * are kept
 * (`serves`: the store serves a previous build's pages only if its files are).
 */
export function oldAssets({ dataDir, version, from = "public/build" }: { dataDir: string; version: string; from?: string }): {
  handler: RequestHandler;
  /** Whether the browser files of the build with this assets version are served (this build's, or kept). */
  serves: (assetsVersion: string) => boolean;
} {
  const root = join(dataDir, "build-assets");
  const none = { handler: ((_req, _res, next) => next()) as RequestHandler, serves: (v: string) => v === version };
  try {
    mkdirSync(root, { recursive: true, mode: 0o700 });
    const name = version.replace(/[^A-Za-z0-9._-]/g, "_");
    const own = join(root, name);
    if (!existsSync(own) && existsSync(from)) {
      // Copied beside, then renamed: a half-copied folder is never taken for a whole one.
      const partial = `${own}.partial-${process.pid}`;
      rmSync(partial, { recursive: true, force: true });
      cpSync(from, partial, { recursive: true });
      renameSync(partial, own);
    }
    // This build again (a rollback): its files are current, not retired.
    rmSync(join(own, RETIRED), { force: true });
    const now = Date.now();
    const live: { dir: string; until: number }[] = [];
    for (const entry of readdirSync(root)) {
      const dir = join(root, entry);
      if (entry === name) continue;
      if (entry.includes(".partial-")) {
        rmSync(dir, { recursive: true, force: true });
        continue;
      }
      const marker = join(dir, RETIRED);
      let retiredAt = existsSync(marker) ? Number(readFileSync(marker, "utf8")) : NaN;
      if (!Number.isFinite(retiredAt)) {
        retiredAt = now;
        writeFileSync(marker, String(now));
      }
      if (now - retiredAt >= KEEP_OLD_ASSETS_MS) rmSync(dir, { recursive: true, force: true });
      else live.push({ dir, until: retiredAt + KEEP_OLD_ASSETS_MS });
    }
    const statics = live.map(({ dir, until }) => ({
      until,
      serve: express.static(dir, { immutable: true, maxAge: "1h", index: false, dotfiles: "deny", redirect: false }),
    }));
    const handler: RequestHandler = (req, res, next) => {
      const now = Date.now();
      const serving = statics.filter((s) => s.until > now);
      const step = (i: number): void => (i < serving.length ? serving[i].serve(req, res, () => step(i + 1)) : next());
      step(0);
    };
    const names = new Set([name, ...live.map(({ dir }) => dir.slice(root.length + 1))]);
    return { handler, serves: (v) => v === version || names.has(v.replace(/[^A-Za-z0-9._-]/g, "_")) };
  } catch (error) {
    console.error(`Previous build's assets not kept (${(error as Error)?.message ?? error}): its stored pages will not be served.`);
    return none;
  }
}
