// The shapes of the admin form layer (STYLE.md 'Forms'), shared by actions and components.
// The parsing lives in forms.server.ts; the markup in app/components/ui/field.tsx.

/** A message per field name. */
export type FieldErrors = Record<string, string>;
/** The submitted text values, sent back so a form posted without JavaScript comes back filled in. */
export type FormValues = Record<string, string>;

/** What every admin action answers when its form is invalid (status 400/422). */
export interface FormFailure {
  ok: false;
  values: FormValues;
  errors: FieldErrors;
  /** A message about the whole form, not one field. */
  formError?: string;
}

/** The failure an action returned, or `undefined` after a success or before any post. */
export function formFailureOf(result: unknown): FormFailure | undefined {
  const value = result as Partial<FormFailure> | null | undefined;
  return value && value.ok === false && typeof value.errors === "object" ? (value as FormFailure) : undefined;
}
