import { TZDate } from "@date-fns/tz";
import { lightFormat } from "date-fns";

// Dates and times of the public site, in the newsroom's zone on both sides (see format.ts), so
// the server's rendering and the browser's hydration agree. The patterns are numeric, so
// `lightFormat` (no locale data) does: `format` would add ~9 KB gzip of locales to every
// reader page.
const ZONE = "Europe/Kyiv";

// Formatting in a named zone costs ~10x a plain format (the zone's offset is looked up several
// times per date), and it runs per card on every cold public render (decision 009): a published
// date never changes, so each one is formatted once. Bounded: cleared when full.
const publicDates = new Map<string, string>();
const PUBLIC_DATES_MAX = 10_000;

/** A card's or article's published date in uk-UA format ('22.11.2026'). */
export function formatPublicDate(iso: string): string {
  let text = publicDates.get(iso);
  if (text === undefined) {
    if (publicDates.size >= PUBLIC_DATES_MAX) publicDates.clear();
    text = lightFormat(new TZDate(iso, ZONE), "dd.MM.yyyy");
    publicDates.set(iso, text);
  }
  return text;
}

/** An article's published date and time in the newsroom's zone ('22.11.2026 о 14:05'). */
export function formatPublicDateTime(iso: string): string {
  return lightFormat(new TZDate(iso, ZONE), "dd.MM.yyyy 'о' HH:mm");
}

/** Minutes a reader needs for a text at about 200 words a minute: at least one. */
export function readingMinutes(html: string): number {
  const words = html.replace(/<[^>]*>/g, " ").match(/[^\s]+/g)?.length ?? 0;
  return Math.max(1, Math.ceil(words / 200));
}

/** The header clock (SPEC §9: uk-UA, 2-digit hour and minute; 2-digit day, month and year). */
export function formatClock(date: Date): { time: string; date: string } {
  const local = new TZDate(date, ZONE);
  return { time: lightFormat(local, "HH:mm"), date: lightFormat(local, "dd.MM.yy") };
}

// One formatter for every card: building an Intl formatter per call cost a locale lookup per card
// on the server render and on hydration.
const viewCount = new Intl.NumberFormat("uk-UA");

/** Thousands separators for view counts (uk-UA uses a narrow space). */
export function formatViews(views: number): string {
  return viewCount.format(views);
}
