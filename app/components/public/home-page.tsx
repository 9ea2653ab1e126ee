import type { HomeData } from "~/services/public-home.server";
import type { PublicSite } from "~/services/public-site.server";
import { jsonLd } from "~/utils/seo-meta";
import { HomeBlocks } from "./home-blocks";

/** Structured data of the home: the news organisation and the hero article (SPEC §2). */
function homeJsonLd(site: PublicSite, home: HomeData) {
  const organization = {
    "@type": "NewsMediaOrganization",
    "@id": `${site.baseUrl}/#organization`,
    name: site.title,
    description: site.description,
    url: `${site.baseUrl}/`,
    logo: { "@type": "ImageObject", url: `${site.baseUrl}/favicon.ico` },
  };
  const hero = home.blocks.hero[0];
  const graph: unknown[] = [organization];
  if (hero) {
    const image = hero.image.startsWith("http") ? hero.image : `${site.baseUrl}${hero.image}`;
    graph.push({
      "@type": "NewsArticle",
      headline: hero.title,
      description: hero.subtitle ?? undefined,
      image: [image],
      datePublished: hero.published_at ?? undefined,
      author: hero.author ? { "@type": "Person", name: hero.author } : undefined,
      publisher: { "@id": `${site.baseUrl}/#organization` },
      ...(hero.url ? { url: `${site.baseUrl}${hero.url}`, mainEntityOfPage: `${site.baseUrl}${hero.url}` } : {}),
    });
  }
  return { "@context": "https://schema.org", "@graph": graph };
}

export function HomePage({ site, home, notice }: { site: PublicSite; home: HomeData; notice?: React.ReactNode }) {
  return (
    <>
      {notice ?? <h1 className="sr-only">{site.title}: новини науки і технологій</h1>}
      <HomeBlocks blocks={home.blocks} related={home.related} />
      <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: jsonLd(homeJsonLd(site, home)) }} />
    </>
  );
}
