import { tz } from "@date-fns/tz";
import { format, subDays } from "date-fns";

// Page views are counted per UTC day (SPEC §9 windows), so day arithmetic runs in UTC: no
// daylight-saving shift, whatever zone the process runs in.
const utc = tz("UTC");

/** The UTC calendar day of a moment, 'yyyy-MM-dd'. */
export function utcDay(at: Date | number | string): string {
  return format(at, "yyyy-MM-dd", { in: utc });
}

/** The moment `days` whole days (of 24 hours, UTC has no daylight saving) before `at`. */
export function daysBefore(at: Date | number, days: number): Date {
  return subDays(at, days, { in: utc });
}

/** The UTC calendar day `days` days before a moment, 'yyyy-MM-dd'. */
export function utcDayBefore(at: Date | number, days: number): string {
  return utcDay(daysBefore(at, days));
}
