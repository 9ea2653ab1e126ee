import { Form } from "@remix-run/react";
import { useId, useRef, useState } from "react";
import { useHydrated } from "remix-utils/use-hydrated";
import { formatPublicDateTime } from "~/utils/public-format";

// "Посилання для перегляду" (issue 15): a link that shows the article, as readers would see it,
// to someone outside the newsroom for 7 days. With JavaScript it calls
// POST /api/articles/{id}/preview-link; without it, the form posts to the History page's action,
// which calls the same model function.
// Issue 31 item 10: the token is kept hashed, so a link is shown once, when made, with a copy
// button; afterwards the editor only says that a link is live and until when. A second link
// replaces the first only on request, after a warning that the old one stops working.

interface Link {
  url: string;
  expires_at: string;
}

const REPLACE_WARNING = "Нове посилання замінить чинне: старе, вже надіслане комусь, перестане відкриватися.";

export function PreviewLinkButton({ articleId, live }: { articleId: string; live: { expires_at: string } | null }) {
  const hydrated = useHydrated();
  const [link, setLink] = useState<Link | null>(null);
  const [liveUntil, setLiveUntil] = useState<string | null>(live?.expires_at ?? null);
  const [note, setNote] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const historyAction = `/admin/articles/edit/${articleId}/history`;

  async function call(body: { revoke?: true; replace?: true }) {
    setError(null);
    setNote(null);
    const res = await fetch(`/api/articles/${articleId}/preview-link`, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    const answer = await res.json().catch(() => null);
    if (!res.ok) return setError(answer?.detail ?? "Не вдалося створити посилання");
    if (body.revoke) {
      setLink(null);
      setLiveUntil(null);
      setNote("Посилання відкликано: воно більше не відкривається.");
    } else {
      setLink(answer);
      setLiveUntil(answer.expires_at);
    }
  }

  if (!hydrated) {
    return live ? (
      <div className="preview-link">
        <LiveLinkNote expiresAt={live.expires_at} />
        <Form method="post" action={historyAction} className="preview-link-actions">
          <p className="muted small">{REPLACE_WARNING}</p>
          <button type="submit" name="intent" value="preview-replace" className="button button-secondary button-small">
            Замінити посилання
          </button>
          <button type="submit" name="intent" value="preview-revoke" className="button button-secondary button-small">
            Відкликати посилання
          </button>
        </Form>
      </div>
    ) : (
      <Form method="post" action={historyAction}>
        <button type="submit" name="intent" value="preview-link" className="button button-secondary button-small">
          Посилання для перегляду
        </button>
      </Form>
    );
  }
  return (
    <div className="preview-link">
      {link ? (
        <PreviewLinkResult link={link} onRevoke={() => void call({ revoke: true })} />
      ) : liveUntil ? (
        <>
          <LiveLinkNote expiresAt={liveUntil} />
          <div className="preview-link-actions">
            <button
              type="button"
              className="button button-secondary button-small"
              onClick={() => {
                if (window.confirm(`${REPLACE_WARNING} Створити нове посилання?`)) void call({ replace: true });
              }}
            >
              Замінити посилання
            </button>
            <button type="button" className="button button-secondary button-small" onClick={() => void call({ revoke: true })}>
              Відкликати посилання
            </button>
          </div>
        </>
      ) : (
        <button type="button" className="button button-secondary button-small" onClick={() => void call({})}>
          Посилання для перегляду
        </button>
      )}
      {note ? (
        <p className="flash flash-ok" role="status">
          {note}
        </p>
      ) : null}
      {error ? (
        <p className="flash flash-error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}

function LiveLinkNote({ expiresAt }: { expiresAt: string }) {
  return (
    <p className="small" data-testid="preview-live">
      {`Посилання для перегляду діє до ${formatPublicDateTime(expiresAt)}.`} Його показують лише раз, коли створюють; якщо воно загубилося, замініть його.
    </p>
  );
}

/** The link just made (shown once: only its hash is kept), with a copy button, its end and a way to revoke it. */
export function PreviewLinkResult({ link, onRevoke, articleId }: { link: Link; onRevoke?: () => void; articleId?: string }) {
  const hydrated = useHydrated();
  const fieldId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState<string | null>(null);

  async function copy() {
    try {
      // Only in a secure context (https or localhost); elsewhere the field below is the way.
      if (!navigator.clipboard) throw new Error("no clipboard");
      await navigator.clipboard.writeText(link.url);
      setCopied("Посилання скопійовано.");
    } catch {
      input.current?.select();
      setCopied("Не вдалося скопіювати автоматично: посилання виділено в полі, натисніть Ctrl+C (⌘C).");
    }
  }

  return (
    <div className="flash flash-ok preview-link-result">
      <p>
        {`Посилання для перегляду створено (діє до ${formatPublicDateTime(link.expires_at)}):`}{" "}
        <a href={link.url} target="_blank" rel="noreferrer" data-testid="preview-url">
          {link.url}
        </a>
      </p>
      <div className="preview-link-copy">
        <label htmlFor={fieldId} className="small">
          Посилання для копіювання
        </label>
        <input id={fieldId} ref={input} type="text" readOnly value={link.url} onFocus={(event) => event.currentTarget.select()} />
        {hydrated ? (
          <button type="button" className="button button-primary button-small" onClick={() => void copy()}>
            Копіювати посилання
          </button>
        ) : null}
      </div>
      {/* Announced to screen readers when the copy is done (or failed). */}
      <p className="small" role="status" aria-live="polite">
        {copied ?? ""}
      </p>
      <p className="muted small">Збережіть його зараз: повторно показати це посилання неможливо, лише замінити новим (старе тоді перестане діяти).</p>
      {onRevoke ? (
        <button type="button" className="button button-secondary button-small" onClick={onRevoke}>
          Відкликати посилання
        </button>
      ) : articleId ? (
        <Form method="post" action={`/admin/articles/edit/${articleId}/history`}>
          <button type="submit" name="intent" value="preview-revoke" className="button button-secondary button-small">
            Відкликати посилання
          </button>
        </Form>
      ) : null}
    </div>
  );
}
