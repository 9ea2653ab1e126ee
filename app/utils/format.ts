import { tz } from "@date-fns/tz";
import { format } from "date-fns";

// Dates are shown in the newsroom's time zone on both sides, so the server's rendering and the
// browser's hydration agree whatever zone either machine runs in. Made once: @date-fns/tz keeps
// one offset formatter per zone, so a call builds no Intl object.
const kyiv = tz("Europe/Kyiv");

/** 'Nov 22, 2026, 14:05', or '—' when there is no date. */
export function formatDateTime(iso: string | null | undefined): string {
  return iso ? format(iso, "MMM d, yyyy, HH:mm", { in: kyiv }) : "—";
}

/** 'Nov 22, 2026' (SPEC §9 'MMM d, yyyy'), or '' when there is no date. */
export function formatDate(iso: string | null | undefined): string {
  return iso ? format(iso, "MMM d, yyyy", { in: kyiv }) : "";
}

/** '2026-11-22 14:05:09' in Kyiv time (the audit log: seconds matter), or '—'. */
export function formatDateTimeSeconds(iso: string | null | undefined): string {
  return iso ? format(iso, "yyyy-MM-dd HH:mm:ss", { in: kyiv }) : "—";
}
