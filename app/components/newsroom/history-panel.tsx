import { Link, useFetcher } from "@remix-run/react";
import { useState } from "react";
import { useHydrated } from "remix-utils/use-hydrated";
import { formatDateTime } from "~/utils/format";
import type { DiffField } from "~/utils/revision-diff";
import { RevisionDiff } from "./revision-diff";

// The editor's History panel (issue 15). Without JavaScript it is a link to the History page
// (/admin/articles/edit/{id}/history); with it, the panel lists the revisions from the API,
// compares one word by word with the saved text (the server computes the diff in its CPU pool,
// issue 25: the tab never runs a quadratic diff) and restores it after a confirmation dialog.

interface Item {
  id: number;
  created_at: string;
  author: { username: string; name: string | null } | null;
  title: string;
  summary: string;
}

export function HistoryPanel({ articleId, version }: { articleId: string; version: number }) {
  const hydrated = useHydrated();
  const [open, setOpen] = useState(false);
  const [items, setItems] = useState<Item[] | null>(null);
  const [total, setTotal] = useState(0);
  const [chosen, setChosen] = useState<{ id: number; created_at: string; diff: DiffField[] } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const fetcher = useFetcher<{ formError?: string }>();
  const pageUrl = `/admin/articles/edit/${articleId}/history`;

  if (!hydrated) {
    return (
      <Link to={pageUrl} className="button button-secondary button-small">
        Історія змін
      </Link>
    );
  }

  async function load(skip = 0) {
    setError(null);
    const res = await fetch(`/api/articles/${articleId}/revisions?limit=20&skip=${skip}`, { credentials: "same-origin" });
    const body = await res.json().catch(() => null);
    if (!res.ok) return setError(body?.detail ?? "Не вдалося завантажити історію");
    setItems((old) => (skip && old ? [...old, ...body.data] : body.data));
    setTotal(body.total);
  }
  async function compare(id: number) {
    setError(null);
    const res = await fetch(`/api/articles/${articleId}/revisions/${id}?compare=current`, { credentials: "same-origin" });
    const body = await res.json().catch(() => null);
    if (!res.ok) return setError(body?.detail ?? "Не вдалося завантажити версію");
    setChosen({ id: body.id, created_at: body.created_at, diff: body.diff });
  }
  // Issue 31 item 17: the restore posts to the History page's action (as without JavaScript),
  // which answers with a redirect to the editor and its flash "Відновлено версію від …".
  function restore(id: number, createdAt: string) {
    if (
      !window.confirm(
        `Відновити версію від ${formatDateTime(createdAt)}? Її текст буде збережено як нову версію статті; незбережені зміни в редакторі буде втрачено.`,
      )
    )
      return;
    setError(null);
    fetcher.submit({ intent: "restore", rev: String(id), version: String(version), confirmed: "1" }, { method: "post", action: pageUrl });
  }
  const restoreError = fetcher.state === "idle" && fetcher.data && "formError" in fetcher.data ? String(fetcher.data.formError) : null;
  const busy = fetcher.state !== "idle";

  return (
    <>
      <button
        type="button"
        className="button button-secondary button-small"
        aria-expanded={open}
        aria-controls="history-panel"
        onClick={() => {
          setOpen(!open);
          if (!open) void load();
        }}
      >
        Історія змін
      </button>
      {open ? (
        <div id="history-panel" className="admin-card history-panel" role="region" aria-label="Історія змін">
          <div className="toolbar">
            <h3>Історія змін</h3>
            <Link to={pageUrl} className="muted small">
              Окрема сторінка історії
            </Link>
          </div>
          {error || restoreError ? (
            <p className="flash flash-error" role="alert">
              {error ?? restoreError}
            </p>
          ) : null}
          {chosen ? (
            <section aria-label="Порівняння">
              <h4>Версія від {formatDateTime(chosen.created_at)} порівняно з поточним збереженим текстом</h4>
              <RevisionDiff fields={chosen.diff} />
              <div className="editor-actions">
                <button type="button" className="button button-primary button-small" disabled={busy} onClick={() => void restore(chosen.id, chosen.created_at)}>
                  Відновити цю версію
                </button>
                <button type="button" className="button button-secondary button-small" onClick={() => setChosen(null)}>
                  Закрити порівняння
                </button>
              </div>
            </section>
          ) : null}
          {items === null ? (
            <p className="muted">Завантаження…</p>
          ) : items.length === 0 ? (
            <p className="muted">Історії ще немає.</p>
          ) : (
            <ol className="revision-list">
              {items.map((r) => (
                <li key={r.id} className={chosen?.id === r.id ? "revision-item current" : "revision-item"}>
                  <div>
                    <strong>{formatDateTime(r.created_at)}</strong> · {r.author ? r.author.name || r.author.username : "невідомий автор"}
                    <br />
                    <span className="muted small">{r.summary}</span>
                  </div>
                  <button type="button" className="button button-secondary button-small" onClick={() => void compare(r.id)}>
                    Порівняти
                  </button>
                </li>
              ))}
            </ol>
          )}
          {items && items.length < total ? (
            <button type="button" className="button button-secondary button-small" onClick={() => void load(items.length)}>
              Показати старіші
            </button>
          ) : null}
        </div>
      ) : null}
    </>
  );
}
