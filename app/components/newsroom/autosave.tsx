import { useEffect, useRef, useState } from "react";
import type { EditorValues } from "~/services/article-form.server";
import { formatPublicDateTime } from "~/utils/public-format";
import { DraftOffer, type DraftCopy } from "./draft-offer";

// The editor's server-side autosave (issue 15), with JavaScript: after 30 s of changes the values
// go to PUT /api/articles/{id}/autosave (one copy per article and user, not a revision). When the
// editor opens and the server holds a copy newer than the saved article, a banner offers it back:
// text typed and not saved survives a closed tab and reaches another device. The browser-only
// copy (localStorage, article-editor.tsx) stays beside it for a session that expired mid-edit.

export const AUTOSAVE_AFTER_MS = 30_000;

export function ServerAutosave({
  articleId,
  values,
  dirty,
  onRestore,
  local,
}: {
  articleId: string;
  values: EditorValues;
  dirty: boolean;
  onRestore: (values: Partial<EditorValues>) => void;
  /** The browser's own copy, offered in the same notice (issue 31 item 9). */
  local?: DraftCopy | null;
}) {
  const [offer, setOffer] = useState<{ saved_at: string; fields: Partial<EditorValues> } | null>(null);
  const [savedAt, setSavedAt] = useState<string | null>(null);
  const latest = useRef(values);
  latest.current = values;
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const url = `/api/articles/${articleId}/autosave`;

  // When the editor opens: is there a newer copy on the server?
  useEffect(() => {
    let live = true;
    fetch(url, { credentials: "same-origin" })
      .then((res) => (res.ok ? res.json() : null))
      .then((body) => {
        if (live && body?.autosave) setOffer(body.autosave);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [url]);

  // 30 s after the first change not yet sent, the current values go to the server.
  useEffect(() => {
    if (!dirty || timer.current) return;
    timer.current = setTimeout(() => {
      timer.current = null;
      // eslint-disable-next-line @typescript-eslint/no-unused-vars
      const { version, ...fields } = latest.current;
      fetch(url, { method: "PUT", credentials: "same-origin", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ fields }) })
        .then((res) => (res.ok ? res.json() : null))
        .then((body) => body?.saved_at && setSavedAt(body.saved_at))
        .catch(() => undefined);
    }, AUTOSAVE_AFTER_MS);
  }, [dirty, values, url]);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  return (
    <>
      <DraftOffer
        copies={[
          ...(offer
            ? [
                {
                  where: "server" as const,
                  savedAt: offer.saved_at,
                  restore: () => {
                    onRestore(offer.fields);
                    setOffer(null);
                  },
                  discard: () => {
                    void fetch(url, { method: "DELETE", credentials: "same-origin" }).catch(() => undefined);
                    setOffer(null);
                  },
                },
              ]
            : []),
          ...(local ? [local] : []),
        ]}
      />
      {savedAt ? (
        <p className="muted small" role="status" data-testid="autosave-status">
          Автозбережено на сервері {formatPublicDateTime(savedAt)}
        </p>
      ) : null}
    </>
  );
}
