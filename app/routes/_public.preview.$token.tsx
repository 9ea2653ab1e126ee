import { data, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { EmbargoBanner } from "~/components/public/article-science";
import { ArticleView } from "~/components/public/article-view";
import { previewArticleId } from "~/models/preview-link.server";
import { getArticlePageById, listRelatedArticles } from "~/models/public-article.server";
import { buildMeta, siteFromMatches } from "~/utils/seo-meta";

// Issue 15 (DESIGN §11): a preview link shows an article, in any status, as readers would see it.
// Never indexed, never cached, never counted: the page store keeps only the pages listed in
// app/page-store/page-key.server.ts (previews are not among them) and the view counter counts
// only /, /search, /article/* and /category/*. An unknown, expired or revoked token is one 404.

// no-referrer: the token never travels in a Referer, not even to this site's own pages.
const PREVIEW_HEADERS = { "Cache-Control": "private, no-store", "X-Robots-Tag": "noindex, nofollow", "Referrer-Policy": "no-referrer" };

export async function loader({ params }: LoaderFunctionArgs) {
  const id = await previewArticleId({ token: params.token ?? "" });
  const article = id ? await getArticlePageById({ id }) : undefined;
  if (!article) throw new Response("Preview not found", { status: 404, headers: PREVIEW_HEADERS });
  const related = await listRelatedArticles({ id: article.id, categoryId: article.category_id });
  // Issue 29: the embargo banner, while the embargo is in force.
  const embargo = article.embargo_until && article.embargo_until > new Date().toISOString() ? article.embargo_until : null;
  return data({ article, related, embargo }, { headers: PREVIEW_HEADERS });
}

export const headers: HeadersFunction = () => PREVIEW_HEADERS;

export default function PreviewPage() {
  const { article, related, embargo } = useLoaderData<typeof loader>();
  return (
    <>
      <p className="preview-banner" role="note">
        Попередній перегляд: так статтю побачать читачі. Посилання діє обмежений час; не поширюйте його.
      </p>
      <EmbargoBanner until={embargo} />
      <ArticleView article={article} related={related} preview />
    </>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data, matches, location }) => {
  const site = siteFromMatches(matches);
  const title = data ? `Попередній перегляд: ${data.article.title}` : "Посилання недійсне";
  return buildMeta(site, { title, path: location.pathname, robots: "noindex, nofollow" });
};

export function ErrorBoundary() {
  return (
    <section className="page-error">
      <h1>Посилання недійсне</h1>
      <p>Посилання для перегляду не існує, його відкликано або термін його дії минув.</p>
      <p>
        <Link to="/" className="button button-primary">
          На головну
        </Link>
      </p>
    </section>
  );
}
