import { formatPublicDateTime } from "~/utils/public-format";

// Issue 31 item 9: an unsaved copy of the article (the server's autosave, or the browser's own
// copy after a session ended mid-edit) is offered back in ONE neutral notice, the newest copy,
// with one Ukrainian date format ('25.11.2026 о 14:05', Kyiv time). Restoring takes the newest;
// either choice clears every copy, so no second notice follows.

export interface DraftCopy {
  where: "server" | "browser";
  /** ISO time the copy was made. */
  savedAt: string;
  restore: () => void;
  discard: () => void;
}

export function DraftOffer({ copies }: { copies: DraftCopy[] }) {
  if (!copies.length) return null;
  const newest = copies.reduce((a, b) => (a.savedAt >= b.savedAt ? a : b));
  const when = formatPublicDateTime(newest.savedAt);
  return (
    <div className="flash flash-neutral draft-offer" role="status" data-testid="autosave-offer">
      <p>
        {newest.where === "server"
          ? `Є автозбережена версія від ${when}, новіша за збережений текст.`
          : `Є незбережений текст цієї статті від ${when}, збережений у цьому браузері.`}
      </p>
      <div className="editor-actions">
        <button
          type="button"
          className="button button-primary button-small"
          onClick={() => {
            newest.restore();
            for (const copy of copies) if (copy !== newest) copy.discard();
          }}
        >
          Відновити
        </button>
        <button
          type="button"
          className="button button-secondary button-small"
          onClick={() => {
            for (const copy of copies) copy.discard();
          }}
        >
          Відкинути
        </button>
      </div>
    </div>
  );
}
