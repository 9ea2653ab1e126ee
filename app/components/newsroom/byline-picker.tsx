import { useActionData, useLoaderData } from "@remix-run/react";
import { useMemo, useState } from "react";
import type { BylineOption } from "~/utils/bylines";

// The editor's authors and "не індексувати" panel (issue 29, DESIGN §16). Without JavaScript each
// author is a checkbox with a number for its place in the byline; with it, ↑ and ↓ move a chosen
// author and the numbers follow. The server (app/services/byline-form.server.ts) reads both the same way.

interface BylinePanelData {
  bylines?: { options: BylineOption[]; selected: string[]; noindex: boolean };
}

const keyOf = (o: Pick<BylineOption, "kind" | "id">) => `${o.kind}:${o.id}`;

export function BylinePanel() {
  const data = useLoaderData<BylinePanelData>();
  const result = useActionData<{ errors?: Record<string, string | undefined>; bylines?: { selected: string[]; noindex: boolean } }>();
  const bylines = data.bylines;
  // A page answering the form's post (without JavaScript) shows what was posted, not what is saved.
  const posted = result?.bylines;
  const initial = posted?.selected ?? bylines?.selected ?? [];
  const [chosen, setChosen] = useState<string[]>(initial);
  const options = useMemo(() => {
    const all = bylines?.options ?? [];
    const picked = initial.flatMap((k) => all.filter((o) => keyOf(o) === k));
    return [...picked, ...all.filter((o) => !initial.includes(keyOf(o)))];
    // The list's order is the saved byline's: chosen authors move by their numbers, not by the rows.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [bylines]);
  if (!bylines) return null;
  const error = result?.errors?.authors;
  const toggle = (key: string, on: boolean) => setChosen((list) => (on ? [...list.filter((k) => k !== key), key] : list.filter((k) => k !== key)));
  const move = (key: string, by: -1 | 1) =>
    setChosen((list) => {
      const at = list.indexOf(key);
      const to = at + by;
      if (at === -1 || to < 0 || to >= list.length) return list;
      const next = [...list];
      [next[at], next[to]] = [next[to], next[at]];
      return next;
    });
  const shown = [...chosen.flatMap((k) => options.filter((o) => keyOf(o) === k)), ...options.filter((o) => !chosen.includes(keyOf(o)))];
  return (
    <div className="editor-panel byline-panel">
      <input type="hidden" name="bylines_form" value="1" />
      <fieldset aria-describedby={error ? "authors-error" : "authors-hint"}>
        <legend>
          <h3>Автори</h3>
        </legend>
        <p id="authors-hint" className="field-hint">
          Позначте авторів і вкажіть їхній порядок (1 — перший). Перший автор — працівник редакції, власник статті.
        </p>
        {error ? (
          <p id="authors-error" className="field-error" role="alert">
            {error}
          </p>
        ) : null}
        <ul className="byline-options">
          {shown.map((o) => {
            const key = keyOf(o);
            const place = chosen.indexOf(key);
            const id = `byline-${key.replace(":", "-")}`;
            return (
              <li key={key} className={place === -1 ? "byline-option" : "byline-option byline-chosen"}>
                <label htmlFor={id}>
                  <input id={id} type="checkbox" name="byline" value={key} checked={place !== -1} onChange={(e) => toggle(key, e.target.checked)} /> {o.name}{" "}
                  <span className="muted">({o.detail})</span>
                </label>
                <input
                  type="number"
                  className="byline-order"
                  name={`byline_order_${key}`}
                  min={1}
                  max={99}
                  aria-label={`Порядок: ${o.name}`}
                  value={place === -1 ? "" : place + 1}
                  onChange={(e) => {
                    const n = Number(e.target.value);
                    if (place === -1 || !Number.isInteger(n) || n < 1) return;
                    setChosen((list) => {
                      const next = list.filter((k) => k !== key);
                      next.splice(Math.min(n - 1, next.length), 0, key);
                      return next;
                    });
                  }}
                />
                {place !== -1 ? (
                  <span className="byline-move">
                    <button type="button" className="button button-small" onClick={() => move(key, -1)} disabled={place === 0} aria-label={`Вище: ${o.name}`}>
                      ↑
                    </button>
                    <button
                      type="button"
                      className="button button-small"
                      onClick={() => move(key, 1)}
                      disabled={place === chosen.length - 1}
                      aria-label={`Нижче: ${o.name}`}
                    >
                      ↓
                    </button>
                  </span>
                ) : null}
              </li>
            );
          })}
        </ul>
        <p className="field-hint">
          Гостьових авторів додають на сторінці <a href="/admin/authors">«Автори»</a>.
        </p>
      </fieldset>
      <input type="hidden" name="noindex_form" value="1" />
      <div className="field field-checkbox">
        <label>
          <input type="checkbox" name="noindex" defaultChecked={posted?.noindex ?? bylines.noindex} aria-describedby="noindex-hint" /> Не індексувати
        </label>
        <p id="noindex-hint" className="field-hint">
          Сторінка отримає robots «noindex» і не потрапить до мап сайту та RSS.
        </p>
      </div>
    </div>
  );
}
