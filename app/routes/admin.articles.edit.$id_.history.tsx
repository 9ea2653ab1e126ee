import { data, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, isRouteErrorResponse, Link, useActionData, useLoaderData, useNavigation, useRouteError } from "@remix-run/react";
import { useHydrated } from "remix-utils/use-hydrated";
import type { AdminHandle } from "~/components/admin/nav";
import { AccessDenied } from "~/components/admin/placeholder";
import { PreviewLinkResult } from "~/components/newsroom/preview-link-button";
import { RevisionDiff } from "~/components/newsroom/revision-diff";
import { ConfirmStep, TimedMessage } from "~/components/newsroom/ui";
import {
  articlePreviewLink,
  articleRevision,
  articleRevisions,
  compareRevision,
  requireArticleToEdit,
  restoreRevision,
} from "~/services/article-history.server";
import { requireUser } from "~/services/auth.server";
import { redirectWithFlash } from "~/services/flash.server";
import styles from "~/styles/newsroom.css";
import { DomainError } from "~/utils/errors";
import { formatDateTime } from "~/utils/format";
import { formFailure } from "~/utils/forms.server";
import { formIntent, UNKNOWN_INTENT } from "~/utils/intent";
import { formatPublicDateTime } from "~/utils/public-format";
import { revisionIdOf } from "~/utils/revision-id";

// Issue 15: an article's history without JavaScript (the editor's History panel is the same with
// it): the list, `?rev=` compares a revision word by word with the current text, and Restore is a
// form post with a confirmation step (a dialog with JavaScript).

const TITLE = "Історія змін";
const PER_PAGE = 20;
export const handle: AdminHandle = { title: TITLE };
export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];

/**
 * The revision of `?rev=` compared with the saved text; undefined for an unknown one. Versions too
 * different (or too large) to compare within the CPU pool's budgets keep the page, with the
 * message in place of the comparison and its status (issue 25).
 */
async function comparison(user: Awaited<ReturnType<typeof requireUser>>, articleId: string, rev: string | null) {
  const revisionId = revisionIdOf(rev);
  if (!revisionId) return undefined;
  try {
    const { revision, diff } = await compareRevision({ actor: user, articleId, revisionId });
    return { revision, diff, refused: null, status: 200 };
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    if (error.status === 404) return undefined;
    if (error.status !== 413 && error.status !== 422) throw error;
    return { revision: await articleRevision({ actor: user, articleId, revisionId }), diff: [], refused: error.message, status: error.status };
  }
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { user, article } = await requireArticleToEdit(request, params.id ?? "");
  const url = new URL(request.url);
  const page = Math.max(1, Math.min(10_000, Number.parseInt(url.searchParams.get("page") ?? "1", 10) || 1));
  const list = await articleRevisions({ actor: user, articleId: article.id, skip: (page - 1) * PER_PAGE, limit: PER_PAGE });
  const revParam = url.searchParams.get("rev");
  const compared = revParam ? await comparison(user, article.id, revParam) : undefined;
  const revision = compared?.revision;
  return data(
    {
      article: { id: article.id, title: article.title, version: article.version },
      revisions: list.data.map((r) => ({ ...r, when: formatDateTime(r.created_at) })),
      total: list.total,
      page,
      pages: Math.max(1, Math.ceil(list.total / PER_PAGE)),
      // Only what the page shows: the texts themselves travel once, inside the diff's parts.
      revision: revision ? { id: revision.id, author: revision.author, when: formatDateTime(revision.created_at) } : null,
      diff: compared?.diff ?? [],
      refused: compared?.refused ?? null,
      missingRevision: Boolean(revParam && !revision),
    },
    { status: compared?.status ?? 200 },
  );
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { user, article } = await requireArticleToEdit(request, params.id ?? "");
  const form = await request.formData();
  const intent = formIntent(form, ["restore", "preview-link", "preview-replace", "preview-revoke"]);
  if (!intent) return formFailure({ formError: UNKNOWN_INTENT }, 400);
  // The editor's "Посилання для перегляду" without JavaScript posts here (issue 15); a live link
  // is replaced only by "Замінити посилання" (issue 31 item 10), else the 409's message.
  if (intent === "preview-link" || intent === "preview-replace") {
    try {
      const previewLink = await articlePreviewLink({ actor: user, articleId: article.id, replace: intent === "preview-replace" });
      return data({ ok: true as const, previewLink });
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      return formFailure({ formError: error.message }, error.status);
    }
  }
  if (intent === "preview-revoke") {
    await articlePreviewLink({ actor: user, articleId: article.id, revoke: true });
    return data({ ok: true as const, previewRevoked: true });
  }
  const revisionId = revisionIdOf(String(form.get("rev") ?? ""));
  if (!revisionId) return formFailure({ formError: "Версію не знайдено" }, 404);
  const version = Number.parseInt(String(form.get("version") ?? ""), 10);
  // Without JavaScript the confirmation is a step of its own (SPEC §8 'Confirmations').
  if (form.get("confirmed") !== "1") return data({ ok: true as const, confirm: { rev: revisionId, version: String(version || "") } });
  let restored: Awaited<ReturnType<typeof articleRevision>>;
  try {
    restored = await articleRevision({ actor: user, articleId: article.id, revisionId });
    await restoreRevision({ actor: user, articleId: article.id, revisionId, version: Number.isSafeInteger(version) && version > 0 ? version : undefined });
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return formFailure({ formError: error.message }, error.status);
  }
  // Issue 31 item 17: back in the editor, which says what happened (the editor's panel posts here too).
  return redirectWithFlash(
    request,
    `/admin/articles/edit/${article.id}`,
    `Відновлено версію від ${formatPublicDateTime(restored.created_at)}: її текст збережено як нову версію статті`,
  );
}

export default function ArticleHistory() {
  const { article, revisions, total, page, pages, revision, diff, refused, missingRevision } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const hydrated = useHydrated();
  const navigation = useNavigation();
  const confirm = result && "confirm" in result ? result.confirm : null;
  const formError = result && "formError" in result ? (result.formError as string | undefined) : undefined;
  const previewLink = result && "previewLink" in result ? result.previewLink : null;
  return (
    <section className="admin-card newsroom history-page" aria-labelledby="history-title">
      <div className="toolbar">
        <Link to={`/admin/articles/edit/${article.id}`} className="button button-secondary">
          ← До редактора
        </Link>
        <h2 id="history-title">
          {TITLE}: «{article.title}»
        </h2>
      </div>
      <TimedMessage message={formError} tone="error" ms={15_000} />
      {previewLink?.url ? <PreviewLinkResult link={{ url: previewLink.url, expires_at: previewLink.expires_at }} articleId={article.id} /> : null}
      {result && "previewRevoked" in result ? (
        <p className="flash flash-ok" role="status">
          Посилання відкликано: воно більше не відкривається.
        </p>
      ) : null}
      {missingRevision ? (
        <p className="flash flash-error" role="alert">
          Такої версії немає: можливо, її вже видалено (зберігаються останні 100 версій).
        </p>
      ) : null}

      {revision ? (
        <section className="admin-card history-compare" aria-labelledby="compare-title">
          <h3 id="compare-title">
            Версія від {revision.when}
            {revision.author ? `, ${revision.author.name || revision.author.username}` : ""}, порівняно з поточним текстом
          </h3>
          {refused ? (
            <p className="flash flash-error" role="alert">
              {refused}
            </p>
          ) : (
            <RevisionDiff fields={diff} />
          )}
          <Form
            method="post"
            className="editor-actions"
            onSubmit={(event) => {
              if (!window.confirm(RESTORE_QUESTION(revision.when))) event.preventDefault();
            }}
          >
            <input type="hidden" name="rev" value={revision.id} />
            <input type="hidden" name="version" value={article.version} />
            <input type="hidden" name="confirmed" value={hydrated ? "1" : ""} />
            <button type="submit" name="intent" value="restore" className="button button-primary" disabled={navigation.state !== "idle"}>
              Відновити цю версію
            </button>
            <Link to="?" className="button button-secondary">
              Закрити порівняння
            </Link>
          </Form>
        </section>
      ) : null}

      {total === 0 ? (
        <p className="empty-state">Історії ще немає: версії з’являються, коли статтю зберігають.</p>
      ) : (
        <ol className="revision-list" aria-label="Версії статті, новіші вгорі">
          {revisions.map((r) => (
            <li key={r.id} className={revision?.id === r.id ? "revision-item current" : "revision-item"}>
              <div>
                <strong>{r.when}</strong> · {r.author ? r.author.name || r.author.username : "невідомий автор"}
                <br />
                <span className="muted small">
                  {r.summary} · «{r.title}»
                </span>
              </div>
              <Link
                to={`?rev=${r.id}${page > 1 ? `&page=${page}` : ""}`}
                className="button button-secondary button-small"
                aria-label={`Порівняти версію від ${r.when}`}
              >
                Порівняти
              </Link>
            </li>
          ))}
        </ol>
      )}
      {pages > 1 ? (
        <nav className="pagination" aria-label="Сторінки історії">
          {page > 1 ? <Link to={`?page=${page - 1}`}>← Новіші</Link> : null}
          <span>
            {page} / {pages}
          </span>
          {page < pages ? <Link to={`?page=${page + 1}`}>Старіші →</Link> : null}
        </nav>
      ) : null}

      {confirm ? (
        <ConfirmStep
          question={RESTORE_QUESTION(revision?.when ?? "")}
          fields={{ intent: "restore", rev: String(confirm.rev), version: confirm.version }}
          confirmLabel="Відновити"
          cancelTo={`?rev=${confirm.rev}`}
        />
      ) : null}
    </section>
  );
}

const RESTORE_QUESTION = (when: string) =>
  `Відновити версію${when ? ` від ${when}` : ""}? Її текст буде збережено як нову версію статті; поточний текст залишиться в історії.`;

export const meta: MetaFunction = () => [{ title: `${TITLE} — Admin Panel` }];

export function ErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 403) return <AccessDenied />;
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return (
    <section className="admin-card" role="alert">
      <h2>{notFound ? "Статтю не знайдено" : "Помилка завантаження історії"}</h2>
      <p>
        Поверніться до <Link to="/admin/articles">списку статей</Link>.
      </p>
    </section>
  );
}
