import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openMediaZip, ZIP_MESSAGES } from "../../app/import/media-zip.server";
import { mayBeOldPath } from "../../app/import/old-paths.server";
import { convertBatch } from "../../app/import/parse.server";
import { runImport, stopImportPool } from "../../app/import/run-import.server";
import { commentText, GHOST_COMMENTS_NOTE } from "../../app/import/write-comments.server";
import { getSettings, saveSettings } from "../../app/models/settings.server";
import { createUser } from "../../app/models/user.server";
import { searchRows } from "../../app/utils/search-text.server";
import { db } from "../../db/index";
import { seedDatabase } from "../../db/seed";
import { migrated, request } from "../helpers";
import { startServer } from "../server-process";
import { makeZip } from "../zip";

// Issue 27's gaps: the zip of old uploads (streamed, checked whole: bombs, `../`, absolute names,
// symbolic links), comments into `comments` (statuses, one level of replies, plain text, idempotent),
// our export's settings applied (never the security-sensitive ones), old tag paths to /tag/{slug},
// search rows made beside the conversion, and the old-path middleware's synchronous shape check.
// Real WXR text, real zips written byte by byte (tests/zip.ts), the real import and the real build.

const run = promisify(execFile);
const OLD = "http://127.0.0.1:9"; // nothing listens there: an image not in the zip cannot be fetched
let png: Buffer;
let admin = { id: "", username: "", role: "admin" as const, ip: null };

interface Comment {
  id: string;
  parent: string;
  author: string;
  email?: string;
  date: string;
  content: string;
  approved: string;
  type?: string;
}
interface Post {
  id: string;
  slug: string;
  title: string;
  body: string;
  tags?: [string, string][];
  comments?: Comment[];
}

/** A WXR 1.2 file of the given posts (tags as [slug, name]). */
function wxr(posts: Post[], tags: [string, string][] = []): string {
  const comment = (c: Comment) => `<wp:comment>
    <wp:comment_id>${c.id}</wp:comment_id><wp:comment_author><![CDATA[${c.author}]]></wp:comment_author>
    <wp:comment_author_email><![CDATA[${c.email ?? ""}]]></wp:comment_author_email><wp:comment_author_url>https://spam.example</wp:comment_author_url>
    <wp:comment_date_gmt><![CDATA[${c.date}]]></wp:comment_date_gmt><wp:comment_content><![CDATA[${c.content}]]></wp:comment_content>
    <wp:comment_approved><![CDATA[${c.approved}]]></wp:comment_approved><wp:comment_type><![CDATA[${c.type ?? "comment"}]]></wp:comment_type>
    <wp:comment_parent>${c.parent}</wp:comment_parent></wp:comment>`;
  const item = (p: Post) => `<item><title><![CDATA[${p.title}]]></title><link>${OLD}/2020/01/${p.slug}/</link>
    <dc:creator><![CDATA[gaps-admin]]></dc:creator><guid isPermaLink="false">${OLD}/?p=${p.id}</guid>
    <content:encoded><![CDATA[${p.body}]]></content:encoded><wp:post_id>${p.id}</wp:post_id>
    <wp:post_date_gmt><![CDATA[2020-01-10 08:30:00]]></wp:post_date_gmt><wp:post_name><![CDATA[${p.slug}]]></wp:post_name>
    <wp:status><![CDATA[publish]]></wp:status><wp:post_type><![CDATA[post]]></wp:post_type>
    <category domain="category" nicename="science"><![CDATA[Наука]]></category>
    ${(p.tags ?? []).map(([slug, name]) => `<category domain="post_tag" nicename="${slug}"><![CDATA[${name}]]></category>`).join("")}
    ${(p.comments ?? []).map(comment).join("\n")}</item>`;
  return `<?xml version="1.0" encoding="UTF-8" ?>
<rss version="2.0" xmlns:excerpt="http://wordpress.org/export/1.2/excerpt/" xmlns:content="http://purl.org/rss/1.0/modules/content/"
  xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:wp="http://wordpress.org/export/1.2/"><channel>
<title>Gaps</title><link>${OLD}</link><wp:wxr_version>1.2</wp:wxr_version><wp:base_site_url>${OLD}</wp:base_site_url><wp:base_blog_url>${OLD}</wp:base_blog_url>
${tags.map(([slug, name]) => `<wp:tag><wp:tag_slug><![CDATA[${slug}]]></wp:tag_slug><wp:tag_name><![CDATA[${name}]]></wp:tag_name></wp:tag>`).join("")}
${posts.map(item).join("\n")}
</channel></rss>`;
}

const zipFile = (entries: Parameters<typeof makeZip>[0]) => {
  const path = join(mkdtempSync(join(tmpdir(), "zip-")), "uploads.zip");
  writeFileSync(path, makeZip(entries));
  return path;
};
const refusalOf = (path: string, limits?: Parameters<typeof openMediaZip>[1]) =>
  openMediaZip(path, limits).then(
    (zip) => {
      zip.close();
      return null;
    },
    (error: Error & { status?: number; field?: string }) => ({ message: error.message, status: error.status, field: error.field }),
  );

beforeAll(async () => {
  await migrated();
  await seedDatabase({ demo: false });
  const user = await createUser({ username: "gaps-admin", email: "gaps@news.example", password: "Адмін-Пароль-2026", role: "admin" });
  admin = { id: user.id, username: user.username, role: "admin", ip: null };
  png = await sharp({ create: { width: 24, height: 16, channels: 3, background: "#228844" } })
    .png()
    .toBuffer();
}, 60_000);

afterAll(async () => {
  await stopImportPool();
});

describe("a zip of the old uploads", () => {
  it("gives the images it holds, matched by their path after /uploads/ or /images/, whatever folder the zip starts at", async () => {
    const path = zipFile([
      { name: "wp-content/", data: "", mode: 0o40755 },
      { name: "wp-content/uploads/2019/05/galaxy.png", data: png, store: true },
      { name: "content/images/2021/03/chip.png", data: png },
      { name: "2018/01/bare.png", data: png },
    ]);
    const zip = await openMediaZip(path);
    try {
      expect(zip.size).toBe(3);
      expect(await zip.read(`${OLD}/wp-content/uploads/2019/05/galaxy.png`)).toEqual(png);
      expect(await zip.read("https://ghost.example/content/images/2021/03/chip.png")).toEqual(png);
      expect(await zip.read(`${OLD}/wp-content/uploads/2018/01/bare.png`)).toEqual(png);
      expect(await zip.read(`${OLD}/wp-content/uploads/2019/05/missing.png`)).toBeNull();
      // Only /uploads/ and /images/ addresses are looked for in the zip.
      expect(await zip.read(`${OLD}/2018/01/bare.png`)).toBeNull();
    } finally {
      zip.close();
    }
  });

  it("is refused whole when it climbs out, is absolute, holds a link, is a bomb, is too big or not a zip", async () => {
    expect(await refusalOf(zipFile([{ name: "uploads/../../etc/passwd", data: "x" }]))).toEqual({
      message: ZIP_MESSAGES.path("uploads/../../etc/passwd"),
      status: 422,
      field: "media",
    });
    expect((await refusalOf(zipFile([{ name: "/etc/cron.d/x.png", data: "x" }])))?.message).toBe(ZIP_MESSAGES.path("/etc/cron.d/x.png"));
    expect((await refusalOf(zipFile([{ name: "C:/x.png", data: "x" }])))?.message).toBe(ZIP_MESSAGES.path("C:/x.png"));
    expect((await refusalOf(zipFile([{ name: "uploads/a\\..\\..\\x.png", data: "x" }])))?.message).toMatch(/виходить за межі архіву/);
    expect((await refusalOf(zipFile([{ name: "uploads/2019/link.png", data: "/etc/passwd", mode: 0o120777 }])))?.message).toBe(
      ZIP_MESSAGES.symlink("uploads/2019/link.png"),
    );
    // 8 MB of zeros deflate to a few kilobytes: far past the ratio of any image.
    expect((await refusalOf(zipFile([{ name: "uploads/bomb.png", data: Buffer.alloc(8 * 1024 * 1024) }])))?.message).toBe(
      ZIP_MESSAGES.ratio("uploads/bomb.png"),
    );
    const many = zipFile(Array.from({ length: 12 }, (_, i) => ({ name: `uploads/${i}.png`, data: png })));
    expect((await refusalOf(many, { entries: 10, totalBytes: 1e9 }))?.message).toBe(ZIP_MESSAGES.entries);
    expect((await refusalOf(many, { entries: 100, totalBytes: png.length * 5 }))?.message).toBe(ZIP_MESSAGES.total);
    expect(await refusalOf(many)).toBeNull();
    const junk = join(mkdtempSync(join(tmpdir(), "zip-")), "x.zip");
    writeFileSync(junk, "це не архів");
    expect((await refusalOf(junk))?.message).toBe(ZIP_MESSAGES.notZip);
  });

  it("the command line takes a zip for --media and refuses a hostile one with its reason", async () => {
    const xml = join(mkdtempSync(join(tmpdir(), "cli-")), "site.xml");
    writeFileSync(xml, wxr([{ id: "940", slug: "cli-zip", title: "Командний рядок", body: "<p>Текст.</p>" }]));
    const result = await run("npx", [
      "tsx",
      "scripts/import.ts",
      "wordpress",
      xml,
      "--media",
      zipFile([{ name: "uploads/link.png", data: "/etc/passwd", mode: 0o120777 }]),
    ]).catch((e: { stderr: string; code: number }) => e);
    expect((result as { code: number }).code).toBe(1);
    expect((result as { stderr: string }).stderr).toContain(ZIP_MESSAGES.symlink("uploads/link.png"));
    expect(await db.selectFrom("articles").select("id").where("slug", "=", "cli-zip").executeTakeFirst()).toBeUndefined();
  }, 60_000);

  it("an entry over 5 MB is a failed image, not a crash", async () => {
    const big = Buffer.alloc(6 * 1024 * 1024, 7);
    const zip = await openMediaZip(zipFile([{ name: "uploads/big.png", data: big, store: true }]));
    try {
      await expect(zip.read(`${OLD}/wp-content/uploads/big.png`)).rejects.toThrow("файл більший за 5 МБ");
    } finally {
      zip.close();
    }
  });

  it("feeds the import: images found in the zip are stored, the others are listed as failed", async () => {
    const zip = await openMediaZip(zipFile([{ name: "uploads/2020/01/from-zip.png", data: png }]));
    try {
      const text = wxr([
        {
          id: "900",
          slug: "zip-post",
          title: "Знімок із архіву",
          body: `<p>Текст.</p><img src="${OLD}/wp-content/uploads/2020/01/from-zip.png" alt="З архіву"><img src="${OLD}/wp-content/uploads/2020/01/absent.png" alt="Немає">`,
        },
      ]);
      const summary = await runImport({ format: "wordpress", text, actor: admin, mediaZip: zip });
      expect(summary.images.stored).toBe(1);
      expect(summary.images.failed.map((f) => f.url)).toEqual([`${OLD}/wp-content/uploads/2020/01/absent.png`]);
      const article = await db.selectFrom("articles").select("content").where("slug", "=", "zip-post").executeTakeFirstOrThrow();
      expect(article.content).toMatch(/!\[З архіву\]\(\/media\/[0-9a-f]{32}\.png\)/);
    } finally {
      zip.close();
    }
  }, 60_000);
});

describe("comments", () => {
  const post: Post = {
    id: "910",
    slug: "comments-post",
    title: "Стаття з коментарями",
    body: "<p>Про комети.</p>",
    comments: [
      {
        id: "1",
        parent: "0",
        author: "Оксана",
        email: "oksana@example.org",
        date: "2020-01-11 10:00:00",
        content: "<p>Чудово!</p><p>Друга <b>думка</b></p>",
        approved: "1",
      },
      { id: "2", parent: "1", author: "Петро", date: "2020-01-11 11:00:00", content: "Відповідь &amp; згода", approved: "1" },
      { id: "3", parent: "2", author: "Ірина", date: "2020-01-11 12:00:00", content: "Відповідь на відповідь", approved: "0" },
      { id: "4", parent: "0", author: "Бот", date: "2020-01-11 13:00:00", content: "<a href='http://spam'>дешево</a>", approved: "spam" },
      { id: "5", parent: "0", author: "Хтось", date: "2020-01-11 14:00:00", content: "у кошику", approved: "trash" },
      {
        id: "6",
        parent: "0",
        author: "<script>alert(1)</script>",
        date: "2020-01-11 15:00:00",
        content: "&lt;script&gt;alert(1)&lt;/script&gt;Привіт<img src=x onerror=alert(1)>",
        approved: "1",
      },
      { id: "7", parent: "0", author: "Пінг", date: "2020-01-11 16:00:00", content: "pingback", approved: "1", type: "pingback" },
      { id: "8", parent: "0", author: "Порожній", date: "2020-01-11 17:00:00", content: "<p> </p>", approved: "1" },
    ],
  };

  it("are written with their statuses, one level of replies and plain text; the bin and pingbacks stay behind", async () => {
    const summary = await runImport({ format: "wordpress", text: wxr([post]), actor: admin });
    expect(summary.comments).toEqual({ found: 6, created: 5, existing: 0, skipped: 1, note: null });
    expect(summary.skipped).toMatchObject({ comment_trash: 1 });
    const article = await db.selectFrom("articles").select("id").where("slug", "=", "comments-post").executeTakeFirstOrThrow();
    const rows = await db
      .selectFrom("comments")
      .select(["id", "parent_id", "author_name", "author_email", "body", "status", "created_at", "ip"])
      .where("article_id", "=", article.id)
      .orderBy("created_at")
      .execute();
    expect(rows.map((r) => [r.author_name, r.status, r.body])).toEqual([
      ["Оксана", "approved", "Чудово!\n\nДруга думка"],
      ["Петро", "approved", "Відповідь & згода"],
      ["Ірина", "pending", "Відповідь на відповідь"],
      ["Бот", "spam", "дешево"],
      ["alert(1)", "approved", "alert(1)Привіт"],
    ]);
    const [oksana, petro, iryna] = rows;
    expect(oksana).toMatchObject({ parent_id: null, author_email: "oksana@example.org", ip: null });
    expect(String(oksana.created_at)).toMatch(/^2020-01-11T10:00:00/);
    expect(petro.parent_id).toBe(oksana.id);
    // A reply to a reply hangs under the top-level comment (one level of replies here).
    expect(iryna.parent_id).toBe(oksana.id);
    for (const r of rows) expect(`${r.author_name} ${r.body}`).not.toMatch(/[<>]/);

    // The article page shows the approved ones, as plain text (comments are on in this site).
    await saveSettings("content", { ...(await getSettings("content")), allow_comments: true });
    const page = await request("/article/comments-post");
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("Відповідь &amp; згода");
    expect(html).not.toContain("Відповідь на відповідь");
    expect(html).not.toContain("<script>alert(1)");
  }, 60_000);

  it("importing the same file again adds none", async () => {
    const before = await db
      .selectFrom("comments")
      .select((eb) => eb.fn.countAll().as("n"))
      .executeTakeFirstOrThrow();
    const summary = await runImport({ format: "wordpress", text: wxr([post]), actor: admin });
    expect(summary.comments).toMatchObject({ created: 0, existing: 5 });
    const after = await db
      .selectFrom("comments")
      .select((eb) => eb.fn.countAll().as("n"))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  }, 60_000);

  it("a dry run counts them and writes none", async () => {
    const other = {
      ...post,
      id: "911",
      slug: "dry-comments",
      comments: post.comments!.map((c) => ({ ...c, id: `d${c.id}`, parent: c.parent === "0" ? "0" : `d${c.parent}` })),
    };
    const summary = await runImport({ format: "wordpress", text: wxr([other]), actor: admin, dryRun: true });
    expect(summary.comments).toMatchObject({ created: 5, skipped: 1 });
    expect(await db.selectFrom("comments").select("id").where("author_name", "=", "Оксана").execute()).toHaveLength(1);
    expect(await db.selectFrom("articles").select("id").where("slug", "=", "dry-comments").executeTakeFirst()).toBeUndefined();
  });

  it("a Ghost export says it has none", async () => {
    const ghost = readFileSync("tests/fixtures/import/ghost-v4.json", "utf8");
    const summary = await runImport({ format: "ghost", text: ghost, actor: admin, dryRun: true });
    expect(summary.comments).toMatchObject({ found: 0, created: 0, note: GHOST_COMMENTS_NOTE });
  });

  it("plain text: tags dropped before and after entities are decoded", () => {
    expect(commentText("a &lt;b&gt;bold&lt;/b&gt; &#x41;&#66; < 3 &nbsp;x")).toBe("a bold AB < 3 x");
    expect(commentText("рядок<br>другий<br/>третій")).toBe("рядок\nдругий\nтретій");
  });
});

describe("old tag paths", () => {
  // WordPress percent-encodes a Cyrillic slug; ours is transliterated.
  const VAKTSYNY = encodeURIComponent("вакцини").toLowerCase();
  it("answer with the tag page once an article carries the tag; a tag no article carries goes to a search", async () => {
    const text = wxr(
      [
        {
          id: "920",
          slug: "tag-post",
          title: "Про вакцини",
          body: "<p>Вакцинами лікують.</p>",
          tags: [
            [VAKTSYNY, "Вакцини"],
            ["Space-News", "Космічні новини"],
          ],
        },
      ],
      [
        [VAKTSYNY, "Вакцини"],
        ["Space-News", "Космічні новини"],
        ["lonely", "Самотній"],
      ],
    );
    await runImport({ format: "wordpress", text, actor: admin });
    const tags = await db.selectFrom("tags").select(["name", "slug"]).where("name", "in", ["Вакцини", "Космічні новини"]).orderBy("name").execute();
    const slugOf = (name: string) => tags.find((t) => t.name === name)!.slug!;
    const redirects = Object.fromEntries(
      (await db.selectFrom("redirects").select(["old_path", "new_path"]).where("old_path", "like", "/tag/%").execute()).map((r) => [r.old_path, r.new_path]),
    );
    expect(redirects).toMatchObject({
      "/tag/вакцини": `/tag/${encodeURIComponent(slugOf("Вакцини"))}`,
      "/tag/Space-News": `/tag/${encodeURIComponent(slugOf("Космічні новини"))}`,
      "/tag/lonely": `/search?q=${encodeURIComponent("Самотній")}`,
    });
    expect(slugOf("Вакцини")).toBe("vaktsyny");
    const page = await request(redirects["/tag/вакцини"]);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Про вакцини");
  }, 60_000);

  it("an old path an earlier import sent to a search moves to the tag page", async () => {
    await db.updateTable("redirects").set({ new_path: "/search?q=x" }).where("old_path", "=", "/tag/вакцини").execute();
    const text = wxr(
      [{ id: "920", slug: "tag-post", title: "Про вакцини", body: "<p>Вакцинами лікують.</p>", tags: [[VAKTSYNY, "Вакцини"]] }],
      [[VAKTSYNY, "Вакцини"]],
    );
    await runImport({ format: "wordpress", text, actor: admin });
    const row = await db.selectFrom("redirects").select("new_path").where("old_path", "=", "/tag/вакцини").executeTakeFirstOrThrow();
    expect(row.new_path).toBe("/tag/vaktsyny");
  }, 60_000);
});

describe("search rows", () => {
  it("are made in the conversion (the worker's job), the same rows the editor's save makes", () => {
    const [answer] = convertBatch(
      [
        {
          html: "<p>Вакцинами лікують <b>грип</b>.</p>",
          markdown: null,
          wordpress: true,
          images: {},
          search: { title: "Про вакцини", subtitle: "Нове", tags: ["Медицина"] },
        },
      ],
      (html) => html,
    );
    if ("error" in answer) throw new Error(answer.error);
    expect(answer.search).toEqual(searchRows({ title: "Про вакцини", subtitle: "Нове", content: answer.markdown, tags: ["Медицина"] }));
    expect(answer.search.stems.content).toContain("вакцин");
  });

  it("an imported article is found by another form of its words", async () => {
    const res = await request(`/search?q=${encodeURIComponent("вакцина")}`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("Про вакцини");
  });
});

describe("our export's settings", () => {
  const exportWith = (settings: Record<string, unknown>) =>
    JSON.stringify({
      format: "science-news-export",
      version: 1,
      exported_at: new Date().toISOString(),
      site: { url: "https://other.example", name: "Інший сайт" },
      users: [],
      categories: [],
      tags: [],
      articles: [],
      media: [],
      settings,
    });
  const incoming = {
    seo: {
      site_title: "Наука з іншого сайту",
      site_description: "Опис іншого сайту",
      twitter_handle: "@other",
      robots: "noindex, nofollow",
      canonical_url: "https://other.example",
    },
    content: { posts_per_page: 20, allow_comments: false, comment_max_links: 99 },
    general: { site_url: "https://other.example", admin_email: "boss@other.example", maintenance_mode: true },
    security: { session_timeout: 480, max_login_attempts: 10, two_factor_required: "nobody" },
    integrations: { analytics_enabled: false, gsc_property_url: "https://other.example" },
    newsletter: { digest_day: 5 },
  };
  // A `__proto__` group, as JSON.parse makes it (an own key), never reaches an object merge.
  const hostile = () => exportWith(incoming).replace('"settings":{', '"settings":{"__proto__":{"polluted":true},');

  it("a dry run says what would be applied and changes nothing", async () => {
    const before = await getSettings("seo");
    const summary = await runImport({ format: "ours", text: hostile(), actor: admin, dryRun: true });
    expect(summary.settings.applied).toContain("seo.site_title");
    expect((await getSettings("seo")).site_title).toBe(before.site_title);
  });

  it("applies what describes the publication, never what guards the site or where it lives, with an audit entry", async () => {
    const security = await getSettings("security");
    const general = await getSettings("general");
    const seoBefore = await getSettings("seo");
    const summary = await runImport({ format: "ours", text: hostile(), actor: admin });
    expect(summary.settings.applied.sort()).toEqual(
      [
        "seo.site_title",
        "seo.site_description",
        "seo.twitter_handle",
        "content.posts_per_page",
        "content.allow_comments",
        "integrations.analytics_enabled",
      ].sort(),
    );
    expect(summary.settings.ignored.sort()).toEqual(
      [
        "seo.robots",
        "seo.canonical_url",
        "content.comment_max_links",
        "general.site_url",
        "general.admin_email",
        "general.maintenance_mode",
        "security.session_timeout",
        "security.max_login_attempts",
        "security.two_factor_required",
        "integrations.gsc_property_url",
        "newsletter.digest_day",
        "__proto__.polluted",
      ].sort(),
    );
    expect(await getSettings("seo")).toMatchObject({
      site_title: "Наука з іншого сайту",
      site_description: "Опис іншого сайту",
      twitter_handle: "@other",
      robots: seoBefore.robots,
      canonical_url: seoBefore.canonical_url,
    });
    expect(await getSettings("content")).toMatchObject({ posts_per_page: 20, allow_comments: false, comment_max_links: 2 });
    expect(await getSettings("security")).toEqual(security);
    expect(await getSettings("general")).toEqual(general);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const audit = await db.selectFrom("audit_log").select(["action", "details", "username"]).where("action", "=", "site.import_settings").execute();
    expect(audit).toHaveLength(1);
    expect(audit[0].username).toBe("gaps-admin");
    expect(JSON.parse(String(audit[0].details)).keys).toContain("seo.site_title");
    // The public pages carry the new name at once.
    await expect.poll(async () => (await (await request("/")).text()).includes("Наука з іншого сайту"), { timeout: 5000 }).toBe(true);
    // Applied again: nothing changes, no second entry.
    const again = await runImport({ format: "ours", text: hostile(), actor: admin });
    expect(again.settings.applied).toEqual([]);
    expect(await db.selectFrom("audit_log").select("id").where("action", "=", "site.import_settings").execute()).toHaveLength(1);
  }, 60_000);
});

describe("the old-path middleware's shape check", () => {
  it.each([
    ["/2019/05/slug/", "/2019/05/slug/", true],
    ["/", "/?p=123", true],
    ["/", "/?page_id=4", true],
    ["/", "/", false],
    ["/", "/?utm_source=x", false],
    ["/article/x", "/article/x", false],
    ["/category/x", "/category/x?page=2", false],
    ["/admin/import/", "/admin/import/", false],
    ["/api/articles/", "/api/articles/", false],
    ["/media/a.png/", "/media/a.png/", false],
  ] as const)("%s (%s) → %s", (path, url, expected) => {
    expect(mayBeOldPath(path, url)).toBe(expected);
  });
});

describe("/admin/import through the real server", () => {
  it("takes the zip beside the file, refuses a hostile or oversized one before anything starts", async () => {
    const server = await startServer({ dataDir: process.env.DATA_DIR!, env: { SEED_DEMO: "0", IMPORT_MEDIA_MAX_MB: "1" } });
    try {
      const login = await fetch(`${server.url}/api/auth/login`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ username: "gaps-admin", password: "Адмін-Пароль-2026" }),
      });
      const token = ((await login.json()) as { access_token: string }).access_token;
      const text = wxr([
        { id: "930", slug: "server-zip", title: "Через сервер", body: `<img src="${OLD}/wp-content/uploads/2021/01/server.png" alt="Сервер">` },
      ]);
      const post = (zip: Buffer | null) => {
        const form = new FormData();
        form.set("format", "wordpress");
        form.set("file", new Blob([text], { type: "text/xml" }), "site.xml");
        if (zip) form.set("media", new Blob([new Uint8Array(zip)], { type: "application/zip" }), "uploads.zip");
        return fetch(`${server.url}/admin/import`, {
          method: "POST",
          body: form,
          headers: { Authorization: `Bearer ${token}`, Origin: server.url },
          redirect: "manual",
        });
      };
      const jobs = async () =>
        Number(
          (
            await db
              .selectFrom("import_jobs")
              .select((eb) => eb.fn.countAll().as("n"))
              .executeTakeFirstOrThrow()
          ).n,
        );
      const before = await jobs();

      const hostile = await post(makeZip([{ name: "../../x.png", data: png }]));
      expect(hostile.status).toBe(422);
      expect(await hostile.text()).toContain("виходить за межі архіву");
      const big = await post(
        makeZip([{ name: "uploads/noise.png", data: Buffer.from(Array.from({ length: 1_500_000 }, (_, i) => (i * 7919) % 251)), store: true }]),
      );
      expect(big.status).toBe(413);
      expect(await big.text()).toContain("Архів зображень завеликий");
      expect(await jobs()).toBe(before);

      const good = await post(makeZip([{ name: "wp-content/uploads/2021/01/server.png", data: png }]));
      expect(good.status).toBe(303);
      const id = Number(/job=(\d+)/.exec(good.headers.get("location") ?? "")?.[1]);
      await expect
        .poll(async () => (await db.selectFrom("import_jobs").select("status").where("id", "=", id).executeTakeFirst())?.status, { timeout: 30_000 })
        .toBe("done");
      const job = await db.selectFrom("import_jobs").select("summary").where("id", "=", id).executeTakeFirstOrThrow();
      expect(JSON.parse(job.summary!).images).toMatchObject({ stored: 1, failed: [] });
      const article = await db.selectFrom("articles").select("content").where("slug", "=", "server-zip").executeTakeFirstOrThrow();
      expect(article.content).toMatch(/!\[Сервер\]\(\/media\/[0-9a-f]{32}\.png\)/);
    } finally {
      await server.stop();
    }
  }, 90_000);
});
