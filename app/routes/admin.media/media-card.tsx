import { Link } from "@remix-run/react";
import type { MediaItem } from "~/models/media.server";
import { formatDate } from "~/utils/format";
import { kb, thumb } from "./upload-tab";

/** One item of the media library (grid or list): thumbnail, selection, copy and open, its alt text. */
export function MediaCard({
  item,
  selected,
  canChange,
  hydrated,
  altHref,
  onToggle,
  onCopyUrl,
  onCopyMarkdown,
}: {
  item: MediaItem;
  selected: boolean;
  /** Reporters change only their own uploads. */
  canChange: boolean;
  hydrated: boolean;
  altHref: string;
  onToggle: () => void;
  onCopyUrl: () => void;
  onCopyMarkdown: () => void;
}) {
  return (
    <li className={`media-card${selected ? " is-selected" : ""}`}>
      <div className="media-thumb">
        <img src={thumb(item.url)} alt={item.alt ?? item.name} loading="lazy" width={item.width ?? undefined} height={item.height ?? undefined} />
        <label className="media-check">
          <input type="checkbox" name="ids" value={item.id} checked={selected} onChange={onToggle} disabled={!canChange} aria-label={`Select ${item.name}`} />
        </label>
        <div className="media-actions">
          <button type="button" className="button button-secondary button-small" onClick={onCopyUrl} aria-label={`Copy URL of ${item.name}`}>
            Copy URL
          </button>
          <a className="button button-secondary button-small" href={item.url} target="_blank" rel="noreferrer" aria-label={`Open ${item.name} full size`}>
            Open
          </a>
          <button
            type="button"
            className="button button-secondary button-small"
            onClick={onToggle}
            disabled={!canChange}
            aria-label={`${selected ? "Unselect" : "Select"} ${item.name}`}
          >
            {selected ? "Unselect" : "Select"}
          </button>
        </div>
      </div>
      <div className="media-info">
        <p className="media-name" title={item.name}>
          {item.name}
        </p>
        <p className="muted small">
          <span>{kb(item.size)}</span> · <span>{item.dimensions}</span> · <span>{formatDate(item.uploadedAt)}</span>
        </p>
        <p className="media-alt small">
          {item.alt ? <span title={item.alt}>Опис: {item.alt}</span> : <span className="muted">Без опису</span>}
          {canChange ? (
            <Link to={altHref} preventScrollReset className="media-alt-edit" aria-label={`Змінити опис ${item.name}`}>
              {item.alt ? "Змінити" : "Додати опис"}
            </Link>
          ) : null}
          {hydrated ? (
            <button type="button" className="link-button" onClick={onCopyMarkdown} aria-label={`Копіювати Markdown ${item.name}`}>
              Markdown
            </button>
          ) : null}
        </p>
      </div>
    </li>
  );
}
