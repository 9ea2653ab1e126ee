import { Form, useNavigation } from "@remix-run/react";
import { Field } from "~/components/ui/field";
import { isoToKyivLocal } from "~/utils/dates";
import { formatDateTime } from "~/utils/format";
import type { FieldErrors, FormValues } from "~/utils/forms";
import { STATUS_LABELS, type ArticleStatus } from "~/utils/newsroom-rules";
import { PublishForm } from "./publish-form";

// The editorial desk in the editor (issue 14, DESIGN §11): the editor's note to the author, the
// reporter's submit, the editor's return, schedule and unschedule. Plain forms that post to
// /admin/articles/desk/{id} (admin.articles.desk.$id.tsx), so all of it works without JavaScript;
// it sits outside the article's own form (forms do not nest).

export interface DeskPanelProps {
  article: { id: string; status: ArticleStatus; published_at: string | null };
  /** The newest desk note: a return's note is shown to the author until the next submit. */
  note: { kind: "submit" | "return"; note: string | null; created_at: string; by: string | null } | null;
  isAuthor: boolean;
  canPublish: boolean;
  /** Now on the Kyiv wall clock, 'yyyy-MM-ddTHH:mm' (no longer a `min`: a stale time must not block "now"). */
  minLocal: string;
  /** Filled in after a failed post (the desk page). */
  errors?: FieldErrors;
  values?: FormValues;
  formError?: string;
}

export function DeskNotice({ article, note }: Pick<DeskPanelProps, "article" | "note">) {
  if (note?.kind === "return" && article.status === "draft") {
    return (
      <div className="desk-notice desk-returned" role="note">
        <strong>Редактор повернув статтю на доопрацювання</strong>
        <span className="muted small">
          {" "}
          · {note.by ?? "редактор"}, {formatDateTime(note.created_at)}
        </span>
        <p className="desk-note-text">{note.note}</p>
      </div>
    );
  }
  if (note?.kind === "submit" && article.status === "review") {
    return (
      <div className="desk-notice" role="note">
        <strong>На перевірці</strong>
        <span className="muted small">
          {" "}
          · надіслано {formatDateTime(note.created_at)}
          {note.by ? `, ${note.by}` : ""}
        </span>
        {note.note ? <p className="desk-note-text">{note.note}</p> : null}
      </div>
    );
  }
  if (article.status === "scheduled") {
    return (
      <div className="desk-notice" role="note">
        <strong>Заплановано на {formatDateTime(article.published_at)}</strong> <span className="muted small">(за київським часом)</span>
      </div>
    );
  }
  return null;
}

export function DeskPanel(props: DeskPanelProps) {
  const { article, isAuthor, canPublish, errors = {}, values = {}, formError } = props;
  const navigation = useNavigation();
  const action = `/admin/articles/desk/${article.id}`;
  const busy = navigation.state === "submitting" && navigation.formAction === action;
  const canSubmit = isAuthor && article.status === "draft";
  const canReturn = canPublish && article.status === "review";
  const canSchedule = canPublish && article.status !== "published";
  const canUnschedule = canPublish && article.status === "scheduled";
  if (!canSubmit && !canReturn && !canSchedule && !canUnschedule) return null;
  return (
    <section className="editor-panel desk-panel" aria-labelledby="desk-title">
      <h3 id="desk-title">Редакція: {STATUS_LABELS[article.status]}</h3>
      {formError ? (
        <p className="flash flash-error" role="alert">
          {formError}
        </p>
      ) : null}
      <div className="desk-forms">
        {canSubmit ? (
          <Form method="post" action={action} className="desk-form">
            <Field
              as="textarea"
              label="Примітка для редактора (необов'язково)"
              name="note"
              rows={2}
              defaultValue={values.note}
              error={errors.note}
              maxLength={2000}
            />
            <button type="submit" name="intent" value="submit" className="button button-primary" disabled={busy}>
              Надіслати на перевірку
            </button>
          </Form>
        ) : null}
        {canReturn ? (
          <Form method="post" action={action} className="desk-form">
            <Field as="textarea" label="Примітка для автора" name="note" rows={2} defaultValue={values.note} error={errors.note} maxLength={2000} required />
            <button type="submit" name="intent" value="return" className="button button-secondary" disabled={busy}>
              Повернути автору
            </button>
          </Form>
        ) : null}
        {canSchedule ? (
          <PublishForm
            action={action}
            busy={busy}
            scheduledLocal={article.status === "scheduled" ? isoToKyivLocal(article.published_at) : ""}
            errors={errors}
            values={values}
          />
        ) : null}
        {canUnschedule ? (
          <Form method="post" action={action} className="desk-form">
            <button type="submit" name="intent" value="unschedule" className="button button-secondary" disabled={busy}>
              Скасувати планування
            </button>
          </Form>
        ) : null}
      </div>
    </section>
  );
}
