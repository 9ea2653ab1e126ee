/** Staff roles (SPEC §6), the one list the table type, server rules and forms use. */
export const ROLES = ["admin", "editor", "reporter"] as const;
export type Role = (typeof ROLES)[number];
