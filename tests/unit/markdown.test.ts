import { describe, expect, it } from "vitest";
import { markdownToHtml, normalizeContent } from "../../app/utils/markdown";
import { renderArticleHtml, sanitizeHtml } from "../../app/utils/markdown.server";

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
    const html = markdownToHtml('[x](javascript:alert(1)) ![y](data:text/html,hi) <script>alert(1)</script>');
    expect(html).not.toContain("javascript:");
    expect(html).not.toContain("data:text/html");
    expect(html).not.toContain("<script>");
    expect(html).toContain("&lt;script&gt;");
  });
});

describe("renderArticleHtml (server sanitiser in a worker)", () => {
  const vectors = [
    '<img src=x onerror="alert(1)">',
    '<svg><script>alert(1)</script></svg>',
    '<iframe src="https://evil.example"></iframe>',
    '<a href="javascript:alert(1)">x</a>',
    '<a href="JaVaScRiPt:alert(1)">x</a>',
    '<a href="&#106;avascript:alert(1)">x</a>',
    '[x](javascript&#58;alert(1))',
    '[x](  javascript:alert(1))',
    '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
    '<form action="https://evil.example"><input name=a></form>',
    '<div style="background:url(javascript:alert(1))">x</div>',
    '<body onload=alert(1)>',
  ];

  it.each(vectors)("neutralises %s", async (vector) => {
    const html = await renderArticleHtml(vector);
    // Escaped text (&lt;script&gt;) is harmless; real tags and attributes are what count.
    expect(html).not.toMatch(/<(script|iframe|svg|form|math|style|body|input)\b/i);
    expect(html).not.toMatch(/<[^>]*\son\w+\s*=/i);
    expect(html).not.toMatch(/<[^>]*\sstyle\s*=/i);
    expect(html).not.toMatch(/<[^>]*(href|src)\s*=\s*"?\s*javascript:/i);
  });

  it("keeps safe markup and is idempotent", async () => {
    const once = await renderArticleHtml("## Заголовок\n\n[ЦЕРН](https://home.cern) ![опис](/images/a.jpg)");
    expect(once).toContain("<h2>Заголовок</h2>");
    expect(once).toContain('target="_blank"');
    expect(once).toContain('loading="lazy"');
    expect(await sanitizeHtml(once)).toBe(once);
  });

  it("survives worker recycling across many documents", async () => {
    const results = await Promise.all(Array.from({ length: 450 }, (_, i) => renderArticleHtml(`Абзац **${i}**`)));
    expect(results[449]).toBe("<p>Абзац <strong>449</strong></p>");
    expect(new Set(results).size).toBe(450);
  });
});
