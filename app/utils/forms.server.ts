import { data } from "@remix-run/node";
import { z, type ZodTypeAny } from "zod";
import type { DomainError } from "./errors";
import type { FieldErrors, FormFailure, FormValues } from "./forms";

// The form layer of the admin screens (STYLE.md 'Forms'): every action parses its FormData with
// the screen's zod schema through parseForm and answers a failure through formFailure, so field
// messages read the same on every screen and on the JSON door (http.server.ts uses fieldErrors).

/** First message per field, keyed by dotted path ("_" for the whole body). */
export function fieldErrors(error: z.ZodError): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const key = issue.path.join(".") || "_";
    errors[key] ??= issue.message;
  }
  return errors;
}

/** A checkbox: "on" when ticked, absent from the form when not. */
export const checkbox = () => z.preprocess((value) => value === "on", z.boolean());

// A password is never sent back to the page, filled in or not.
const NOT_ECHOED = /password/i;

// SECURITY.md: `__proto__` never reaches an object; own properties only (`toString` is a field name
// like any other, not something every object already has).
const isPlainKey = (name: string) => name !== "__proto__";

/** The text fields of a form (first value per name; files and passwords left out), to send back on a failure. */
export function formValues(input: FormData | Record<string, unknown>): FormValues {
  const values: FormValues = {};
  const entries = input instanceof FormData ? input.entries() : Object.entries(input);
  for (const [name, value] of entries) {
    if (typeof value === "string" && isPlainKey(name) && !Object.hasOwn(values, name) && !NOT_ECHOED.test(name)) values[name] = value;
  }
  return values;
}

type ParseResult<S extends ZodTypeAny> = { ok: true; data: z.infer<S> } | FormFailure;

/**
 * Validates a form with a zod schema. FormData is read like `form.get` (first value per name);
 * a screen that must adjust the input first (checkboxes, empty = unchanged) passes an object.
 */
export function parseForm<S extends ZodTypeAny>(schema: S, input: FormData | Record<string, unknown>): ParseResult<S> {
  const raw: Record<string, unknown> = {};
  if (input instanceof FormData) {
    for (const [name, value] of input.entries()) if (isPlainKey(name) && !Object.hasOwn(raw, name)) raw[name] = value;
  } else Object.assign(raw, input);
  const parsed = schema.safeParse(raw);
  if (parsed.success) return { ok: true, data: parsed.data };
  const values = formValues(input);
  const { _: formError, ...errors } = fieldErrors(parsed.error);
  return formError === undefined ? { ok: false, values, errors } : { ok: false, values, errors, formError };
}

/**
 * The answer of an action whose form failed: status 400/422 (or the domain error's), the field
 * errors and the submitted values, so a form posted without JavaScript comes back filled in.
 * `extra` carries what the screen needs besides (e.g. which dialog's form it was).
 */
export function formFailure<E extends Record<string, unknown> = Record<never, never>>(
  failure: { values?: FormValues; errors?: FieldErrors; formError?: string },
  init: number | ResponseInit = 422,
  extra?: E,
) {
  const body = { ...extra, ok: false as const, values: failure.values ?? {}, errors: failure.errors ?? {}, formError: failure.formError };
  return data(body as typeof body & E, typeof init === "number" ? { status: init } : init);
}

/** A model's DomainError as a form failure: on its field when it names one, else about the whole form. */
export function domainErrorFields(error: DomainError, message = error.message): { errors?: FieldErrors; formError?: string } {
  return error.field ? { errors: { [error.field]: message } } : { formError: message };
}
