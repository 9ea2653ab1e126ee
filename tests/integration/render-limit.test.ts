import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { publicPageCache, RENDERS_AT_ONCE, stopPublicPages } from "../../app/services/public-middleware.server";

// Issue 16: renders of public pages are CPU on the one main thread; past RENDERS_AT_ONCE the
// misses wait their turn instead of interleaving (memory and latency of a crawler burst). The
// real middleware over a render that records how many run at once.
let url: string;
let close: () => Promise<void>;
let running = 0;
let most = 0;
const rendered: string[] = [];

beforeAll(async () => {
  // This counts renders: no warm-up beside the readers' own (issue 30, PAGE_STORE_WARM).
  process.env.PAGE_STORE_WARM = "0";
  const app = express();
  app.use(
    publicPageCache({
      build: "render-limit-test",
      csp: () => "default-src 'self'",
      render: async (path) => {
        running++;
        most = Math.max(most, running);
        await new Promise((r) => setTimeout(r, 40));
        running--;
        rendered.push(path);
        return new Response(`<!doctype html><p>${path}</p>`, { headers: { "Content-Type": "text/html; charset=utf-8" } });
      },
    }),
  );
  const server = app.listen(0, "127.0.0.1");
  await new Promise((r) => server.once("listening", r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => new Promise((r) => server.close(() => r()));
});

afterAll(async () => {
  await close();
  await stopPublicPages();
});

describe("public page renders", () => {
  it(`run at most ${RENDERS_AT_ONCE} at once; every waiting request is still answered, each with its own page`, async () => {
    const paths = Array.from({ length: 20 }, (_, i) => `/article/page-${i}`);
    const answers = await Promise.all(paths.map((path) => fetch(`${url}${path}`).then(async (res) => ({ path, status: res.status, body: await res.text() }))));
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(answer.body).toBe(`<!doctype html><p>${answer.path}</p>`);
    }
    expect(rendered.sort()).toEqual([...paths].sort());
    expect(most).toBe(RENDERS_AT_ONCE);
    // Stored once rendered: the same twenty again render nothing.
    await Promise.all(paths.map((path) => fetch(`${url}${path}`).then((res) => res.text())));
    expect(rendered).toHaveLength(paths.length);
  });
});
