import { data, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { useHydrated } from "remix-utils/use-hydrated";
import type { AdminHandle } from "~/components/admin/nav";
import { EmbargoBadge, UpcomingEmbargoes } from "~/components/newsroom/embargo-list";
import { ConfirmStep, TimedMessage } from "~/components/newsroom/ui";
import { listUpcomingEmbargoes } from "~/models/article-science.server";
import { bulkArticleAction, canEditArticle, canReadArticle, deleteArticle, getArticleById, listAdminArticles, setArticleStatus } from "~/models/article.server";
import { listCategoryChoices } from "~/models/category.server";
import { requireUser } from "~/services/auth.server";
import { backTo, redirectWithFlash, takeFlash } from "~/services/flash.server";
import styles from "~/styles/newsroom.css";
import { DomainError } from "~/utils/errors";
import { formatDate, formatDateTime } from "~/utils/format";
import { formFailureOf } from "~/utils/forms";
import { formFailure } from "~/utils/forms.server";
import { formIntent, UNKNOWN_INTENT } from "~/utils/intent";
import { ADMIN_SORTS, ARTICLE_STATUSES, BULK_ACTIONS, STATUS_LABELS, type AdminSort, type ArticleStatus, type BulkAction } from "~/utils/newsroom-rules";
import { ArticleFilters } from "./article-filters";
import { ArticleUrl, QUESTIONS, RowAction } from "./row-parts";

const TITLE = "Статті";
const PAGE_SIZE = 20; // SPEC §9

export const handle: AdminHandle = { title: TITLE };
export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];

function readFilters(url: URL) {
  const q = url.searchParams.get("q")?.trim().slice(0, 200) ?? "";
  const rawStatus = url.searchParams.get("status") ?? "";
  const status: ArticleStatus | "" = ARTICLE_STATUSES.includes(rawStatus as ArticleStatus) ? (rawStatus as ArticleStatus) : "";
  const category = url.searchParams.get("category") ?? "";
  const page = Math.max(1, Number.parseInt(url.searchParams.get("page") ?? "1", 10) || 1);
  const rawSort = url.searchParams.get("sort") ?? "";
  const sort: AdminSort = (ADMIN_SORTS as readonly string[]).includes(rawSort) ? (rawSort as AdminSort) : "created";
  // Titles read A→Я by default; dates and views biggest first.
  const dir: "asc" | "desc" = url.searchParams.get("dir") === "asc" || (sort === "title" && url.searchParams.get("dir") !== "desc") ? "asc" : "desc";
  return { q, status, category, page, sort, dir };
}

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const filters = readFilters(new URL(request.url));
  const [{ articles, total, capped }, categories, { flash, headers }, embargoes] = await Promise.all([
    listAdminArticles({
      search: filters.q || undefined,
      status: filters.status || undefined,
      categoryId: filters.category || undefined,
      sort: filters.sort,
      dir: filters.dir,
      skip: (filters.page - 1) * PAGE_SIZE,
      limit: PAGE_SIZE,
      // A reporter sees their own articles and the desk's published ones (docs/decisions/019).
      reader: user,
    }),
    listCategoryChoices(),
    takeFlash(request),
    listUpcomingEmbargoes({ limit: 3 }), // issue 29: what lifts next
  ]);
  return data(
    {
      // A reporter edits their own article in review too, but deletes only drafts (DESIGN §5, §11).
      articles: articles.map((a) => ({
        ...a,
        editable: canEditArticle(user, a),
        deletable: canEditArticle(user, a) && (user.role !== "reporter" || a.status === "draft"),
        // Issue 29: the badge shows only while the embargo is ahead.
        embargo_until: a.embargo_until && a.embargo_until > new Date().toISOString() ? a.embargo_until : null,
      })),
      total,
      capped,
      filters,
      pages: Math.max(1, Math.ceil(total / PAGE_SIZE)),
      categories,
      canPublish: user.role !== "reporter",
      flash,
      embargoes,
    },
    { headers },
  );
}

const INTENTS = ["publish", "unpublish", "delete", "bulk"] as const;

const BULK_QUESTIONS: Record<BulkAction, (n: number) => string> = {
  publish: (n) => `Опублікувати вибрані статті (${n})?`,
  unpublish: (n) => `Зняти з публікації вибрані статті (${n})?`,
  delete: (n) => `Видалити вибрані статті (${n})? Цю дію не можна скасувати.`,
};
const BULK_LABELS: Record<BulkAction, string> = { publish: "Опублікувати", unpublish: "Зняти з публікації", delete: "Видалити" };
const BULK_DONE: Record<BulkAction, (n: number) => string> = {
  publish: (n) => `Опубліковано статей: ${n}`,
  unpublish: (n) => `Знято з публікації статей: ${n}`,
  delete: (n) => `Видалено статей: ${n}`,
};
const BULK_MAX = 100;

/** Several articles at once: every one checked, all changed in one transaction or none. */
async function bulkAction(request: Request, actor: Awaited<ReturnType<typeof requireUser>>, form: FormData, back: string) {
  const action = formIntent(form, BULK_ACTIONS, "bulk_action");
  const ids = [
    ...new Set(
      form
        .getAll("ids")
        .flatMap((v) => (typeof v === "string" ? v.split(",") : []))
        .map((v) => v.trim())
        .filter(Boolean),
    ),
  ];
  if (!action) return formFailure({ formError: "Оберіть дію для вибраних статей" }, 422);
  if (ids.length === 0) return formFailure({ formError: "Оберіть хоча б одну статтю" }, 422);
  if (ids.length > BULK_MAX) return formFailure({ formError: `Не більше ${BULK_MAX} статей за раз` }, 422);
  if (form.get("confirmed") !== "1") return { ok: true as const, bulk: { action, ids, back } };
  try {
    const { count } = await bulkArticleAction({ actor, ids, action });
    return redirectWithFlash(request, back, BULK_DONE[action](count));
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return formFailure({ formError: `Нічого не змінено: ${error.message}` }, error.status);
  }
}

export async function action({ request }: ActionFunctionArgs) {
  const actor = await requireUser(request);
  const form = await request.formData();
  const intent = formIntent(form, INTENTS);
  const id = String(form.get("id") ?? "");
  const back = backTo(form.get("back"), "/admin/articles", "/admin/articles");
  if (!intent) return formFailure({ formError: UNKNOWN_INTENT }, 400);
  if (intent === "bulk") return bulkAction(request, actor, form, back);
  const article = await getArticleById({ id });
  const failed = intent === "delete" ? "Failed to delete article" : "Failed to update article status";
  if (!article) return formFailure({ formError: `${failed}: статтю не знайдено` }, 404);
  // The confirmation names the article: only for who may read it (docs/decisions/019).
  if (!canReadArticle(actor, article)) return formFailure({ formError: `${failed}: недостатньо прав для цієї статті` }, 403);
  if (form.get("confirmed") !== "1") {
    // Without JavaScript the confirmation is a step of its own (SPEC §8 'Confirmations').
    return { ok: true as const, confirm: { intent, id, title: article.title, back } };
  }
  try {
    if (intent === "delete") {
      await deleteArticle({ actor, id });
      return redirectWithFlash(request, back, `Статтю «${article.title}» успішно видалено`);
    }
    await setArticleStatus({ actor, id, status: intent === "publish" ? "published" : "draft" });
    return redirectWithFlash(
      request,
      back,
      intent === "publish" ? `Статтю «${article.title}» успішно опубліковано` : `Статтю «${article.title}» успішно знято з публікації`,
    );
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return formFailure({ formError: `${failed}: ${error.message}` }, error.status);
  }
}

export default function ArticleList() {
  const { articles, total, capped, filters, pages, categories, canPublish, flash, embargoes } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const failure = formFailureOf(actionData);
  const confirm = actionData?.ok && "confirm" in actionData ? actionData.confirm : null;
  const bulk = actionData?.ok && "bulk" in actionData ? actionData.bulk : null;
  const hydrated = useHydrated();
  const [selected, setSelected] = useState<string[]>([]);
  const selectable = articles.filter((a) => a.editable || canPublish).map((a) => a.id);
  const allSelected = selectable.length > 0 && selectable.every((id) => selected.includes(id));
  // Keep the selection to rows still shown (after a bulk action, a new filter or page).
  useEffect(() => {
    setSelected((current) => current.filter((id) => articles.some((a) => a.id === id)));
  }, [articles]);
  const toggle = (id: string) => setSelected((s) => (s.includes(id) ? s.filter((x) => x !== id) : [...s, id]));
  const sortHref = (column: "created" | "views" | "title") => {
    const params = new URLSearchParams(location.search);
    const current = filters.sort === column;
    const dir = current ? (filters.dir === "asc" ? "desc" : "asc") : column === "title" ? "asc" : "desc";
    params.set("sort", column);
    params.set("dir", dir);
    params.delete("page");
    return `?${params}`;
  };
  const ariaSort = (column: "created" | "views" | "title") => (filters.sort === column ? (filters.dir === "asc" ? "ascending" : "descending") : undefined);
  const SortHeader = ({ column, children }: { column: "created" | "views" | "title"; children: string }) => (
    <th scope="col" aria-sort={ariaSort(column)}>
      <Link to={sortHref(column)} className="sort-link" preventScrollReset>
        {children}
        {/* The header's aria-sort says how the column is sorted; the arrow is for the eye. */}
        <span aria-hidden="true">{filters.sort === column ? (filters.dir === "asc" ? " ↑" : " ↓") : " ↕"}</span>
      </Link>
    </th>
  );
  const location = useLocation();
  const navigation = useNavigation();
  const back = `${location.pathname}${location.search}`;
  // A bulk action that went through clears the selection; a refused one keeps it for another try.
  const bulkPending = useRef(false);
  useEffect(() => {
    if (navigation.state === "submitting" && navigation.formData?.get("intent") === "bulk") bulkPending.current = true;
    if (navigation.state === "idle" && bulkPending.current) {
      bulkPending.current = false;
      if (!failure) setSelected([]);
    }
  }, [navigation.state, navigation.formData, failure]);
  const pageHref = (page: number) => {
    const params = new URLSearchParams(location.search);
    params.set("page", String(page));
    return `?${params}`;
  };

  return (
    <section className="admin-card newsroom" aria-labelledby="articles-title">
      <div className="toolbar">
        <h2 id="articles-title">{TITLE}</h2>
        <Link to="/admin/articles/new" className="button button-primary">
          New Article
        </Link>
      </div>
      <TimedMessage message={flash} tone="ok" />
      <UpcomingEmbargoes items={embargoes} compact />
      {failure?.formError ? <TimedMessage message={failure.formError} tone="error" ms={6000} /> : null}

      <ArticleFilters filters={filters} categories={categories} />

      <p className="muted small" aria-live="polite">
        {navigation.state === "loading" && navigation.location.pathname === "/admin/articles"
          ? "Завантаження…"
          : `Знайдено: ${capped ? `понад ${total}` : total}`}
      </p>

      {articles.length > 0 && selectable.length > 0 ? (
        <Form
          method="post"
          id="bulk-form"
          className="bulk-bar"
          aria-label="Дії з вибраними статтями"
          onSubmit={(event) => {
            const data = new FormData(event.currentTarget);
            const action = data.get("bulk_action") as BulkAction | null;
            const n = data.getAll("ids").length;
            if (action && n > 0 && !window.confirm(BULK_QUESTIONS[action](n))) event.preventDefault();
          }}
        >
          <input type="hidden" name="intent" value="bulk" />
          <input type="hidden" name="back" value={back} />
          <input type="hidden" name="confirmed" value={hydrated ? "1" : ""} />
          <label htmlFor="bulk_action">Вибрані{hydrated ? ` (${selected.length})` : ""}:</label>
          <select id="bulk_action" name="bulk_action" defaultValue="">
            <option value="" disabled>
              — дія —
            </option>
            {(canPublish ? BULK_ACTIONS : (["delete"] as const)).map((a) => (
              <option key={a} value={a}>
                {BULK_LABELS[a]}
              </option>
            ))}
          </select>
          <button type="submit" className="button button-secondary button-small" disabled={hydrated ? selected.length === 0 : false}>
            Застосувати
          </button>
        </Form>
      ) : null}

      {articles.length === 0 ? (
        <p className="empty-state">No articles found</p>
      ) : (
        <div className="table-wrap">
          <table className="data-table article-table">
            <thead>
              <tr>
                <th scope="col" className="select-cell">
                  {hydrated ? (
                    <input
                      type="checkbox"
                      aria-label="Вибрати всі статті на сторінці"
                      checked={allSelected}
                      onChange={() => setSelected(allSelected ? [] : selectable)}
                    />
                  ) : (
                    <span className="visually-hidden">Вибір</span>
                  )}
                </th>
                <SortHeader column="title">Title</SortHeader>
                <th scope="col">URL</th>
                <th scope="col">Author</th>
                <th scope="col">Category</th>
                <th scope="col">Status</th>
                <SortHeader column="views">Views</SortHeader>
                <SortHeader column="created">Created</SortHeader>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {articles.map((a) => (
                <tr key={a.id}>
                  <td className="select-cell">
                    {selectable.includes(a.id) ? (
                      <input
                        type="checkbox"
                        form="bulk-form"
                        name="ids"
                        value={a.id}
                        checked={selected.includes(a.id)}
                        onChange={() => toggle(a.id)}
                        aria-label={`Вибрати ${a.title}`}
                      />
                    ) : null}
                  </td>
                  <td className="title-cell">
                    <Link to={`/admin/articles/edit/${a.id}`} className="article-title">
                      {a.title}
                    </Link>
                    {a.subtitle ? <div className="muted small">{a.subtitle}</div> : null}
                  </td>
                  <td data-label="URL">
                    <ArticleUrl slug={a.slug || a.id} title={a.title} />
                  </td>
                  <td data-label="Author">{a.author?.profile.name || a.author?.username || "—"}</td>
                  <td data-label="Category">{a.category?.name ?? "—"}</td>
                  <td>
                    <span className={`status status-${a.status}`}>{STATUS_LABELS[a.status]}</span>
                    {a.status === "scheduled" ? (
                      <div className="muted small nowrap" title="Час публікації (Київ)">
                        {formatDateTime(a.published_at)}
                      </div>
                    ) : null}
                    <EmbargoBadge until={a.embargo_until} />
                  </td>
                  <td data-label="Views">{a.views.toLocaleString("en-US")}</td>
                  <td className="nowrap" data-label="Created">
                    {formatDate(a.created_at)}
                  </td>
                  <td>
                    <div className="row-actions">
                      {a.editable ? (
                        <Link to={`/admin/articles/edit/${a.id}`} className="button button-secondary button-small" aria-label={`Edit ${a.title}`}>
                          Edit
                        </Link>
                      ) : null}
                      {canPublish ? (
                        a.status === "published" || a.status === "scheduled" ? (
                          <RowAction intent="unpublish" id={a.id} title={a.title} back={back} label="Unpublish" />
                        ) : (
                          <RowAction intent="publish" id={a.id} title={a.title} back={back} label="Publish" />
                        )
                      ) : null}
                      {a.deletable ? <RowAction intent="delete" id={a.id} title={a.title} back={back} label="Delete" danger /> : null}
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      {pages > 1 ? (
        <nav className="pager" aria-label="Сторінки">
          {filters.page > 1 ? <Link to={pageHref(filters.page - 1)}>← Попередня</Link> : null}
          {Array.from({ length: pages }, (_, i) => i + 1)
            .filter((p) => p === 1 || p === pages || Math.abs(p - filters.page) <= 2)
            .map((p) =>
              p === filters.page ? (
                <span key={p} aria-current="page" className="pager-current">
                  {p}
                </span>
              ) : (
                <Link key={p} to={pageHref(p)} aria-label={`Сторінка ${p}`}>
                  {p}
                </Link>
              ),
            )}
          {filters.page < pages ? <Link to={pageHref(filters.page + 1)}>Наступна →</Link> : null}
        </nav>
      ) : null}

      {bulk ? (
        <ConfirmStep
          question={BULK_QUESTIONS[bulk.action](bulk.ids.length)}
          fields={{ intent: "bulk", bulk_action: bulk.action, ids: bulk.ids.join(","), back: bulk.back }}
          confirmLabel={BULK_LABELS[bulk.action]}
          cancelTo={bulk.back}
          danger={bulk.action === "delete"}
        />
      ) : null}
      {confirm ? (
        <ConfirmStep
          question={QUESTIONS[confirm.intent](confirm.title)}
          fields={{ intent: confirm.intent, id: confirm.id, back: confirm.back }}
          confirmLabel={confirm.intent === "delete" ? "Видалити" : confirm.intent === "publish" ? "Опублікувати" : "Зняти з публікації"}
          cancelTo={confirm.back}
          danger={confirm.intent === "delete"}
        />
      ) : null}
    </section>
  );
}

export const meta: MetaFunction = () => [{ title: `${TITLE} — Admin Panel` }];

/** SPEC §8 'Articles': a failed list load offers Retry (a plain link: works without JavaScript). */
export function ErrorBoundary() {
  const location = useLocation();
  return (
    <section className="admin-card" role="alert">
      <h2>{TITLE}</h2>
      <p className="form-error">Error loading articles</p>
      <a href={`${location.pathname}${location.search}`} className="button button-primary">
        Retry
      </a>
    </section>
  );
}
