import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { afterAll, describe, expect, it } from "vitest";
import { startServer } from "../server-process";
import { apiSignIn } from "../staff-client";

// DESIGN §13: UPLOADS_DIR puts media files elsewhere than DATA_DIR/uploads (a mount shared by the
// boxes of one site). Uploads land there, are served from there, and the data folder holds none.
const dirs: string[] = [];
const temp = (prefix: string) => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe("UPLOADS_DIR", () => {
  it("stores and serves media from the folder it names", async () => {
    const dataDir = temp("news-uploads-data-");
    const shared = join(temp("news-uploads-shared-"), "media");
    const server = await startServer({ dataDir, env: { UPLOADS_DIR: shared } });
    try {
      const admin = await apiSignIn(server.url, "admin", "admin123");
      const png = await sharp({ create: { width: 60, height: 40, channels: 3, background: { r: 200, g: 10, b: 10 } } })
        .png()
        .toBuffer();
      const form = new FormData();
      form.append("files", new Blob([new Uint8Array(png)], { type: "image/png" }), "спільне.png");
      const res = await fetch(`${server.url}/api/media`, { method: "POST", headers: admin.auth, body: form });
      expect(res.status).toBe(201);
      const { data } = (await res.json()) as { data: { url: string }[] };
      const url = data[0].url;
      expect(url).toMatch(/^\/media\//);
      const stored = readdirSync(shared).filter((f) => !f.startsWith("."));
      expect(stored.length).toBeGreaterThan(0);
      expect(stored).toContain(url.split("/").pop());
      expect(existsSync(join(dataDir, "uploads")) ? readdirSync(join(dataDir, "uploads")) : []).toEqual([]);
      const served = await fetch(`${server.url}${url}`);
      expect(served.status).toBe(200);
      expect(served.headers.get("content-type")).toBe("image/png");
    } finally {
      await server.stop();
    }
  }, 60_000);
});
