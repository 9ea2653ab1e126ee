import { Link } from "@remix-run/react";
import { formatDateTime } from "~/utils/format";

interface Returned {
  id: string;
  title: string;
  note: string | null;
  returned_at: string;
  by: string | null;
}

/** Issue 31 item 7: the author's drafts the desk sent back, each with the desk's note and a way back to the editor. */
export function ReturnedArticles({ items }: { items: Returned[] }) {
  return (
    <section className="admin-card" aria-labelledby="returned-title">
      <h2 id="returned-title">Повернуто вам</h2>
      {items.length ? (
        <ul className="recent-list" data-testid="returned-list">
          {items.map((a) => (
            <li key={a.id}>
              <div>
                <Link to={`/admin/articles/edit/${a.id}`} className="recent-title">
                  {a.title}
                </Link>
                <div className="muted small">
                  Повернуто {formatDateTime(a.returned_at)}
                  {a.by ? ` · ${a.by}` : ""}
                </div>
                {a.note ? <blockquote className="returned-note">{a.note}</blockquote> : null}
              </div>
              <Link to={`/admin/articles/edit/${a.id}`} className="button button-secondary button-small" aria-label={`Виправити: ${a.title}`}>
                Виправити
              </Link>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">Редакція не повертала вам статей.</p>
      )}
    </section>
  );
}
