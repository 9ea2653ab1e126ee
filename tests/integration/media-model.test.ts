import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import {
  MAX_IMAGE_BYTES,
  cleanFileName,
  deleteMedia,
  listMedia,
  mediaStats,
  sniffImageType,
  storeDataUrlImage,
  storeImage,
  storedFilePath,
  uploadsDir,
} from "../../app/models/media.server";
import { createUser } from "../../app/models/user.server";
import { DomainError } from "../../app/utils/errors";
import { db } from "../../db/index";
import { migrated } from "../helpers";

/** A real image made by sharp (no binary fixtures). */
export function makeImage(format: "jpeg" | "png" | "gif" | "webp", width = 64, height = 48): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 60, b: 20 } } })
    .toFormat(format)
    .toBuffer();
}

const uploadsFiles = () => (existsSync(uploadsDir()) ? readdirSync(uploadsDir()).sort() : []);
const mediaCount = async () =>
  Number(
    (
      await db
        .selectFrom("media")
        .select((eb) => eb.fn.countAll().as("n"))
        .executeTakeFirstOrThrow()
    ).n,
  );

async function refusal(promise: Promise<unknown>): Promise<DomainError> {
  const error = await promise.then(
    () => null,
    (e) => e,
  );
  expect(error).toBeInstanceOf(DomainError);
  expect(error.status).toBe(422);
  return error;
}

let userId: string;
let otherId: string;

describe("media.server", () => {
  beforeAll(async () => {
    await migrated();
    userId = (await createUser({ username: "repo", email: "r@example.com", password: "correct-horse", role: "reporter" })).id;
    otherId = (await createUser({ username: "other", email: "o@example.com", password: "correct-horse", role: "reporter" })).id;
  });

  it("sniffs JPEG, PNG, GIF and WebP from the bytes and nothing else", async () => {
    for (const format of ["jpeg", "png", "gif", "webp"] as const) {
      const type = sniffImageType(await makeImage(format));
      expect(type?.mime).toBe(`image/${format}`);
    }
    expect(sniffImageType(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"></svg>'))).toBeNull();
    expect(sniffImageType(Buffer.from("just text, named .png"))).toBeNull();
    expect(sniffImageType(Buffer.from([0xff, 0xd8]))).toBeNull();
    expect(sniffImageType(Buffer.from("RIFF\0\0\0\0WAVEfmt "))).toBeNull();
    expect(sniffImageType(new Uint8Array())).toBeNull();
  });

  it("stores an image with its dimensions, a random name and the WebP variants (never enlarged)", async () => {
    const bytes = await makeImage("png", 1000, 500);
    const item = await storeImage({ bytes, fileName: "../../etc/Фото 1.png", userId });
    expect(item).toMatchObject({
      name: "Фото 1.png",
      type: "image",
      mime: "image/png",
      size: bytes.length,
      width: 1000,
      height: 500,
      dimensions: "1000x500",
      uploadedBy: userId,
    });
    expect(item.url).toMatch(/^\/media\/[a-f0-9]{32}\.png$/);
    expect(new Date(item.uploadedAt).toISOString()).toBe(item.uploadedAt);
    const stem = item.url.slice("/media/".length, -".png".length);
    const dir = uploadsDir();
    expect(existsSync(join(dir, `${stem}.png`))).toBe(true);
    expect((await sharp(join(dir, `${stem}-w400.webp`)).metadata()).width).toBe(400);
    expect((await sharp(join(dir, `${stem}-w800.webp`)).metadata()).width).toBe(800);
    const big = await sharp(join(dir, `${stem}-w1200.webp`)).metadata();
    expect([big.format, big.width]).toEqual(["webp", 1000]);
  });

  it("refuses SVG, text named .png, oversized, empty and broken files, leaving nothing behind", async () => {
    const before = uploadsFiles();
    const rows = await mediaCount();
    const svg = await refusal(
      storeImage({ bytes: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'), fileName: "logo.svg", userId }),
    );
    expect(svg.message).toMatch(/«logo\.svg»/);
    expect(svg.message).toMatch(/SVG/);
    const text = await refusal(storeImage({ bytes: Buffer.from("hello"), fileName: "notes.png", userId }));
    expect(text.message).toContain("«notes.png»");
    const huge = Buffer.concat([await makeImage("jpeg"), Buffer.alloc(MAX_IMAGE_BYTES)]);
    expect((await refusal(storeImage({ bytes: huge, fileName: "big.jpg", userId }))).message).toMatch(/«big\.jpg».*5 МБ/);
    await refusal(storeImage({ bytes: Buffer.alloc(0), fileName: "empty.gif", userId }));
    const png = await makeImage("png");
    await refusal(storeImage({ bytes: png.subarray(0, 40), fileName: "cut.png", userId }));
    expect(uploadsFiles()).toEqual(before);
    expect(await mediaCount()).toBe(rows);
  });

  it("refuses a decompression bomb by its pixel count", async () => {
    // 8000x8000 = 64 megapixels of one colour compresses to a few kilobytes.
    const bomb = await sharp({ create: { width: 8000, height: 8000, channels: 3, background: { r: 0, g: 0, b: 0 } } })
      .png({ compressionLevel: 9 })
      .toBuffer();
    expect(bomb.length).toBeLessThan(MAX_IMAGE_BYTES);
    const error = await refusal(storeImage({ bytes: bomb, fileName: "bomb.png", userId }));
    expect(error.message).toMatch(/мегапікселів/);
  });

  it("stores a data URL by its bytes, not its declared type", async () => {
    const gif = await makeImage("gif", 20, 10);
    const item = await storeDataUrlImage({ dataUrl: `data:image/png;base64,${gif.toString("base64")}`, userId: null });
    expect(item).toMatchObject({ mime: "image/gif", dimensions: "20x10", name: "image.gif", uploadedBy: null });
    await refusal(storeDataUrlImage({ dataUrl: `data:image/svg+xml;base64,${Buffer.from("<svg/>").toString("base64")}`, userId }));
    await refusal(storeDataUrlImage({ dataUrl: "javascript:alert(1)", userId }));
  });

  it("never resolves a path outside the uploads folder", () => {
    expect(storedFilePath("../news.db")).toBeNull();
    expect(storedFilePath("..%2Fnews.db")).toBeNull();
    expect(storedFilePath("/etc/passwd")).toBeNull();
    expect(storedFilePath(`${"a".repeat(32)}.svg`)).toBeNull();
    expect(storedFilePath(`${"a".repeat(32)}.png/../../x`)).toBeNull();
    expect(storedFilePath(`${"a".repeat(32)}-w400.webp`)).toBe(join(uploadsDir(), `${"a".repeat(32)}-w400.webp`));
    expect(cleanFileName("..\\..\\windows\\evil.png")).toBe("evil.png");
    expect(cleanFileName("a\u0000b\n.png")).toBe("ab.png");
    expect(cleanFileName("")).toBe("image");
  });

  it("lists with case-insensitive search (Cyrillic too), counts, and deletes files with their variants", async () => {
    const mine = await storeImage({ bytes: await makeImage("jpeg", 30, 30), fileName: "Космос-Зоря.JPG", userId });
    const theirs = await storeImage({ bytes: await makeImage("webp", 30, 30), fileName: "other.webp", userId: otherId });
    expect((await listMedia({ q: "космос-зоря" })).data.map((m) => m.id)).toEqual([mine.id]);
    expect((await listMedia({ q: "OTHER" })).data.map((m) => m.id)).toEqual([theirs.id]);
    expect((await listMedia({ q: "%" })).total).toBe(0);
    expect((await listMedia({ type: "video" })).total).toBe(0);
    const all = await listMedia();
    expect(all.total).toBe(await mediaCount());
    const stats = await mediaStats();
    expect(stats.total).toBe(all.total);
    expect(stats.lastWeek).toBe(all.total);
    expect(stats.bytes).toBe(all.data.reduce((sum, m) => sum + m.size, 0));

    const reporter = { id: userId, username: "repo", role: "reporter" as const, ip: null };
    const refused = await deleteMedia({ ids: [mine.id, theirs.id], user: reporter }).then(
      () => null,
      (e) => e,
    );
    expect(refused).toMatchObject({ status: 403 });
    expect(await mediaCount()).toBe(all.total);
    await expect(deleteMedia({ ids: ["missing"], user: reporter })).rejects.toMatchObject({ status: 404 });

    const stem = mine.url.slice("/media/".length).replace(/\.jpg$/, "");
    expect(uploadsFiles().filter((f) => f.startsWith(stem))).toHaveLength(4);
    expect(await deleteMedia({ ids: [mine.id], user: reporter })).toBe(1);
    expect(uploadsFiles().filter((f) => f.startsWith(stem))).toEqual([]);
    expect(await deleteMedia({ ids: [theirs.id], user: { id: userId, username: "repo", role: "editor", ip: null } })).toBe(1);
    expect(await mediaCount()).toBe(all.total - 2);
  });
});
