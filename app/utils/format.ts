// Dates are shown in the newsroom's time zone on both sides, so the server's rendering and the
// browser's hydration agree whatever zone either machine runs in.
const ZONE = "Europe/Kyiv";

const dateTime = new Intl.DateTimeFormat("en-US", {
  timeZone: ZONE,
  month: "short",
  day: "numeric",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
});

/** 'Nov 22, 2026, 14:05', or '—' when there is no date. */
export function formatDateTime(iso: string | null | undefined): string {
  return iso ? dateTime.format(new Date(iso)) : "—";
}

const dateOnly = new Intl.DateTimeFormat("en-US", { timeZone: ZONE, month: "short", day: "numeric", year: "numeric" });

/** 'Nov 22, 2026' (SPEC §9 'MMM d, yyyy'), or '' when there is no date. */
export function formatDate(iso: string | null | undefined): string {
  return iso ? dateOnly.format(new Date(iso)) : "";
}
