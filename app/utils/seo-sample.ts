// SPEC §9: the built-in sample shown until a Search Console connection exists. Shown labelled as
// sample data, never mixed with real figures.
export const SEARCH_SAMPLE = {
  impressions: 15420,
  clicks: 3890,
  ctr: 25.2,
  position: 12.5,
  rows: [
    { keys: ["новини науки"], clicks: 1250, impressions: 4200, ctr: 0.298, position: 3.2 },
    { keys: ["космос новини"], clicks: 890, impressions: 3100, ctr: 0.287, position: 5.1 },
    { keys: ["штучний інтелект"], clicks: 720, impressions: 2800, ctr: 0.257, position: 8.4 },
    { keys: ["медицина дослідження"], clicks: 610, impressions: 2900, ctr: 0.21, position: 11.7 },
    { keys: ["технології україна"], clicks: 420, impressions: 2420, ctr: 0.174, position: 14.3 },
  ],
  pages: [
    { page: "/", clicks: 1600, impressions: 5400 },
    { page: "/category/space-physics", clicks: 900, impressions: 3600 },
    { page: "/category/ai-computing", clicks: 780, impressions: 3300 },
    { page: "/category/medicine", clicks: 610, impressions: 3120 },
  ],
} as const;

/** The five pie colours, cycled (SPEC §9). */
// Issue 31 item 18: twelve distinct colours, so the eight categories (and a few more) never share one.
export const PIE_COLOURS = [
  "#c8102e",
  "#1a56db",
  "#17643a",
  "#b45309",
  "#6d28d9",
  "#0e7490",
  "#be185d",
  "#4d7c0f",
  "#374151",
  "#9a3412",
  "#1e3a8a",
  "#a16207",
] as const;

/** The i-th category's colour: the palette, then further hues by the golden angle (never a repeat). */
export function pieColour(i: number): string {
  return PIE_COLOURS[i] ?? `hsl(${Math.round((i * 137.508) % 360)} 65% 38%)`;
}
