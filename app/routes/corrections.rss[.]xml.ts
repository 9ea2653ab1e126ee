import type { LoaderFunctionArgs } from "@remix-run/node";
import { xml } from "remix-utils/responses";
import { listSiteCorrections } from "~/models/corrections.server";
import { getSettings } from "~/models/settings.server";
import { showsArticles } from "~/page-store/page-cache.server";
import { escapeXml } from "~/services/feeds.server";
import { getBaseUrl } from "~/services/public-site.server";

// Issue 29 item 3: RSS 2.0 of the newest 50 corrections (DESIGN §16), one item per correction.
export async function loader({ context }: LoaderFunctionArgs) {
  const [base, seo, { data }] = await Promise.all([getBaseUrl(), getSettings("seo"), listSiteCorrections({ limit: 50 })]);
  showsArticles(
    context,
    data.map((c) => c.article),
  );
  const items = data.map((c) => {
    const url = `${base}/article/${encodeURIComponent(c.article.slug)}`;
    return `    <item>
      <title>${escapeXml(`Виправлено: ${c.article.title}`)}</title>
      <link>${escapeXml(url)}</link>
      <guid isPermaLink="false">${escapeXml(`${base}/corrections#${c.id}`)}</guid>
      <description>${escapeXml(c.note)}</description>
      <pubDate>${new Date(c.created_at).toUTCString()}</pubDate>
    </item>`;
  });
  const body = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">
  <channel>
    <title>${escapeXml(`${seo.site_title}: виправлення`)}</title>
    <link>${escapeXml(`${base}/corrections`)}</link>
    <description>${escapeXml("Виправлення статей, від найновішого")}</description>
    <language>${escapeXml(seo.language.toLowerCase())}</language>
    <atom:link href="${escapeXml(`${base}/corrections/rss.xml`)}" rel="self" type="application/rss+xml"/>
${items.join("\n")}
  </channel>
</rss>
`;
  return xml(body, { headers: { "Content-Type": "application/rss+xml; charset=utf-8" } });
}
