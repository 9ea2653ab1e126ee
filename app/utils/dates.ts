import { tz, TZDate } from "@date-fns/tz";
import { format, subDays } from "date-fns";

// Page views are counted per UTC day (SPEC §9 windows), so day arithmetic runs in UTC: no
// daylight-saving shift, whatever zone the process runs in.
const utc = tz("UTC");

/**
 * The UTC calendar day of a moment, 'yyyy-MM-dd'. toISOString is UTC already: ~0.5 µs a call, where
 * date-fns' format in a zone took ~6.5 µs (0.4 s of the 60,000-article sitemap; issue 25).
 */
export function utcDay(at: Date | number | string): string {
  return new Date(at).toISOString().slice(0, 10);
}

/** The moment `days` whole days (of 24 hours, UTC has no daylight saving) before `at`. */
export function daysBefore(at: Date | number, days: number): Date {
  return subDays(at, days, { in: utc });
}

/** The UTC calendar day `days` days before a moment, 'yyyy-MM-dd'. */
export function utcDayBefore(at: Date | number, days: number): string {
  return utcDay(daysBefore(at, days));
}

// The editorial desk's schedule (issue 14): the editor's `datetime-local` field holds a wall-clock
// time in Europe/Kyiv; the database and the API hold UTC / ISO 8601 with an offset.
const kyiv = tz("Europe/Kyiv");
const LOCAL_RE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;

/** '2026-11-25T09:00' (Kyiv wall clock) → '2026-11-25T07:00:00.000Z'; null when malformed. */
export function kyivLocalToIso(value: string): string | null {
  const m = LOCAL_RE.exec(value.trim());
  if (!m) return null;
  const [y, mo, d, h, mi, s] = m.slice(1).map((x) => Number(x ?? 0));
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 59) return null;
  const at = new TZDate(y, mo - 1, d, h, mi, s, "Europe/Kyiv");
  // 31 February and the like roll over: refuse them rather than schedule another day.
  if (Number.isNaN(at.getTime()) || at.getDate() !== d) return null;
  return new Date(at.getTime()).toISOString();
}

/** A UTC moment as the value of a `datetime-local` field in Kyiv time, 'yyyy-MM-ddTHH:mm'. */
export function isoToKyivLocal(iso: string | null | undefined): string {
  return iso ? format(iso, "yyyy-MM-dd'T'HH:mm", { in: kyiv }) : "";
}

const DAY_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * The moment a Kyiv calendar day ('2026-11-25') begins, as UTC ISO ('2026-11-24T22:00:00.000Z');
 * with `next`, the moment the day after begins (an inclusive 'to' day as an exclusive bound).
 * Null when malformed or not a real date (the audit log's date filters, issue 25).
 */
export function kyivDayStart(day: string, { next = false } = {}): string | null {
  const m = DAY_RE.exec(day.trim());
  if (!m) return null;
  const [y, mo, d] = m.slice(1).map(Number);
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || y < 1970 || y > 9999) return null;
  const at = new TZDate(y, mo - 1, d, 0, 0, 0, "Europe/Kyiv");
  if (Number.isNaN(at.getTime()) || at.getDate() !== d) return null;
  if (next) at.setDate(d + 1);
  return new Date(at.getTime()).toISOString();
}

/** Today's Kyiv calendar day, 'yyyy-MM-dd'. */
export function kyivToday(now: Date | number = Date.now()): string {
  return format(now, "yyyy-MM-dd", { in: kyiv });
}
