import { createRequire } from "node:module";

// SECURITY.md 'Weak passwords' [ASVS 2.1.7]: a new or changed password found in a list of common
// passwords is refused. The list is zxcvbn-ts's (about 49,000 passwords from breach corpora,
// maintained with the package); it is loaded on the first password set, not at start, so a
// server that only serves readers never holds it.

let common: Set<string> | undefined;

/** True when `password` is a well-known password (compared case-insensitively) or only spaces. */
export function isCommonPassword(password: string): boolean {
  if (password.trim() === "") return true;
  common ??= new Set((createRequire(import.meta.url)("@zxcvbn-ts/language-common") as { dictionary: Record<string, string[]> }).dictionary["passwords-common"]);
  return common.has(password) || common.has(password.toLowerCase());
}
