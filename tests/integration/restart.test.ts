import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { afterAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../server-process";

// Issue 6 'Done when': media and the homepage layout survive a restart of the real server.
const dataDir = mkdtempSync(join(tmpdir(), "news-restart-"));
let server: RunningServer | undefined;

afterAll(async () => {
  await server?.stop("SIGKILL");
  rmSync(dataDir, { recursive: true, force: true });
});

async function token(url: string) {
  const res = await fetch(`${url}/api/auth/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ username: "admin", password: "admin123" }),
  });
  expect(res.status).toBe(200);
  return { Authorization: `Bearer ${(await res.json()).access_token}` };
}

describe("a restart keeps media and the homepage layout", () => {
  it("uploads an image and saves a layout, stops with SIGTERM, starts again and finds both", async () => {
    server = await startServer({ dataDir });
    let auth = await token(server.url);

    const png = await sharp({ create: { width: 640, height: 360, channels: 3, background: { r: 200, g: 30, b: 30 } } })
      .png()
      .toBuffer();
    const form = new FormData();
    form.append("files", new Blob([new Uint8Array(png)], { type: "image/png" }), "restart.png");
    const uploaded = await fetch(`${server.url}/api/media`, { method: "POST", headers: auth, body: form });
    expect(uploaded.status).toBe(201);
    const item = (await uploaded.json()).data[0] as { id: string; url: string };

    const published = (await (await fetch(`${server.url}/api/articles/?limit=3`)).json()).data as { id: string }[];
    const layout = {
      blocks: [
        { id: "hero", articles: [published[2].id] },
        { id: "main", articles: [published[1].id, published[0].id] },
      ],
    };
    const saved = await fetch(`${server.url}/api/homepage/config`, {
      method: "PUT",
      headers: { ...auth, "Content-Type": "application/json" },
      body: JSON.stringify(layout),
    });
    expect(saved.status).toBe(200);

    expect(await server.stop("SIGTERM")).toBe(0);
    server = await startServer({ dataDir });
    auth = await token(server.url);

    const media = await fetch(`${server.url}/api/media/${item.id}`, { headers: auth });
    expect(media.status).toBe(200);
    expect((await media.json()).url).toBe(item.url);
    const file = await fetch(`${server.url}${item.url}`);
    expect(file.status).toBe(200);
    expect(Buffer.from(await file.arrayBuffer()).equals(png)).toBe(true);

    const config = (await (await fetch(`${server.url}/api/homepage/config`, { headers: auth })).json()) as {
      blocks: { id: string; articles: ({ id: string } | string)[] }[];
    };
    const ids = (id: string) => config.blocks.find((b) => b.id === id)!.articles.map((a) => (typeof a === "string" ? a : a.id));
    expect(ids("hero")).toEqual([published[2].id]);
    expect(ids("main")).toEqual([published[1].id, published[0].id]);
    expect(ids("featured")).toEqual([]);
  }, 180_000);
});
