import { Form, useNavigation } from "@remix-run/react";
import type { PublicComment } from "~/models/comment.server";
import { COMMENT_LIMITS, commentParagraphs } from "~/utils/comment-text";

// The comments under an article (issue 28, docs/decisions/026-comments.md): plain `<Form method="post">`s
// that work without JavaScript (Remix enhances them), replies one level deep in a <details> per
// comment, and the reader's own recent comments with their delete button. The kept page shows
// the same to every reader; the reader's own comments appear only on a page rendered for them
// (their comment_token cookie makes the page store step aside for 15 minutes).

export interface CommentFormResult {
  ok: boolean;
  message: string;
  /** The reply's parent, or "" for the main form: where the message belongs. */
  form: string;
  errors?: Record<string, string>;
  values?: Record<string, string>;
  stamp?: string;
}

interface Section {
  state: "open" | "closed";
  comments: PublicComment[];
  own: (PublicComment & { status: string })[];
  stamp: string;
}

/** A comment's text: paragraphs, line breaks and links, every character escaped by React. */
export function CommentBody({ body }: { body: string }) {
  return (
    <div className="comment-body">
      {commentParagraphs(body).map((lines, p) => (
        <p key={p}>
          {lines.map((pieces, l) => (
            <span key={l}>
              {l > 0 ? <br /> : null}
              {pieces.map((piece, i) =>
                "href" in piece ? (
                  <a key={i} href={piece.href} rel="nofollow ugc noopener noreferrer" target="_blank">
                    {piece.href}
                  </a>
                ) : (
                  <span key={i}>{piece.text}</span>
                ),
              )}
            </span>
          ))}
        </p>
      ))}
    </div>
  );
}

export function CommentsSection({ section, result }: { section: Section; result?: CommentFormResult }) {
  const ownIds = new Set(section.own.map((c) => c.id));
  const top = section.comments.filter((c) => !c.parent_id);
  const repliesOf = (id: string) => section.comments.filter((c) => c.parent_id === id);
  const pendingOwn = section.own.filter((c) => c.status === "pending");
  const stamp = result?.stamp ?? section.stamp;
  return (
    <section className="comments" id="comments" aria-labelledby="comments-title">
      <h2 id="comments-title">Коментарі {section.comments.length ? <span className="comments-count">({section.comments.length})</span> : null}</h2>
      {result && result.form === "delete" ? (
        <p className={result.ok ? "comment-notice" : "comment-notice comment-notice-error"} role="status">
          {result.message}
        </p>
      ) : null}
      {pendingOwn.length ? (
        <div className="comment-own" role="status">
          {pendingOwn.map((c) => (
            <div key={c.id} className="comment comment-pending" id={`comment-${c.id}`}>
              <p className="comment-notice">Коментар очікує на модерацію.</p>
              <p className="comment-meta">
                <strong>{c.author_name}</strong> · <time dateTime={c.created_at}>{c.time}</time>
              </p>
              <CommentBody body={c.body} />
              <DeleteOwn id={c.id} />
            </div>
          ))}
        </div>
      ) : null}
      {top.length ? (
        <ol className="comment-list">
          {top.map((c) => (
            <li key={c.id}>
              <CommentItem comment={c} own={ownIds.has(c.id)} />
              {repliesOf(c.id).length ? (
                <ol className="comment-replies" aria-label={`Відповіді на коментар ${c.author_name}`}>
                  {repliesOf(c.id).map((r) => (
                    <li key={r.id}>
                      <CommentItem comment={r} own={ownIds.has(r.id)} />
                    </li>
                  ))}
                </ol>
              ) : null}
              {section.state === "open" ? (
                <details key={section.own.length} className="comment-reply" open={Boolean(result && result.form === c.id && !result.ok)}>
                  <summary>Відповісти</summary>
                  <CommentForm key={section.own.length} parentId={c.id} stamp={stamp} result={result?.form === c.id ? result : undefined} />
                </details>
              ) : null}
            </li>
          ))}
        </ol>
      ) : (
        <p className="muted">{section.state === "open" ? "Коментарів ще немає. Будьте першими!" : "Коментарів немає."}</p>
      )}
      {section.state === "open" ? (
        <>
          <h3 id="comment-form-title">Залишити коментар</h3>
          <CommentForm key={section.own.length} parentId="" stamp={stamp} result={result?.form === "" ? result : undefined} />
        </>
      ) : (
        <p className="comment-closed">Коментарі до цієї статті закрито.</p>
      )}
    </section>
  );
}

function CommentItem({ comment, own }: { comment: PublicComment; own: boolean }) {
  return (
    <article className="comment" id={`comment-${comment.id}`} aria-label={`Коментар ${comment.author_name}`}>
      <p className="comment-meta">
        <strong>{comment.author_name}</strong> · <time dateTime={comment.created_at}>{comment.time}</time>
        {own ? <span className="comment-own-badge"> · ваш коментар</span> : null}
      </p>
      <CommentBody body={comment.body} />
      {own ? <DeleteOwn id={comment.id} /> : null}
    </article>
  );
}

function DeleteOwn({ id }: { id: string }) {
  return (
    <Form method="post" preventScrollReset className="comment-delete">
      <input type="hidden" name="intent" value="delete-comment" />
      <input type="hidden" name="comment_id" value={id} />
      <button type="submit" className="link-button">
        Видалити мій коментар
      </button>
      <span className="muted small"> (протягом 15 хвилин після надсилання)</span>
    </Form>
  );
}

function CommentForm({ parentId, stamp, result }: { parentId: string; stamp: string; result?: CommentFormResult }) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("parent_id") === parentId && navigation.formData?.get("intent") === "comment";
  const prefix = parentId ? `reply-${parentId}-` : "comment-";
  const errors = result?.errors ?? {};
  const values = result?.values ?? {};
  const described = (name: string) => (errors[name] ? `${prefix}${name}-error` : undefined);
  return (
    <Form method="post" preventScrollReset className="comment-form" aria-label={parentId ? "Відповідь на коментар" : "Новий коментар"}>
      <input type="hidden" name="intent" value="comment" />
      <input type="hidden" name="parent_id" value={parentId} />
      <input type="hidden" name="stamp" value={stamp} />
      {result && !result.ok ? (
        <p className="comment-notice comment-notice-error" role="alert">
          {result.message}
        </p>
      ) : null}
      <div className="field">
        <label htmlFor={`${prefix}author_name`}>Ім&rsquo;я *</label>
        <input
          id={`${prefix}author_name`}
          name="author_name"
          required
          maxLength={COMMENT_LIMITS.name}
          autoComplete="name"
          defaultValue={values.author_name}
          aria-invalid={errors.author_name ? true : undefined}
          aria-describedby={described("author_name")}
        />
        {errors.author_name ? (
          <p id={`${prefix}author_name-error`} className="field-error">
            {errors.author_name}
          </p>
        ) : null}
      </div>
      <div className="field">
        <label htmlFor={`${prefix}author_email`}>Email (не показується)</label>
        <input
          id={`${prefix}author_email`}
          name="author_email"
          type="email"
          maxLength={COMMENT_LIMITS.email}
          autoComplete="email"
          defaultValue={values.author_email}
          aria-invalid={errors.author_email ? true : undefined}
          aria-describedby={described("author_email")}
        />
        {errors.author_email ? (
          <p id={`${prefix}author_email-error`} className="field-error">
            {errors.author_email}
          </p>
        ) : null}
      </div>
      {/* The honeypot: people never see or reach it; a script that fills every field is caught. */}
      <div className="comment-hp" aria-hidden="true">
        <label htmlFor={`${prefix}website`}>Не заповнюйте це поле</label>
        <input id={`${prefix}website`} name="website" tabIndex={-1} autoComplete="off" defaultValue="" />
      </div>
      <div className="field">
        <label htmlFor={`${prefix}body`}>Коментар *</label>
        <textarea
          id={`${prefix}body`}
          name="body"
          required
          rows={parentId ? 3 : 5}
          maxLength={COMMENT_LIMITS.body}
          defaultValue={values.body}
          aria-invalid={errors.body ? true : undefined}
          aria-describedby={[described("body"), `${prefix}body-hint`].filter(Boolean).join(" ")}
        />
        <p id={`${prefix}body-hint`} className="muted small">
          Лише текст: абзаци зберігаються, адреси сайтів стануть посиланнями.
        </p>
        {errors.body ? (
          <p id={`${prefix}body-error`} className="field-error">
            {errors.body}
          </p>
        ) : null}
      </div>
      <button type="submit" className="button button-primary" disabled={busy}>
        {busy ? "Надсилання…" : parentId ? "Надіслати відповідь" : "Надіслати коментар"}
      </button>
    </Form>
  );
}
