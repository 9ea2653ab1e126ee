import { Form } from "@remix-run/react";
import { useState } from "react";
import { useHydrated } from "remix-utils/use-hydrated";
import { formatDateTime } from "~/utils/format";

// "Посилання для перегляду" (issue 15): a link that shows the article, as readers would see it,
// to someone outside the newsroom for 7 days. With JavaScript it calls
// POST /api/articles/{id}/preview-link; without it, the form posts to the History page's action,
// which calls the same model function.

interface Link {
  url: string;
  expires_at: string;
}

export function PreviewLinkButton({ articleId }: { articleId: string }) {
  const hydrated = useHydrated();
  const [link, setLink] = useState<Link | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function call(revoke: boolean) {
    setError(null);
    setNote(null);
    const res = await fetch(`/api/articles/${articleId}/preview-link`, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(revoke ? { revoke: true } : {}),
    });
    const body = await res.json().catch(() => null);
    if (!res.ok) return setError(body?.detail ?? "Не вдалося створити посилання");
    if (revoke) {
      setLink(null);
      setNote("Посилання відкликано: воно більше не відкривається.");
    } else setLink(body);
  }

  if (!hydrated) {
    return (
      <Form method="post" action={`/admin/articles/edit/${articleId}/history`}>
        <button type="submit" name="intent" value="preview-link" className="button button-secondary button-small">
          Посилання для перегляду
        </button>
      </Form>
    );
  }
  return (
    <div className="preview-link">
      <button type="button" className="button button-secondary button-small" onClick={() => void call(false)}>
        Посилання для перегляду
      </button>
      {link ? <PreviewLinkResult link={link} onRevoke={() => void call(true)} /> : null}
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

/** The link just made (shown once: only its hash is kept), with its end and a way to revoke it. */
export function PreviewLinkResult({ link, onRevoke, articleId }: { link: Link; onRevoke?: () => void; articleId?: string }) {
  return (
    <div className="flash flash-ok preview-link-result" role="status">
      <p>
        Посилання для перегляду (діє до {formatDateTime(link.expires_at)}):{" "}
        <a href={link.url} target="_blank" rel="noreferrer" data-testid="preview-url">
          {link.url}
        </a>
      </p>
      <p className="muted small">Збережіть його зараз: повторно показати це посилання неможливо, лише створити нове (старе тоді перестане діяти).</p>
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
