// Reports the gzip size of the JavaScript a public page loads (DESIGN §9: at most 120 KB gzip for a
// reader page): every /build/*.js the HTML names (modulepreload links, script src, the inline
// module's imports), each gzipped as the server's compression would send it, summed.
//
//   npx tsx scripts/js-size.ts http://127.0.0.1:3000 / /article/some-slug
import { gzipSync } from "node:zlib";
import { pathToFileURL } from "node:url";

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

async function cli() {
  const [baseUrl, ...paths] = process.argv.slice(2);
  if (!baseUrl) throw new Error("usage: tsx scripts/js-size.ts BASE_URL [PATH...]");
  for (const path of paths.length ? paths : ["/"]) {
    const size = await measurePageJs(baseUrl, path);
    console.log(`${path} (HTTP ${size.status}): ${size.files.length} files, ${kb(size.bytes)} raw, ${kb(size.gzip)} gzip`);
    for (const f of size.files) console.log(`  ${f.url}  ${kb(f.gzip)}`);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  cli().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
