import { z } from "zod";

// Issue 13 (SECURITY.md 'Forged intent'): an action's `intent` is checked against that action's
// own list with z.enum, never with `intent in SOME_OBJECT` (which accepts `toString`,
// `constructor`, `__proto__` ...). Unknown, empty or missing → undefined; the action answers 400.

/** The form's `intent` (or another field naming a choice) when it is one of `intents`, otherwise undefined. */
export function formIntent<const T extends readonly [string, ...string[]]>(form: FormData, intents: T, field = "intent"): T[number] | undefined {
  const parsed = z.enum(intents as unknown as [T[number], ...T[number][]]).safeParse(form.get(field));
  return parsed.success ? parsed.data : undefined;
}

export const UNKNOWN_INTENT = "Невідома дія";
