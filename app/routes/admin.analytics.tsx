import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import type { AdminHandle } from "~/components/admin/nav";
import { formatCount, StatCard } from "~/components/admin/stat-card";
import { TopArticles } from "~/components/admin/top-articles";
import { ViewsChart } from "~/components/admin/views-chart";
import { getDashboardStats } from "~/models/analytics.server";
import { requireUser } from "~/services/auth.server";
import { useRevalidateEvery } from "~/utils/revalidate";

const TITLE = "Аналітика";
export const handle: AdminHandle = { title: TITLE };

export async function loader({ request }: LoaderFunctionArgs) {
  const reader = await requireUser(request);
  return { stats: await getDashboardStats({ top: 10, reader }) };
}

export default function Analytics() {
  const { stats } = useLoaderData<typeof loader>();
  useRevalidateEvery(60_000);
  return (
    <div className="screen">
      <div className="stat-grid stat-grid-4">
        <StatCard label="Total Views" value={stats.total_views} />
        <StatCard label="Views This Week" value={stats.week_views} />
        <StatCard label="Views This Month" value={stats.month_views} />
        <StatCard label="Published Articles" value={stats.published_articles} />
      </div>
      <section className="admin-card" aria-labelledby="chart-title">
        <h2 id="chart-title">Daily Views (Last 30 Days)</h2>
        <ViewsChart data={stats.daily_views} caption="Article views per day, last 30 days" />
      </section>
      <div className="two-cards">
        <TopArticles articles={stats.top_articles} ranked />
        <section className="admin-card" aria-labelledby="summary-title">
          <h2 id="summary-title">Articles Summary</h2>
          <dl className="summary-list">
            <div>
              <dt>Published</dt>
              <dd>{formatCount(stats.published_articles)}</dd>
            </div>
            <div>
              <dt>Drafts</dt>
              <dd>{formatCount(stats.draft_articles)}</dd>
            </div>
            <div>
              <dt>Total</dt>
              <dd>{formatCount(stats.total_articles)}</dd>
            </div>
          </dl>
        </section>
      </div>
    </div>
  );
}

export const meta: MetaFunction = () => [{ title: `${TITLE} — Admin Panel` }];

export { AdminErrorBoundary as ErrorBoundary } from "~/components/admin/error-boundary";
