// Choices of the settings form (SPEC §9), shared by the server schemas and the screen.
export const ROBOTS_OPTIONS = ["index, follow", "index, nofollow", "noindex, follow", "noindex, nofollow"] as const;
export const LANGUAGE_OPTIONS = ["uk-UA", "en-US", "ru-RU"] as const;
