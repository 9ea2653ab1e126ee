import type { EditorConflict } from "~/services/article-form.server";
import type { DiffField } from "~/utils/revision-diff";

// Issue 31 item 12: a save refused because someone saved the article meanwhile (decision 006).
// Besides "copy your text and reload", the editor shows the saved version and the writer's side by
// side (the history's word diff, computed on the server in the CPU pool) and offers to keep the
// writer's: a save on top of the version just shown, through the same form (with or without
// JavaScript), so the permission check, the version rule and the revision happen as for any save.

export function EditConflictPanel({ conflict, formId }: { conflict: EditorConflict; formId: string }) {
  return (
    <section className="admin-card edit-conflict" aria-labelledby="edit-conflict-title" data-testid="edit-conflict">
      <h3 id="edit-conflict-title">Конфлікт редагування</h3>
      <p>{conflict.message} Порівняйте версії: ліворуч збережена, праворуч ваша (ще не збережена).</p>
      {conflict.refused ? (
        <p className="flash flash-error" role="alert">
          {conflict.refused}
        </p>
      ) : conflict.diff.length === 0 ? (
        <p className="muted">Тексти однакові: відрізняються лише поля, яких історія не зберігає (статус, адреса, дати).</p>
      ) : (
        <SideBySide fields={conflict.diff} who={conflict.who} />
      )}
      <div className="editor-actions">
        <input type="hidden" name="conflict_version" value={conflict.version} form={formId} />
        <input type="hidden" name="conflict_intent" value={conflict.intent} form={formId} />
        <button type="submit" name="intent" value="keep-mine" form={formId} className="button button-primary">
          Залишити мою версію
        </button>
        <p className="muted small">
          Ваш текст буде збережено поверх змін, які зробив(ла) {conflict.who}; їхня версія залишиться в історії змін, звідки її можна відновити.
        </p>
      </div>
    </section>
  );
}

function SideBySide({ fields, who }: { fields: DiffField[]; who: string }) {
  return (
    <div className="edit-conflict-diff">
      {fields.map((f) => (
        <section key={f.key} className="edit-conflict-field" aria-label={f.label}>
          <h4>{f.label}</h4>
          <div className="edit-conflict-columns">
            <div data-testid="conflict-theirs">
              <p className="muted small">Збережена версія ({who})</p>
              <p className="revision-diff-text">
                {f.parts.map((part, i) => (part.added ? null : part.removed ? <del key={i}>{part.value}</del> : <span key={i}>{part.value}</span>))}
              </p>
            </div>
            <div data-testid="conflict-mine">
              <p className="muted small">Ваша версія</p>
              <p className="revision-diff-text">
                {f.parts.map((part, i) => (part.removed ? null : part.added ? <ins key={i}>{part.value}</ins> : <span key={i}>{part.value}</span>))}
              </p>
            </div>
          </div>
        </section>
      ))}
    </div>
  );
}
