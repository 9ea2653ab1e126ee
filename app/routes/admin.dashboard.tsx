import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import type { AdminHandle } from "~/components/admin/nav";
import { formatCount, StatCard } from "~/components/admin/stat-card";
import { TopArticles } from "~/components/admin/top-articles";
import { ViewsChart } from "~/components/admin/views-chart";
import { getDashboardStats } from "~/models/analytics.server";
import { getDeskOverview } from "~/models/article-desk.server";
import { requireUser } from "~/services/auth.server";
import { formatDate, formatDateTime } from "~/utils/format";
import { useRevalidateEvery } from "~/utils/revalidate";

const TITLE = "Панель керування";
export const handle: AdminHandle = { title: TITLE };

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const [stats, desk] = await Promise.all([getDashboardStats(), getDeskOverview()]);
  // The review queue is the desk's work: editors and admins see it (issue 14).
  return { stats, desk: { review: user.role === "reporter" ? null : desk.review, scheduled: desk.scheduled } };
}

export default function Dashboard() {
  const { stats, desk } = useLoaderData<typeof loader>();
  useRevalidateEvery(30_000);
  return (
    <div className="screen">
      <p className="screen-subtitle">Ласкаво просимо до адмін-панелі видання «Наука UA»: ось як справи в редакції сьогодні.</p>
      <div className="stat-grid">
        <StatCard label="Total Articles" value={stats.total_articles} />
        <StatCard label="Published Articles" value={stats.published_articles} />
        <StatCard label="Draft Articles" value={stats.draft_articles} />
        <StatCard label="На перевірці" value={stats.review_articles} />
        <StatCard label="Заплановано" value={stats.scheduled_articles} />
        <StatCard label="Total Views" value={stats.total_views} />
        <StatCard label="Views This Week" value={stats.week_views} />
        <StatCard label="Views This Month" value={stats.month_views} />
      </div>
      <div className="two-cards">
        <section className="admin-card" aria-labelledby="chart-title">
          <h2 id="chart-title">Views Analytics (Last 30 Days)</h2>
          <ViewsChart data={stats.daily_views} caption="Article views per day, last 30 days" />
        </section>
        <TopArticles articles={stats.top_articles} />
      </div>
      <div className="two-cards">
        {desk.review ? (
          <section className="admin-card" aria-labelledby="review-title">
            <h2 id="review-title">Awaiting review · Очікують перевірки</h2>
            {desk.review.length ? (
              <ul className="recent-list" data-testid="review-queue">
                {desk.review.map((a) => (
                  <li key={a.id}>
                    <div>
                      <Link to={`/admin/articles/edit/${a.id}`} className="recent-title">
                        {a.title}
                      </Link>
                      <div className="muted small">
                        {a.author ?? "—"} · надіслано {formatDateTime(a.submitted_at)}
                      </div>
                    </div>
                    <Link to={`/admin/articles/edit/${a.id}`} className="button button-secondary button-small" aria-label={`Перевірити: ${a.title}`}>
                      Перевірити
                    </Link>
                  </li>
                ))}
              </ul>
            ) : (
              <p className="muted">Немає статей на перевірці</p>
            )}
          </section>
        ) : null}
        <section className="admin-card" aria-labelledby="scheduled-title">
          <h2 id="scheduled-title">Заплановані публікації</h2>
          {desk.scheduled.length ? (
            <ul className="recent-list" data-testid="scheduled-list">
              {desk.scheduled.map((a) => (
                <li key={a.id}>
                  <div>
                    <Link to={`/admin/articles/edit/${a.id}`} className="recent-title">
                      {a.title}
                    </Link>
                    <div className="muted small">{formatDateTime(a.publish_at)} (Київ)</div>
                  </div>
                </li>
              ))}
            </ul>
          ) : (
            <p className="muted">Немає запланованих публікацій</p>
          )}
        </section>
      </div>
      <section className="admin-card" aria-labelledby="recent-title">
        <h2 id="recent-title">Recent Articles</h2>
        {stats.recent_articles.length ? (
          <ul className="recent-list">
            {stats.recent_articles.map((a) => (
              <li key={a.id}>
                <div>
                  <Link to={`/admin/articles/edit/${a.id}`} className="recent-title">
                    {a.title}
                  </Link>
                  <div className="muted small">
                    {a.published_at ? formatDate(a.published_at) : a.status} · {formatCount(a.views)} views
                  </div>
                </div>
                <Link to={`/admin/articles/edit/${a.id}`} className="button button-secondary button-small" aria-label={`Edit ${a.title}`}>
                  Edit
                </Link>
              </li>
            ))}
          </ul>
        ) : (
          <p className="muted">No articles found</p>
        )}
      </section>
    </div>
  );
}

export const meta: MetaFunction = () => [{ title: `${TITLE} — Admin Panel` }];

export { AdminErrorBoundary as ErrorBoundary } from "~/components/admin/error-boundary";
