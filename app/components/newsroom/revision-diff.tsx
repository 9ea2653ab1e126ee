import type { DiffField } from "~/utils/revision-diff";

// A word-level comparison of a revision with the article's saved text (issue 15), shown by the
// History page (no JavaScript) and the editor's History panel. The diff itself is computed on the
// server in the CPU pool (issue 25: it is quadratic in the worst case); this only draws its parts.

/** Each kept field that differs, as removed (revision only) and added (current only) words. */
export function RevisionDiff({ fields }: { fields: DiffField[] }) {
  if (!fields.length) return <p className="muted">Ця версія збігається з поточним текстом.</p>;
  return (
    <div className="revision-diff" data-testid="revision-diff">
      <p className="muted small">
        <del>Закреслене</del> є лише у цій версії, <ins>підкреслене</ins> — лише в поточному тексті.
      </p>
      {fields.map((f) => (
        <section key={f.key} className="revision-diff-field">
          <h4>{f.label}</h4>
          <p className="revision-diff-text">
            {f.parts.map((part, i) =>
              part.added ? <ins key={i}>{part.value}</ins> : part.removed ? <del key={i}>{part.value}</del> : <span key={i}>{part.value}</span>,
            )}
          </p>
        </section>
      ))}
    </div>
  );
}
