import { Link } from "@remix-run/react";
import { formatCount } from "./stat-card";

/** 'Top Articles' for the dashboard and (with rank badges) the analytics screen. */
export function TopArticles({
  articles,
  ranked = false,
  publicLinks = false,
}: {
  articles: { id: string; title: string; slug?: string; views: number }[];
  ranked?: boolean;
  /** Link to the public article instead of its editor (a reporter edits only their own drafts, issue 31 item 7). */
  publicLinks?: boolean;
}) {
  return (
    <section className="admin-card" aria-labelledby="top-title">
      <h2 id="top-title">Top Articles</h2>
      {articles.length ? (
        <ol className={ranked ? "rank-list rank-numbered" : "rank-list"}>
          {articles.map((a, index) => (
            <li key={a.id}>
              {ranked ? (
                <span className="rank" aria-hidden="true">
                  {index + 1}
                </span>
              ) : null}
              <Link to={publicLinks && a.slug ? `/article/${a.slug}` : `/admin/articles/edit/${a.id}`}>{a.title}</Link>
              <span className="muted">{formatCount(a.views)} views</span>
            </li>
          ))}
        </ol>
      ) : (
        <p className="muted">No articles found</p>
      )}
    </section>
  );
}
