import type { InputHTMLAttributes, ReactNode, SelectHTMLAttributes, TextareaHTMLAttributes } from "react";

// The one form field of the admin screens (STYLE.md 'Forms'): a label, the control, an optional
// hint and the field's error, wired with aria-invalid and aria-describedby. The error's id is
// `${id}-error` (tests and screen readers rely on it), the hint's `${id}-hint`.

/** The attributes that tie a control to its label, hint and error. */
export interface ControlProps {
  id: string;
  name: string;
  "aria-invalid"?: true;
  "aria-describedby"?: string;
}

interface Common {
  label: ReactNode;
  name: string;
  /** Defaults to `name`. */
  id?: string;
  error?: string;
  hint?: ReactNode;
  /** The label is read by screen readers only (a one-field form whose button says what it is). */
  hideLabel?: boolean;
  /** A live "n/max" counter beside the label. */
  counter?: { value: string; max: number };
}

type FieldProps = Common &
  (
    | ({ as?: "input" } & Omit<InputHTMLAttributes<HTMLInputElement>, "name" | "id" | "children">)
    | ({ as: "textarea" } & Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, "name" | "id" | "children">)
    | ({ as: "select"; children: ReactNode } & Omit<SelectHTMLAttributes<HTMLSelectElement>, "name" | "id" | "children">)
    | { as: "custom"; children: (control: ControlProps) => ReactNode }
  );

/** A labelled control with its hint and error; `as="custom"` renders the control from a function. */
export function Field(props: FieldProps) {
  const { label, name, id = name, error, hint, hideLabel, counter, ...rest } = props;
  const describedBy = [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(" ") || undefined;
  const control: ControlProps = { id, name, "aria-invalid": error ? true : undefined, "aria-describedby": describedBy };

  let element: ReactNode;
  if (rest.as === "custom") element = rest.children(control);
  else if (rest.as === "textarea") {
    const { as: _as, ...attrs } = rest;
    element = <textarea {...attrs} {...control} />;
  } else if (rest.as === "select") {
    const { as: _as, children, ...attrs } = rest;
    element = (
      <select {...attrs} {...control}>
        {children}
      </select>
    );
  } else {
    const { as: _as, type = "text", ...attrs } = rest;
    element = <input type={type} {...attrs} {...control} />;
  }

  return (
    <div className="field">
      <label htmlFor={id} className={hideLabel ? "visually-hidden" : undefined}>
        {label}
        {counter ? (
          <span className={counter.value.length >= counter.max ? "counter counter-full" : "counter"} aria-hidden="true">
            {counter.value.length}/{counter.max}
          </span>
        ) : null}
      </label>
      {element}
      <FieldMessages id={id} error={error} hint={hint} />
    </div>
  );
}

/** A checkbox with its label around it, and its error. */
export function CheckboxField({
  label,
  name,
  error,
  hint,
  ...attrs
}: { label: ReactNode; name: string; error?: string; hint?: ReactNode } & Omit<InputHTMLAttributes<HTMLInputElement>, "name" | "type">) {
  const id = attrs.id ?? name;
  const describedBy = [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className="field field-checkbox">
      <label>
        <input type="checkbox" name={name} aria-invalid={error ? true : undefined} aria-describedby={describedBy} {...attrs} /> {label}
      </label>
      <FieldMessages id={id} error={error} hint={hint} />
    </div>
  );
}

function FieldMessages({ id, error, hint }: { id: string; error?: string; hint?: ReactNode }) {
  return (
    <>
      {hint ? (
        <p id={`${id}-hint`} className="muted small">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      ) : null}
    </>
  );
}
