// npx tsx scripts/generate-wxr.ts 10000 /tmp/bench.xml — a WordPress export of N posts for the
// import bench (issue 27): Gutenberg paragraphs, a heading, a list, two categories, tags, a
// percent-encoded Ukrainian slug on every tenth post, no images (the bench measures the import,
// not a network).
import { createWriteStream } from "node:fs";

const n = Number(process.argv[2] ?? 10_000);
const file = process.argv[3] ?? "bench.xml";
const out = createWriteStream(file);
const cdata = (s: string) => `<![CDATA[${s}]]>`;
const words = "науковці дослідили нову молекулу яка допомагає клітинам відновлюватися після стресу і може стати основою ліків".split(" ");
const text = (i: number, len: number) => Array.from({ length: len }, (_, k) => words[(i + k * 7) % words.length]).join(" ");

out.write(`<?xml version="1.0" encoding="UTF-8" ?>
<rss version="2.0" xmlns:excerpt="http://wordpress.org/export/1.2/excerpt/" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:wfw="http://wellformedweb.org/CommentAPI/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:wp="http://wordpress.org/export/1.2/">
<channel><title>Bench</title><link>https://bench.example.org</link><wp:wxr_version>1.2</wp:wxr_version>
<wp:base_site_url>https://bench.example.org</wp:base_site_url><wp:base_blog_url>https://bench.example.org</wp:base_blog_url>
<wp:author><wp:author_id>1</wp:author_id><wp:author_login>${cdata("bench")}</wp:author_login><wp:author_email>${cdata("bench@example.org")}</wp:author_email><wp:author_display_name>${cdata("Bench")}</wp:author_display_name></wp:author>
<wp:category><wp:term_id>2</wp:term_id><wp:category_nicename>${cdata("science")}</wp:category_nicename><wp:category_parent>${cdata("")}</wp:category_parent><wp:cat_name>${cdata("Наука")}</wp:cat_name></wp:category>
`);
for (let i = 1; i <= n; i++) {
  const slug = i % 10 === 0 ? encodeURIComponent(`стаття-${i}`).toLowerCase() : `post-${i}`;
  const month = String((i % 12) + 1).padStart(2, "0");
  const body = `<!-- wp:paragraph --><p>${text(i, 60)}</p><!-- /wp:paragraph -->
<!-- wp:heading --><h2>Розділ ${i}</h2><!-- /wp:heading -->
<!-- wp:paragraph --><p>${text(i + 3, 80)} <a href="https://example.org/${i}">джерело</a>.</p><!-- /wp:paragraph -->
<!-- wp:list --><ul><li>${text(i, 5)}</li><li>${text(i + 1, 5)}</li></ul><!-- /wp:list -->`;
  out.write(`<item><title>${cdata(`Новина ${i}: ${text(i, 6)}`)}</title><link>https://bench.example.org/2020/${month}/${slug}/</link>
<dc:creator>${cdata("bench")}</dc:creator><content:encoded>${cdata(body)}</content:encoded><excerpt:encoded>${cdata("")}</excerpt:encoded>
<wp:post_id>${i}</wp:post_id><wp:post_date_gmt>${cdata(`2020-${month}-15 10:00:00`)}</wp:post_date_gmt><wp:post_name>${cdata(slug)}</wp:post_name>
<wp:status>${cdata(i % 20 === 0 ? "draft" : "publish")}</wp:status><wp:post_type>${cdata("post")}</wp:post_type>
<category domain="category" nicename="science">${cdata("Наука")}</category><category domain="post_tag" nicename="tag-${i % 50}">${cdata(`тег ${i % 50}`)}</category></item>
`);
}
out.end("</channel></rss>\n");
out.on("finish", () => console.log(`${file}: ${n} posts`));
