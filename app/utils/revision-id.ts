/** A revision id from a URL (a positive integer), or undefined for anything else. */
export function revisionIdOf(value: string | null | undefined): number | undefined {
  if (!value || !/^[1-9]\d{0,15}$/.test(value)) return undefined;
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : undefined;
}
