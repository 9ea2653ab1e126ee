import { Link } from "@remix-run/react";
import { formatDateTime } from "~/utils/format";
import { STATUS_LABELS, type ArticleStatus } from "~/utils/newsroom-rules";

// Issue 29 item 4: what lifts next (the dashboard and the article list) and the list's badge.

interface Item {
  id: string;
  title: string;
  status: ArticleStatus;
  embargo_until: string;
  embargo_note: string | null;
}

/** Articles under embargo, soonest to lift first. */
export function UpcomingEmbargoes({ items, compact = false }: { items: Item[]; compact?: boolean }) {
  if (compact && !items.length) return null;
  return (
    <section className={compact ? "embargo-strip" : "admin-card"} aria-labelledby="embargo-title" data-testid="embargo-list">
      <h2 id="embargo-title" className={compact ? "small" : undefined}>
        Ембарго: що знімається найближче
      </h2>
      {items.length ? (
        <ul className="recent-list">
          {items.map((a) => (
            <li key={a.id}>
              <div>
                <Link to={`/admin/articles/edit/${a.id}`} className="recent-title">
                  {a.title}
                </Link>
                <div className="muted small">
                  до {formatDateTime(a.embargo_until)} (Київ) · {STATUS_LABELS[a.status]}
                  {a.embargo_note ? ` · ${a.embargo_note}` : ""}
                </div>
              </div>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">Немає статей під ембарго</p>
      )}
    </section>
  );
}

/** "Ембарго до …" beside an article's status while the embargo is ahead. */
export function EmbargoBadge({ until }: { until: string | null | undefined }) {
  if (!until) return null;
  return (
    <div className="embargo-badge nowrap" title="Ембарго (київський час)">
      Ембарго до {formatDateTime(until)}
    </div>
  );
}
