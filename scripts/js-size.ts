// Reports the gzip size of the JavaScript a public page loads (DESIGN §9: at most 120 KB gzip for a
// reader page): every /build/*.js the HTML names (modulepreload links, script src, the inline
// module's imports), each gzipped as the server's compression would send it, summed.
//
//   npx tsx scripts/js-size.ts http://127.0.0.1:3000 / /article/some-slug
import { pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";

export const PUBLIC_JS_BUDGET_BYTES = 120 * 1024;

export interface JsSize {
  path: string;
  status: number;
  files: { url: string; bytes: number; gzip: number }[];
  bytes: number;
  gzip: number;
}

/** The JavaScript files an HTML page loads, as absolute paths under /build/. */
export function scriptUrls(html: string): string[] {
  const urls = new Set<string>();
  for (const match of html.matchAll(/(?:href|src)="(\/build\/[^"]+\.js)"/g)) urls.add(match[1]);
  // The inline entry module: import "/build/..."; and import * as route0 from "/build/...";
  for (const match of html.matchAll(/(?:import|from)\s*\(?\s*"(\/build\/[^"]+\.js)"/g)) urls.add(match[1]);
  return [...urls];
}

/** Fetches `path` from `baseUrl` and sums the gzip size of the JavaScript it loads. */
export async function measurePageJs(baseUrl: string, path: string): Promise<JsSize> {
  const res = await fetch(new URL(path, baseUrl), { headers: { "User-Agent": "Mozilla/5.0 (js-size)" } });
  const html = await res.text();
  const files = await Promise.all(
    scriptUrls(html).map(async (url) => {
      const body = Buffer.from(await (await fetch(new URL(url, baseUrl))).arrayBuffer());
      return { url, bytes: body.length, gzip: gzipSync(body, { level: 6 }).length };
    }),
  );
  return {
    path,
    status: res.status,
    files,
    bytes: files.reduce((s, f) => s + f.bytes, 0),
    gzip: files.reduce((s, f) => s + f.gzip, 0),
  };
}

export const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/**
 * Measures each path and prints one line per page (files, raw, gzip, met/missed against the
 * 120 KB budget), with the files when `verbose`. Used by this CLI and by `npm run lighthouse`.
 */
export async function reportPagesJs(baseUrl: string, paths: string[], { verbose = true } = {}): Promise<JsSize[]> {
  const sizes: JsSize[] = [];
  for (const path of paths) {
    const size = await measurePageJs(baseUrl, path);
    sizes.push(size);
    const verdict = size.gzip <= PUBLIC_JS_BUDGET_BYTES ? "met   " : "MISSED";
    console.log(
      `${verdict} ${path} (HTTP ${size.status}): ${size.files.length} files, ${kb(size.bytes)} raw, ${kb(size.gzip)} gzip (budget ${kb(PUBLIC_JS_BUDGET_BYTES)})`,
    );
    if (verbose) for (const f of size.files) console.log(`         ${f.url}  ${kb(f.gzip)}`);
  }
  return sizes;
}

async function cli() {
  const [baseUrl, ...paths] = process.argv.slice(2);
  if (!baseUrl) throw new Error("usage: tsx scripts/js-size.ts BASE_URL [PATH...]");
  await reportPagesJs(baseUrl, paths.length ? paths : ["/"]);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  cli().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
