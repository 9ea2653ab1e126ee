import { existsSync, readdirSync } from "node:fs";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { uploadsDir } from "../../app/models/media.server";
import { createUser } from "../../app/models/user.server";
import { db } from "../../db/index";
import { migrated, request, tokenFor } from "../helpers";

// /api/media through the real production build (npm run build first).

const png = (w = 50, h = 40) =>
  sharp({ create: { width: w, height: h, channels: 3, background: { r: 9, g: 99, b: 199 } } })
    .png()
    .toBuffer();
const files = () => (existsSync(uploadsDir()) ? readdirSync(uploadsDir()).sort() : []);
const rows = async () =>
  Number(
    (
      await db
        .selectFrom("media")
        .select((eb) => eb.fn.countAll().as("n"))
        .executeTakeFirstOrThrow()
    ).n,
  );
const auth = (token?: string): Record<string, string> => (token ? { Authorization: `Bearer ${token}` } : {});

function upload(token: string | undefined, parts: { name: string; bytes: Buffer | string; type?: string }[]) {
  const form = new FormData();
  for (const part of parts)
    form.append(
      "files",
      new Blob([typeof part.bytes === "string" ? part.bytes : new Uint8Array(part.bytes)], { type: part.type ?? "application/octet-stream" }),
      part.name,
    );
  return request("/api/media", { method: "POST", headers: auth(token), body: form });
}

let admin: string;
let reporter: string;
let otherReporter: string;
let pngs: Buffer[];

describe("/api/media", () => {
  beforeAll(async () => {
    await migrated();
    await createUser({ username: "boss", email: "b@example.com", password: "correct-horse", role: "admin" });
    await createUser({ username: "rita", email: "r@example.com", password: "correct-horse", role: "reporter" });
    await createUser({ username: "roman", email: "ro@example.com", password: "correct-horse", role: "reporter" });
    admin = await tokenFor("boss");
    reporter = await tokenFor("rita");
    otherReporter = await tokenFor("roman");
    pngs = await Promise.all([10, 11, 12, 13, 14, 15].map((w) => png(w, 10)));
  });

  it("401 without a token on every method", async () => {
    expect((await request("/api/media")).status).toBe(401);
    expect((await upload(undefined, [{ name: "a.png", bytes: await png() }])).status).toBe(401);
    expect((await request("/api/media/x", { method: "DELETE" })).status).toBe(401);
    expect((await request("/api/media/x")).status).toBe(401);
    expect(await rows()).toBe(0);
    expect(files()).toEqual([]);
  });

  it("uploads several images (201) and reports each refused file by name", async () => {
    const res = await upload(reporter, [
      { name: "one.png", bytes: await png(), type: "image/png" },
      { name: "two.png", bytes: await png(1300, 700), type: "image/png" },
      { name: "lies.png", bytes: "not an image", type: "image/png" },
    ]);
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body.data.map((m: { name: string }) => m.name)).toEqual(["one.png", "two.png"]);
    expect(body.data[1]).toMatchObject({ type: "image", mime: "image/png", dimensions: "1300x700", width: 1300, height: 700 });
    expect(body.rejected).toEqual([{ name: "lies.png", reason: expect.stringContaining("«lies.png»") }]);
    expect(files().filter((f) => !f.startsWith("."))).toHaveLength(8);
  });

  it("a real user's file name uploads: '=', ';', quotes, backslashes, Cyrillic and spaces (SECURITY.md 'Uploads')", async () => {
    const names = ["a=b.png", "a;b.png", "x; filename=y.png", 'say "hi".png', "фото; звіт=1.png", "C:\\Users\\me\\pic.png"];
    const res = await upload(
      reporter,
      names.map((name) => ({ name, bytes: Buffer.alloc(0), type: "image/png" })).map((p, i) => ({ ...p, bytes: pngs[i] })),
    );
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body.rejected).toEqual([]);
    expect(body.data.map((d: { name: string }) => d.name)).toEqual([
      "a=b.png",
      "a;b.png",
      "x; filename=y.png",
      "say %22hi%22.png",
      "фото; звіт=1.png",
      "pic.png",
    ]);
    // Clean up so the other tests' counts stay as they were.
    for (const item of body.data) expect((await request(`/api/media/${item.id}`, { method: "DELETE", headers: auth(admin) })).status).toBe(204);
  });

  it("413 for a 6 MB file, 415 for text named .png and SVG, 422 with no file; nothing written", async () => {
    const before = files();
    const count = await rows();
    const big = await upload(admin, [{ name: "big.jpg", bytes: Buffer.concat([await png(), Buffer.alloc(6 * 1024 * 1024)]) }]);
    expect(big.status).toBe(413);
    expect((await big.json()).detail).toMatch(/«big\.jpg».*5 МБ/);
    const text = await upload(admin, [{ name: "notes.png", bytes: "hello" }]);
    expect(text.status).toBe(415);
    const svg = await upload(admin, [{ name: "logo.svg", bytes: '<svg xmlns="http://www.w3.org/2000/svg"/>', type: "image/svg+xml" }]);
    expect(svg.status).toBe(415);
    expect((await svg.json()).rejected[0]).toMatchObject({ name: "logo.svg" });
    const none = new FormData();
    none.append("title", "no file here");
    expect((await request("/api/media", { method: "POST", headers: auth(admin), body: none })).status).toBe(422);
    const json = await request("/api/media", { method: "POST", headers: { ...auth(admin), "Content-Type": "application/json" }, body: "{}" });
    expect(json.status).toBe(415);
    expect(files()).toEqual(before);
    expect(await rows()).toBe(count);
  });

  it("an upload cut off mid-file leaves no temp file and no row", async () => {
    const before = files();
    const count = await rows();
    const boundary = "----cut-off-boundary";
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="cut.png"\r\nContent-Type: image/png\r\n\r\n`;
    const png1 = await png(200, 200);
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(head));
        controller.enqueue(new Uint8Array(png1.subarray(0, 100)));
        controller.error(new Error("client went away"));
      },
    });
    const res = await request("/api/media", {
      method: "POST",
      headers: { ...auth(admin), "Content-Type": `multipart/form-data; boundary=${boundary}` },
      body,
      duplex: "half",
    });
    expect(res.status).toBe(400);
    expect(files()).toEqual(before);
    expect(await rows()).toBe(count);
  });

  it("lists with the DESIGN §7 envelope, searches by name, 422 for a bad filter", async () => {
    const res = await request("/api/media?q=ONE&limit=5", { headers: auth(otherReporter) });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ total: 1, skip: 0, limit: 5 });
    expect(body.data[0].name).toBe("one.png");
    expect((await request("/api/media?type=audio", { headers: auth(admin) })).status).toBe(422);
    expect((await request("/api/media?limit=abc", { headers: auth(admin) })).status).toBe(422);
  });

  it("DELETE: 404 unknown, 403 for another reporter's file, 204 for the owner with files gone", async () => {
    const list = await (await request("/api/media?q=two", { headers: auth(admin) })).json();
    const item = list.data[0];
    const stem = item.url.slice("/media/".length).replace(/\.png$/, "");
    expect((await request("/api/media/nope", { method: "DELETE", headers: auth(admin) })).status).toBe(404);
    expect((await request(`/api/media/${item.id}`, { method: "DELETE", headers: auth(otherReporter) })).status).toBe(403);
    expect(files().filter((f) => f.startsWith(stem))).toHaveLength(4);
    expect((await request(`/api/media/${item.id}`, { method: "PUT", headers: auth(reporter) })).status).toBe(405);
    expect((await request(`/api/media/${item.id}`, { method: "DELETE", headers: auth(reporter) })).status).toBe(204);
    expect(files().filter((f) => f.startsWith(stem))).toEqual([]);
    expect((await request(`/api/media/${item.id}`, { headers: auth(admin) })).status).toBe(404);
    // Admins delete anyone's.
    const one = (await (await request("/api/media?q=one", { headers: auth(admin) })).json()).data[0];
    expect((await request(`/api/media/${one.id}/`, { method: "DELETE", headers: auth(admin) })).status).toBe(204);
    expect(await rows()).toBe(0);
  });
});
