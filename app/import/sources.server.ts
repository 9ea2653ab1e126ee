import { db, type DB } from "../../db/index";
import { normalizeOldPath } from "./types";

// Issue 27: what imported things were at their source (import_sources: idempotence by the source's
// ids) and the old public paths that answer 301 (redirects). The public lookup is one primary-key
// read, made only for a path no page of ours answers (server/app.ts, app/routes/_public.$.tsx).

export type SourceKindOfRow = "article" | "category" | "tag" | "user" | "media" | "comment";
export type SourceMaps = Record<SourceKindOfRow, Map<string, string>>;

/** Everything already imported from this source site, by kind. */
export async function loadSourceMaps(source: string, site: string, executor: DB = db): Promise<SourceMaps> {
  const maps: SourceMaps = { article: new Map(), category: new Map(), tag: new Map(), user: new Map(), media: new Map(), comment: new Map() };
  const rows = await executor
    .selectFrom("import_sources")
    .select(["kind", "source_id", "target_id"])
    .where("source", "=", source)
    .where("site", "=", site)
    .execute();
  for (const r of rows) maps[r.kind as SourceKindOfRow]?.set(r.source_id, r.target_id);
  return maps;
}

export async function rememberSource(trx: DB, row: { source: string; site: string; kind: SourceKindOfRow; sourceId: string; targetId: string }) {
  await trx
    .insertInto("import_sources")
    .values({ source: row.source, site: row.site, kind: row.kind, source_id: row.sourceId, target_id: row.targetId, created_at: new Date().toISOString() })
    .onConflict((oc) => oc.columns(["source", "site", "kind", "source_id"]).doNothing())
    .execute();
}

/**
 * Stores old → new (the first mapping of an old path wins; a path that is already its own target is
 * skipped). `replaceSearch`: an old tag path that an earlier import sent to `/search?q=…` (before
 * tag pages existed) is moved to its tag page.
 */
export async function addRedirects(trx: DB, pairs: { from: string; to: string }[], { replaceSearch = false } = {}): Promise<number> {
  const now = new Date().toISOString();
  const values = pairs
    .map(({ from, to }) => ({ old_path: normalizeOldPath(from), new_path: to, created_at: now }))
    .filter((v): v is { old_path: string; new_path: string; created_at: string } => Boolean(v.old_path) && v.old_path !== v.new_path);
  if (!values.length) return 0;
  let added = 0;
  for (let i = 0; i < values.length; i += 200) {
    const result = await trx
      .insertInto("redirects")
      .values(values.slice(i, i + 200))
      .onConflict((oc) =>
        replaceSearch
          ? oc
              .column("old_path")
              .doUpdateSet((eb) => ({ new_path: eb.ref("excluded.new_path") }))
              .where("redirects.new_path", "like", "/search?q=%")
          : oc.column("old_path").doNothing(),
      )
      .executeTakeFirst();
    added += Number(result.numInsertedOrUpdatedRows ?? 0);
  }
  return added;
}

/**
 * The new address of an old public path (`/2019/05/slug/`, `/?p=123`, `/category/x/`), or null.
 * `pathWithQuery` is the request's path as sent (percent-encoded) with its query.
 */
export async function findRedirect(pathWithQuery: string): Promise<string | null> {
  const key = normalizeOldPath(pathWithQuery);
  if (!key) return null;
  const row = await db.selectFrom("redirects").select("new_path").where("old_path", "=", key).executeTakeFirst();
  return row?.new_path ?? null;
}

/** Whether a request to `/` carries a WordPress query (`?p=`, `?page_id=`, `?cat=`, `?tag=`): only then is `/` looked up. */
export const OLD_QUERY = /[?&](?:p|page_id|cat|tag)=/;
