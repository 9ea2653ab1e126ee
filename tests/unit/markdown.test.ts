import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { markdownToHtml, normalizeContent } from "../../app/utils/markdown";
import { renderArticleHtml, sanitizeHtml } from "../../app/utils/markdown.server";

// jsdom (installed with isomorphic-dompurify, untyped here) parses the output as a browser would.
const { JSDOM } = createRequire(import.meta.url)("jsdom");

describe("markdownToHtml (SPEC §5)", () => {
  it("renders headings, emphasis, lists, quotes, paragraphs and line breaks", () => {
    const html = markdownToHtml("# Один\n## Два\n### Три\n\n**жирний** і *курсив*\nрядок\n\n- а\n- б\n\n> цитата");
    expect(html).toContain("<h1>Один</h1>");
    expect(html).toContain("<h2>Два</h2>");
    expect(html).toContain("<h3>Три</h3>");
    expect(html).toContain("<strong>жирний</strong>");
    expect(html).toContain("<em>курсив</em>");
    expect(html).toContain("<br>");
    expect(html).toMatch(/<ul>\s*<li>а<\/li>\s*<li>б<\/li>\s*<\/ul>/);
    expect(html).toMatch(/<blockquote>\s*<p>цитата<\/p>\s*<\/blockquote>/);
  });

  it("opens external links in a new tab without an opener", () => {
    const html = markdownToHtml("[ЦЕРН](https://home.cern) і [внутрішня](/category/research)");
    expect(html).toContain('<a href="https://home.cern" target="_blank" rel="noopener noreferrer">ЦЕРН</a>');
    expect(html).toContain('<a href="/category/research">внутрішня</a>');
  });

  it("makes images lazy with the default alt text", () => {
    expect(markdownToHtml("![](/images/x.jpg)")).toContain('<img src="/images/x.jpg" alt="Image in article" loading="lazy"');
  });

  it("joins content given as a list of paragraphs", () => {
    expect(normalizeContent(["Перший", "Другий"])).toBe("Перший\n\nДругий");
    expect(markdownToHtml(["Перший", "Другий"])).toBe("<p>Перший</p>\n<p>Другий</p>");
  });

  it("drops unsafe link and image schemes and escapes raw HTML", () => {
    const html = markdownToHtml("[x](javascript:alert(1)) ![y](data:text/html,hi) <script>alert(1)</script>");
    expect(html).not.toContain("javascript:");
    expect(html).not.toContain("data:text/html");
    expect(html).not.toContain("<script>");
    expect(html).toContain("&lt;script&gt;");
  });
});

describe("renderArticleHtml (server sanitiser in a worker)", () => {
  const vectors = [
    '<img src=x onerror="alert(1)">',
    "<svg><script>alert(1)</script></svg>",
    '<iframe src="https://evil.example"></iframe>',
    '<a href="javascript:alert(1)">x</a>',
    '<a href="JaVaScRiPt:alert(1)">x</a>',
    '<a href="&#106;avascript:alert(1)">x</a>',
    "[x](javascript&#58;alert(1))",
    "[x](  javascript:alert(1))",
    "<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>",
    '<form action="https://evil.example"><input name=a></form>',
    '<div style="background:url(javascript:alert(1))">x</div>',
    "<body onload=alert(1)>",
    "[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
    '<a href="data:text/html,<script>alert(1)</script>">x</a>',
    "![x](javascript:alert(1))",
    "![x](&#x6A;avascript:alert(1))",
    '<a href="&#x6A;avascript:alert(1)">x</a>',
    '<a href="jav&#x09;ascript:alert(1)">x</a>',
    "[x](jav&#x09;ascript:alert(1))",
    "[x](&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1))",
    '<a href="vbscript:msgbox(1)">x</a>',
    "[x](vbscript:msgbox(1))",
    "<svg/onload=alert(1)>",
    "<details open ontoggle=alert(1)>",
    '<object data="javascript:alert(1)"></object>',
    '<embed src="javascript:alert(1)">',
    '<img src="x" onerror=alert(1)//',
    "<scr<script>ipt>alert(1)</script>",
    '<noscript><p title="</noscript><img src=x onerror=alert(1)>">',
    '<base href="javascript:/">',
    '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
    '[x](https://ok.example ""onmouseover=alert(1) x="")',
    '![a" onerror="alert(1)](/images/a.jpg)',
    '<a href="javas\u0000cript:alert(1)">x</a>',
  ];

  it.each(vectors)("neutralises %s", async (vector) => {
    const html = await renderArticleHtml(vector);
    // Escaped text (&lt;script&gt;) is harmless; real tags and attributes are what count.
    expect(html).not.toMatch(/<(script|iframe|svg|form|math|style|body|input|object|embed|base|meta|link|noscript|details)\b/i);
    // Parsed as a browser would: no event handler, style or script/data URL on any element.
    const { document } = new JSDOM(`<body>${html}</body>`).window;
    for (const el of Array.from(document.body.querySelectorAll("*")) as Element[]) {
      for (const attr of Array.from(el.attributes)) {
        expect(attr.name, `${el.tagName} ${attr.name}`).not.toMatch(/^(on|style$|formaction$|srcdoc$)/i);
        if (["href", "src", "action", "xlink:href"].includes(attr.name)) {
          expect(attr.value.replace(/[\s\u0000-\u001f]/g, ""), attr.value).not.toMatch(/^(javascript|vbscript|data):/i);
        }
      }
    }
  });

  it("never links off-site through a path: //host, /\\host, a tab or newline between the slashes", async () => {
    const vectors = [
      "[b](/\\evil.example)",
      "[b](//evil.example)",
      "[b](/%09/evil.example)",
      "[b](</\t/evil.example>)",
      "[b](\\\\evil.example)",
      "![i](/\\evil.example/x.png)",
    ];
    for (const vector of vectors) {
      const html = await renderArticleHtml(vector);
      const { document } = new JSDOM(`<body>${html}</body>`, { url: "https://news.example/article/a" }).window;
      for (const el of Array.from(document.querySelectorAll("[href],[src]")) as HTMLAnchorElement[]) {
        const target = new URL(el.getAttribute("href") ?? el.getAttribute("src") ?? "", "https://news.example/article/a");
        expect(target.host, `${vector} → ${html}`).toBe("news.example");
      }
    }
    // A plain same-site link still works.
    expect(await renderArticleHtml("[b](/category/research)")).toContain('<a href="/category/research">b</a>');
  });

  it("keeps safe markup and is idempotent", async () => {
    const once = await renderArticleHtml("## Заголовок\n\n[ЦЕРН](https://home.cern) ![опис](/images/a.jpg)");
    expect(once).toContain("<h2>Заголовок</h2>");
    expect(once).toContain('target="_blank"');
    expect(once).toContain('loading="lazy"');
    expect(await sanitizeHtml(once)).toBe(once);
  });

  it("gives uploaded and demo images their resized WebP variants, kept by the sanitiser", async () => {
    const html = await renderArticleHtml("![фото](/media/abc_123.jpg)\n\n![демо](/images/demo/bio-1.jpg)\n\n![зовні](https://example.com/x.jpg)");
    expect(html).toContain(
      'src="/media/abc_123-w800.webp" srcset="/media/abc_123-w400.webp 400w, /media/abc_123-w800.webp 800w, /media/abc_123-w1200.webp 1200w" sizes="(max-width: 900px) 100vw, 760px"',
    );
    expect(html).toContain('src="/images/demo/bio-1-w800.webp" srcset="/images/demo/bio-1-w400.webp 400w');
    expect(html).toContain('<img src="https://example.com/x.jpg" alt="зовні" loading="lazy" decoding="async">');
  });

  it("survives worker recycling across many documents", async () => {
    const results = await Promise.all(Array.from({ length: 450 }, (_, i) => renderArticleHtml(`Абзац **${i}**`)));
    expect(results[449]).toBe("<p>Абзац <strong>449</strong></p>");
    expect(new Set(results).size).toBe(450);
  });
});

describe("sanitising in a recycled worker keeps memory flat (DESIGN §2)", () => {
  it("sanitises 2,000 documents without the resident set growing", async () => {
    const doc = (i: number) =>
      `## Розділ ${i}\n\n**Жирний** текст і [посилання](https://example.org/${i}).\n\n- пункт\n- ще\n\n> цитата <img src=x onerror=alert(${i})>`;
    const run = async (from: number, to: number) => {
      for (let i = from; i < to; i += 50) {
        await Promise.all(Array.from({ length: 50 }, (_, k) => renderArticleHtml(doc(i + k))));
      }
    };
    await run(0, 400); // warm up: the first workers, jsdom and marked loaded
    global.gc?.();
    const before = process.memoryUsage().rss;
    await run(400, 2_000);
    global.gc?.();
    const after = process.memoryUsage().rss;
    const growthMb = (after - before) / 1024 / 1024;
    // Without recycling, jsdom retains ~0.2 MB per call: 1,600 calls would add ~320 MB.
    expect(growthMb).toBeLessThan(80);
  }, 120_000);
});
