import type { MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { listLatestPublished } from "~/models/article.server";

// A plain list of the newest stories; the public-site issue builds the real home page.
export async function loader() {
  return { articles: await listLatestPublished({ limit: 20 }) };
}

export default function Home() {
  const { articles } = useLoaderData<typeof loader>();
  return (
    <main id="main" className="home-basic">
      <h1>Наука UA</h1>
      <p className="muted">Новини науки і технологій українською.</p>
      {articles.length ? (
        <ul className="home-basic-list">
          {articles.map((a) => (
            <li key={a.id}>
              <Link to={`/article/${a.slug}`}>{a.title}</Link>
              {a.subtitle ? <p>{a.subtitle}</p> : null}
            </li>
          ))}
        </ul>
      ) : (
        <p>Новини завантажуються...</p>
      )}
    </main>
  );
}

export const meta: MetaFunction = () => [{ title: "Наука UA — новини науки і технологій" }];
