import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import type { AdminHandle } from "~/components/admin/nav";
import { ReturnedArticles } from "~/components/admin/returned-articles";
import { formatCount, StatCard } from "~/components/admin/stat-card";
import { TopArticles } from "~/components/admin/top-articles";
import { ViewsChart } from "~/components/admin/views-chart";
import { UpcomingEmbargoes } from "~/components/newsroom/embargo-list";
import { getDashboardStats } from "~/models/analytics.server";
import { getDeskOverview } from "~/models/article-desk.server";
import { listReturnedTo } from "~/models/article-returned.server";
import { listUpcomingEmbargoes } from "~/models/article-science.server";
import { canEditArticle } from "~/models/article.server";
import { requireUser } from "~/services/auth.server";
import { formatDate, formatDateTime } from "~/utils/format";
import { useRevalidateEvery } from "~/utils/revalidate";

const TITLE = "Панель керування";
export const handle: AdminHandle = { title: TITLE };

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const [stats, desk, returned, embargoes] = await Promise.all([
    getDashboardStats({ reader: user }),
    getDeskOverview(),
    listReturnedTo({ authorId: user.id }),
    listUpcomingEmbargoes(),
  ]);
  // Edit is offered only where it works (issue 31 item 7): a reporter edits their own drafts and reviews.
  const recent = stats.recent_articles.map(({ author_id, ...a }) => ({ ...a, editable: canEditArticle(user, { author_id, status: a.status }) }));
  // The review queue is the desk's work: editors and admins see it (issue 14).
  return {
    stats: { ...stats, recent_articles: recent },
    desk: { review: user.role === "reporter" ? null : desk.review, scheduled: desk.scheduled },
    returned: user.role === "reporter" || returned.length ? returned : null,
    reporter: user.role === "reporter",
    embargoes,
  };
}

export default function Dashboard() {
  const { stats, desk, returned, reporter, embargoes } = useLoaderData<typeof loader>();
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
        <TopArticles articles={stats.top_articles} publicLinks={reporter} />
      </div>
      {returned ? <ReturnedArticles items={returned} /> : null}
      <div className="two-cards">
        {desk.review ? (
          <section className="admin-card" aria-labelledby="review-title">
            <h2 id="review-title">Awaiting review · Очікують перевірки</h2>
            <ArticleLinks
              items={desk.review}
              testId="review-queue"
              empty="Немає статей на перевірці"
              meta={(a) => `${a.author ?? "—"} · надіслано ${formatDateTime(a.submitted_at)}`}
              action={{ label: "Перевірити", name: (title) => `Перевірити: ${title}` }}
            />
          </section>
        ) : null}
        <section className="admin-card" aria-labelledby="scheduled-title">
          <h2 id="scheduled-title">Заплановані публікації</h2>
          <ArticleLinks
            items={desk.scheduled}
            testId="scheduled-list"
            empty="Немає запланованих публікацій"
            meta={(a) => `${formatDateTime(a.publish_at)} (Київ)`}
          />
        </section>
      </div>
      <UpcomingEmbargoes items={embargoes} />
      <section className="admin-card" aria-labelledby="recent-title">
        <h2 id="recent-title">Recent Articles</h2>
        <ArticleLinks
          items={stats.recent_articles}
          empty="No articles found"
          meta={(a) => `${a.published_at ? formatDate(a.published_at) : a.status} · ${formatCount(a.views)} views`}
          action={{ label: "Edit", name: (title) => `Edit ${title}`, when: (a) => a.editable }}
        />
      </section>
    </div>
  );
}

/** A list of articles, each linking to its editor, with a line about it and an optional button. */
function ArticleLinks<T extends { id: string; title: string }>({
  items,
  empty,
  meta,
  action,
  testId,
}: {
  items: T[];
  empty: string;
  meta: (article: T) => string;
  action?: { label: string; name: (title: string) => string; when?: (article: T) => boolean };
  testId?: string;
}) {
  if (!items.length) return <p className="muted">{empty}</p>;
  return (
    <ul className="recent-list" data-testid={testId}>
      {items.map((a) => (
        <li key={a.id}>
          <div>
            {action?.when?.(a) === false ? (
              <span className="recent-title">{a.title}</span>
            ) : (
              <Link to={`/admin/articles/edit/${a.id}`} className="recent-title">
                {a.title}
              </Link>
            )}
            <div className="muted small">{meta(a)}</div>
          </div>
          {action && (action.when?.(a) ?? true) ? (
            <Link to={`/admin/articles/edit/${a.id}`} className="button button-secondary button-small" aria-label={action.name(a.title)}>
              {action.label}
            </Link>
          ) : null}
        </li>
      ))}
    </ul>
  );
}

export const meta: MetaFunction = () => [{ title: `${TITLE} — Admin Panel` }];

export { AdminErrorBoundary as ErrorBoundary } from "~/components/admin/error-boundary";
