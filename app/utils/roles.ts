import type { Role } from "../../db/schema";

/** Staff roles (SPEC §6), shared by server rules and forms. */
export const ROLES = ["admin", "editor", "reporter"] as const satisfies readonly Role[];
