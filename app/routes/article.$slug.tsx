import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { getPublishedArticle } from "~/models/article.server";

// A plain rendering of the stored HTML; the public-site issue builds the full article page.
export async function loader({ params }: LoaderFunctionArgs) {
  const article = await getPublishedArticle({ slugOrId: params.slug ?? "" });
  if (!article) throw new Response("Article not found", { status: 404 });
  return { article };
}

export default function ArticlePage() {
  const { article } = useLoaderData<typeof loader>();
  return (
    <main id="main" className="article-basic">
      <p>
        <Link to="/">← Наука UA</Link>
      </p>
      {article.category_name ? <p className="badge">{article.category_name}</p> : null}
      <h1>{article.title}</h1>
      {article.subtitle ? <p className="lead">{article.subtitle}</p> : null}
      <p className="muted">{article.author_name || article.author_username || "Science Admin"}</p>
      {/* content_html was sanitised when the article was saved (DESIGN §9). */}
      <div className="article-body" dangerouslySetInnerHTML={{ __html: article.content_html }} />
      {article.tags.length ? (
        <ul className="tags">
          {article.tags.map((t) => (
            <li key={t}>#{t}</li>
          ))}
        </ul>
      ) : null}
    </main>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `${data.article.title} — Наука UA` : "Article not found — Наука UA" },
];
