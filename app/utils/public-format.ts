// Dates and times of the public site, in the newsroom's zone on both sides (see format.ts), so
// the server's rendering and the browser's hydration agree.
const ZONE = "Europe/Kyiv";

const publicDate = new Intl.DateTimeFormat("uk-UA", { timeZone: ZONE, day: "2-digit", month: "2-digit", year: "numeric" });
const clockTime = new Intl.DateTimeFormat("uk-UA", { timeZone: ZONE, hour: "2-digit", minute: "2-digit" });
const clockDate = new Intl.DateTimeFormat("uk-UA", { timeZone: ZONE, day: "2-digit", month: "2-digit", year: "2-digit" });

/** A card's or article's published date in uk-UA format ('22.11.2026'). */
export function formatPublicDate(iso: string): string {
  return publicDate.format(new Date(iso));
}

/** The header clock (SPEC §9: uk-UA, 2-digit hour and minute; 2-digit day, month and year). */
export function formatClock(date: Date): { time: string; date: string } {
  return { time: clockTime.format(date), date: clockDate.format(date) };
}

// One formatter for every card: building an Intl formatter per call cost a locale lookup per card
// on the server render and on hydration.
const viewCount = new Intl.NumberFormat("uk-UA");

/** Thousands separators for view counts (uk-UA uses a narrow space). */
export function formatViews(views: number): string {
  return viewCount.format(views);
}
