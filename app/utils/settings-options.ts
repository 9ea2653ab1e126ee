import type { Role } from "./roles";

// Choices of the settings form (SPEC §9), shared by the server schemas and the screen.
export const ROBOTS_OPTIONS = ["index, follow", "index, nofollow", "noindex, follow", "noindex, nofollow"] as const;
export const LANGUAGE_OPTIONS = ["uk-UA", "en-US", "ru-RU"] as const;

/**
 * Who must sign in with a second factor (Settings → Security, docs/decisions/023), and the roles
 * each choice covers. Labels are what the select shows.
 */
export const TWO_FACTOR_OPTIONS = ["nobody", "admin", "admin-editor", "everyone"] as const;
export type TwoFactorRequirement = (typeof TWO_FACTOR_OPTIONS)[number];
export const TWO_FACTOR_LABELS: Record<TwoFactorRequirement, string> = {
  nobody: "Нікого (за бажанням)",
  admin: "Адміністраторів",
  "admin-editor": "Адміністраторів і редакторів",
  everyone: "Усіх",
};
export const TWO_FACTOR_ROLES: Record<TwoFactorRequirement, readonly Role[]> = {
  nobody: [],
  admin: ["admin"],
  "admin-editor": ["admin", "editor"],
  everyone: ["admin", "editor", "reporter"],
};
