import { data, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useLoaderData, useNavigation } from "@remix-run/react";
import { z } from "zod";
import type { AdminHandle } from "~/components/admin/nav";
import { CommentBody } from "~/components/public/comments-section";
import { Field } from "~/components/ui/field";
import {
  CommentFilterSchema,
  CommentsModeSchema,
  countCommentsByStatus,
  deleteCommentForGood,
  listComments,
  moderateComments,
  setCommentsMode,
} from "~/models/comment.server";
import { requireRole } from "~/services/auth.server";
import { redirectWithFlash, takeFlash } from "~/services/flash.server";
import styles from "~/styles/newsroom.css";
import { COMMENT_STATUS_LABELS, COMMENT_STATUSES } from "~/utils/comment-statuses";
import { DomainError } from "~/utils/errors";
import { formatDateTimeSeconds } from "~/utils/format";
import { formFailure } from "~/utils/forms.server";
import { SCREEN_ROLES } from "~/utils/roles";
import { safePath } from "~/utils/safe-path";

// Comment moderation (issue 28 item 2, DESIGN §15; editors and admins): the four queues, a search,
// one article's comments (?article_id=), and bulk approve / spam / delete with checkboxes in one
// GET-filtered, POST-acting screen that works without JavaScript. The JSON door is /api/comments.

const TITLE = "Коментарі";
const PAGE_SIZE = 50;
export const handle: AdminHandle = { title: TITLE };
export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];

const ROLES = SCREEN_ROLES["/admin/comments"];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, ROLES);
  const params = new URL(request.url).searchParams;
  const raw = { status: params.get("status") ?? "", article_id: params.get("article_id") ?? "", q: params.get("q") ?? "" };
  const page = Math.max(1, Math.min(1_000_000, Number.parseInt(params.get("page") ?? "1", 10) || 1));
  const parsed = CommentFilterSchema.safeParse(raw);
  const filter = parsed.success ? parsed.data : CommentFilterSchema.parse({});
  const [{ comments, total }, counts, { flash, headers }] = await Promise.all([
    listComments({ filter, skip: (page - 1) * PAGE_SIZE, limit: PAGE_SIZE }),
    countCommentsByStatus({ articleId: filter.article_id }),
    takeFlash(request),
  ]);
  const article = filter.article_id ? { id: filter.article_id, title: comments[0]?.article_title ?? null } : null;
  return data(
    { filter, comments, total, counts, page, pages: Math.max(1, Math.ceil(total / PAGE_SIZE)), flash, article, invalid: !parsed.success },
    { headers },
  );
}

const BULK = { approve: "approved", pending: "pending", spam: "spam", delete: "deleted" } as const;
const ModerateFormSchema = z.object({
  intent: z.enum(["approve", "pending", "spam", "delete", "purge"], { errorMap: () => ({ message: "Оберіть дію" }) }),
  ids: z.array(z.string().uuid()).min(1, "Позначте хоча б один коментар").max(200, "Не більше 200 коментарів за раз"),
});

const DONE: Record<string, string> = {
  approve: "Схвалено",
  pending: "Повернуто в очікування",
  spam: "Позначено як спам",
  delete: "Перенесено до видалених",
  purge: "Видалено назавжди",
};

// The editor's per-article switch (components/newsroom/comments-mode-control.tsx) posts here too.
const ModeFormSchema = z.object({ article_id: z.string().uuid(), comments_mode: CommentsModeSchema });
const MODE_LABELS = { open: "відкриті", closed: "закриті", hidden: "приховані" } as const;

async function setMode(request: Request, actor: Awaited<ReturnType<typeof requireRole>>, form: FormData) {
  const parsed = ModeFormSchema.safeParse({ article_id: form.get("article_id"), comments_mode: form.get("comments_mode") });
  if (!parsed.success) return formFailure({ formError: "Оберіть: відкриті, закриті або приховані" }, 400);
  const { article_id: articleId, comments_mode: mode } = parsed.data;
  try {
    await setCommentsMode({ articleId, mode, actor });
  } catch (error) {
    if (error instanceof DomainError && error.status === 404) throw new Response("Статтю не знайдено", { status: 404 });
    throw error;
  }
  return redirectWithFlash(request, `/admin/articles/edit/${articleId}`, `Коментарі до статті: ${MODE_LABELS[mode]}`);
}

export async function action({ request }: ActionFunctionArgs) {
  const actor = await requireRole(request, ROLES);
  const form = await request.formData();
  if (form.get("intent") === "mode") return setMode(request, actor, form);
  const parsed = ModerateFormSchema.safeParse({ intent: form.get("intent"), ids: form.getAll("ids").map(String) });
  if (!parsed.success) return formFailure({ formError: parsed.error.issues[0]?.message ?? "Перевірте форму" }, 400);
  const { intent, ids } = parsed.data;
  let count = 0;
  if (intent === "purge") {
    for (const id of ids) if (await deleteCommentForGood({ id, actor })) count++;
  } else {
    count = (await moderateComments({ ids, status: BULK[intent], actor })).changed;
  }
  const back = safePath(form.get("back"), "/admin/comments", "/admin/comments");
  return redirectWithFlash(request, back, `${DONE[intent]}: ${count}`);
}

export default function CommentsScreen() {
  const { filter, comments, total, counts, page, pages, flash, article, invalid } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const query = (changes: Record<string, string | undefined>) => {
    const params = new URLSearchParams();
    const merged = { status: filter.status, article_id: filter.article_id, q: filter.q, ...changes };
    for (const [key, value] of Object.entries(merged)) if (value) params.set(key, value);
    return `?${params}`;
  };
  const back = `/admin/comments${query({ page: page > 1 ? String(page) : undefined })}`;
  const busy = navigation.state === "submitting";

  return (
    <section className="admin-card newsroom comments-admin" aria-labelledby="comments-title">
      <div className="toolbar">
        <h2 id="comments-title">{article ? `Коментарі до статті «${article.title ?? "без коментарів у цій черзі"}»` : TITLE}</h2>
        {article ? (
          <Link to={query({ article_id: undefined })} className="button button-secondary">
            Усі статті
          </Link>
        ) : null}
      </div>
      {flash ? (
        <p className="flash" role="status">
          {flash}
        </p>
      ) : null}
      {invalid ? <p className="field-error">Невідомий фільтр: показано чергу «Очікують».</p> : null}

      <nav className="queue-tabs" aria-label="Черги коментарів">
        <ul>
          {COMMENT_STATUSES.map((status) => (
            <li key={status}>
              <Link to={query({ status, q: filter.q })} aria-current={filter.status === status ? "page" : undefined}>
                {COMMENT_STATUS_LABELS[status]} <span className="badge">{counts[status]}</span>
              </Link>
            </li>
          ))}
        </ul>
      </nav>

      <Form method="get" className="filters" role="search" aria-label="Пошук коментарів">
        <input type="hidden" name="status" value={filter.status} />
        {filter.article_id ? <input type="hidden" name="article_id" value={filter.article_id} /> : null}
        <Field label="Пошук (ім'я, email, текст)" name="q" type="search" defaultValue={filter.q ?? ""} key={filter.q ?? ""} />
        <button type="submit" className="button button-secondary">
          Знайти
        </button>
      </Form>

      <p className="muted small" aria-live="polite">
        {total ? `Знайдено: ${total}` : null}
      </p>

      {comments.length === 0 ? (
        <p className="empty-state">{filter.q ? "Нічого не знайдено." : `У черзі «${COMMENT_STATUS_LABELS[filter.status]}» коментарів немає.`}</p>
      ) : (
        <Form method="post" className="comments-moderation">
          <input type="hidden" name="back" value={back} />
          <fieldset className="bulk-bar" disabled={busy}>
            <legend className="visually-hidden">Дії з позначеними коментарями</legend>
            {filter.status !== "approved" ? (
              <button type="submit" name="intent" value="approve" className="button button-primary">
                Схвалити
              </button>
            ) : null}
            {filter.status !== "spam" ? (
              <button type="submit" name="intent" value="spam" className="button button-secondary">
                Спам
              </button>
            ) : null}
            {filter.status !== "deleted" ? (
              <button type="submit" name="intent" value="delete" className="button button-secondary">
                Видалити
              </button>
            ) : (
              <button type="submit" name="intent" value="purge" className="button button-danger">
                Видалити назавжди
              </button>
            )}
            {filter.status !== "pending" ? (
              <button type="submit" name="intent" value="pending" className="button button-secondary">
                До очікування
              </button>
            ) : null}
          </fieldset>
          <ul className="comment-queue">
            {comments.map((c) => (
              <li key={c.id} className="comment-queue-item">
                <input type="checkbox" name="ids" value={c.id} id={`pick-${c.id}`} aria-label={`Позначити коментар ${c.author_name}`} />
                <div>
                  <p className="comment-meta">
                    <label htmlFor={`pick-${c.id}`}>
                      <strong>{c.author_name}</strong>
                    </label>
                    {c.author_email ? <span className="muted"> · {c.author_email}</span> : null}
                    <span className="muted"> · {c.ip ?? "адреса невідома"}</span>
                    <span className="muted"> · {formatDateTimeSeconds(c.created_at)}</span>
                    {c.parent_id ? <span className="muted"> · відповідь</span> : null}
                    {c.held_reason ? <span className="badge badge-warning"> {HELD[c.held_reason] ?? c.held_reason}</span> : null}
                  </p>
                  <CommentBody body={c.body} />
                  <p className="small">
                    Стаття:{" "}
                    <a href={`/article/${encodeURIComponent(c.article_slug)}#comments`} target="_blank" rel="noreferrer">
                      {c.article_title}
                    </a>{" "}
                    · <Link to={query({ article_id: c.article_id, q: undefined, page: undefined })}>усі коментарі до статті</Link>
                    {c.moderated_by ? <span className="muted"> · модерував(ла) {c.moderated_by}</span> : null}
                  </p>
                </div>
              </li>
            ))}
          </ul>
        </Form>
      )}

      {pages > 1 ? (
        <nav className="pager" aria-label="Сторінки черги">
          {Array.from({ length: pages }, (_, i) => i + 1).map((p) =>
            p === page ? (
              <span key={p} aria-current="page" className="pager-current">
                {p}
              </span>
            ) : (
              <Link key={p} to={query({ page: String(p) })}>
                {p}
              </Link>
            ),
          )}
        </nav>
      ) : null}
    </section>
  );
}

const HELD: Record<string, string> = {
  honeypot: "пастка для ботів",
  links: "забагато посилань",
  blocklist: "заборонене слово",
};
