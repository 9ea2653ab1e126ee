import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Cell, Pie, PieChart, Tooltip } from "recharts";
import { useHydrated } from "remix-utils/use-hydrated";
import type { AdminHandle } from "~/components/admin/nav";
import { formatCount, StatCard } from "~/components/admin/stat-card";
import { Field } from "~/components/ui/field";
import { getSeoOverview, submitSitemap, submitUrl, SubmitUrlSchema } from "~/models/seo.server";
import { requireRole } from "~/services/auth.server";
import { DomainError } from "~/utils/errors";
import { formatDate, formatDateTime } from "~/utils/format";
import { formFailureOf } from "~/utils/forms";
import { formFailure, formValues, parseForm } from "~/utils/forms.server";
import { formIntent, UNKNOWN_INTENT } from "~/utils/intent";
import { SCREEN_ROLES } from "~/utils/roles";
import { pieColour, SEARCH_SAMPLE } from "~/utils/seo-sample";

const TITLE = "SEO аналітика";
export const handle: AdminHandle = { title: TITLE };

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, SCREEN_ROLES["/admin/seo/analytics"]);
  return { overview: await getSeoOverview() };
}

// Issue 31: no Search Console account is connected (there is no API client), so nothing reaches
// Google; the screen says so instead of claiming success. The submission is still recorded.
const NOT_CONNECTED_SITEMAP = "Search Console не підключено: карту сайту не надіслано до Google. Запит записано нижче.";
const NOT_CONNECTED_URL = "Search Console не підключено: адресу не надіслано до Google. Запит записано нижче.";

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireRole(request, SCREEN_ROLES["/admin/seo/analytics"]);
  const form = await request.formData();
  const intent = formIntent(form, ["sitemap", "url"]);
  const values = formValues(form);
  if (!intent) return formFailure({ values, formError: UNKNOWN_INTENT }, 400);
  try {
    if (intent === "sitemap") {
      await submitSitemap({ user });
      return { ok: true, message: NOT_CONNECTED_SITEMAP };
    }
    const raw = String(form.get("url") ?? "").trim();
    if (!raw) return { ok: true, message: null }; // SPEC §5: empty input is ignored
    const parsed = parseForm(SubmitUrlSchema, { url: raw });
    if (!parsed.ok) return formFailure({ values, formError: `Failed to submit URL: ${parsed.formError ?? Object.values(parsed.errors)[0]}` }, 422);
    await submitUrl({ url: parsed.data.url, user });
    return { ok: true, message: NOT_CONNECTED_URL };
  } catch (error) {
    if (error instanceof DomainError) {
      const prefix = intent === "sitemap" ? "Failed to submit sitemap: " : "Failed to submit URL: ";
      return formFailure({ values, formError: prefix + error.message }, error.status);
    }
    throw error;
  }
}

export default function SeoAnalytics() {
  const { overview } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const failure = formFailureOf(result);
  const message = result?.ok ? result.message : failure?.formError;
  const navigation = useNavigation();
  const hydrated = useHydrated();
  const busy = navigation.state === "submitting";
  const sample = SEARCH_SAMPLE;

  return (
    <div className="screen">
      <section className="admin-card" aria-labelledby="search-title">
        <div className="toolbar">
          <h2 id="search-title">Search performance</h2>
          <span className="sample-badge">Sample data — Search Console is not connected</span>
        </div>
        <div className="stat-grid stat-grid-4">
          <StatCard label="Impressions" value={sample.impressions} />
          <StatCard label="Clicks" value={sample.clicks} />
          <div className="stat-card">
            <p className="stat-label">CTR</p>
            <p className="stat-value">{sample.ctr}%</p>
          </div>
          <div className="stat-card">
            <p className="stat-label">Average position</p>
            <p className="stat-value">{sample.position}</p>
          </div>
        </div>
        <h3>Top queries</h3>
        <div className="table-wrap">
          <table className="data-table">
            <thead>
              <tr>
                <th scope="col">Query</th>
                <th scope="col">Clicks</th>
                <th scope="col">Impressions</th>
                <th scope="col">CTR</th>
                <th scope="col">Position</th>
              </tr>
            </thead>
            <tbody>
              {sample.rows.slice(0, 10).map((row) => (
                <tr key={row.keys[0]}>
                  <td>{row.keys[0]}</td>
                  <td>{formatCount(row.clicks)}</td>
                  <td>{formatCount(row.impressions)}</td>
                  <td>{(row.ctr * 100).toFixed(1)}%</td>
                  <td>{row.position.toFixed(1)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>

      <div className="two-cards">
        <section className="admin-card" aria-labelledby="overview-title">
          <h2 id="overview-title">Articles overview</h2>
          <div className="stat-grid">
            <StatCard label="Total" value={overview.articles.total} />
            <StatCard label="Published" value={overview.articles.published} />
            <StatCard label="Drafts" value={overview.articles.draft} />
          </div>
          <h3>Recently published</h3>
          <div className="table-wrap">
            <table className="data-table">
              <thead>
                <tr>
                  <th scope="col">Title</th>
                  <th scope="col">Published</th>
                  <th scope="col">Views</th>
                </tr>
              </thead>
              <tbody>
                {overview.articles.recent.map((a) => (
                  <tr key={a.id}>
                    <td>
                      <Link to={`/admin/articles/edit/${a.id}`}>{a.title}</Link>
                    </td>
                    <td>{formatDate(a.published_at)}</td>
                    <td>{formatCount(a.views)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
        <section className="admin-card" aria-labelledby="categories-title">
          <h2 id="categories-title">Articles by category</h2>
          {hydrated && overview.categories.length ? (
            <div aria-hidden="true" className="pie-box">
              <PieChart width={260} height={220}>
                <Pie data={overview.categories} dataKey="count" nameKey="category_name" outerRadius={90} isAnimationActive={false}>
                  {overview.categories.map((c, i) => (
                    <Cell key={c.category_name} fill={pieColour(i)} />
                  ))}
                </Pie>
                <Tooltip />
              </PieChart>
            </div>
          ) : null}
          <ul className="legend">
            {overview.categories.map((c, i) => (
              <li key={c.category_name}>
                <span className="swatch" style={{ background: pieColour(i) }} aria-hidden="true" />
                {c.category_name} <span className="muted">({c.count})</span>
              </li>
            ))}
          </ul>
        </section>
      </div>

      <section className="admin-card" aria-labelledby="submit-title">
        <h2 id="submit-title">Indexing</h2>
        {message ? (
          <p className={result?.ok ? "flash flash-ok" : "form-error"} role={result?.ok ? "status" : "alert"}>
            {message}
          </p>
        ) : null}
        <div className="submit-row">
          <Form method="post">
            <button type="submit" name="intent" value="sitemap" className="button button-primary" disabled={busy}>
              Submit sitemap
            </button>
          </Form>
          <Form method="post" className="submit-url">
            <Field label="URL to submit" hideLabel id="submit-url" name="url" type="url" placeholder="https://…/article/…" defaultValue={failure?.values.url} />
            <button type="submit" name="intent" value="url" className="button button-secondary" disabled={busy}>
              Submit URL
            </button>
          </Form>
        </div>
        {overview.submissions.length ? (
          <ul className="submission-list muted small">
            {overview.submissions.slice(0, 5).map((s) => (
              <li key={`${s.at}-${s.url}`}>
                {formatDateTime(s.at)} · {s.kind === "sitemap" ? "sitemap" : "URL"} · {s.url} · {s.by}
              </li>
            ))}
          </ul>
        ) : null}
        <p className="muted small">Last updated: {overview.last_updated ? formatDateTime(overview.last_updated) : "—"}</p>
      </section>
    </div>
  );
}

export const meta: MetaFunction = () => [{ title: `${TITLE} — Admin Panel` }];

export { AdminErrorBoundary as ErrorBoundary } from "~/components/admin/error-boundary";
