/** Staff roles (SPEC §6), the one list the table type, server rules and forms use. */
export const ROLES = ["admin", "editor", "reporter"] as const;
export type Role = (typeof ROLES)[number];

export const EDITORS = ["admin", "editor"] as const satisfies readonly Role[];
export const ADMINS = ["admin"] as const satisfies readonly Role[];

/**
 * Who may open each admin screen (DESIGN §5); a screen not listed is open to every signed-in role.
 * The screens' loaders check this list and the sidebar shows a role only what it may open, so the
 * two cannot drift apart.
 */
export const SCREEN_ROLES = {
  "/admin/homepage": EDITORS,
  "/admin/users": ADMINS,
  "/admin/settings": ADMINS,
  "/admin/audit": ADMINS,
  "/admin/import": ADMINS,
  "/admin/seo/analytics": EDITORS,
  "/admin/comments": EDITORS,
  "/admin/authors": EDITORS,
  "/admin/newsletter": EDITORS,
  "/admin/pages": EDITORS,
  "/admin/menu": EDITORS,
} as const satisfies Record<string, readonly Role[]>;

export function mayOpen(role: Role, path: string): boolean {
  const allowed: readonly Role[] | undefined = (SCREEN_ROLES as Record<string, readonly Role[]>)[path];
  return !allowed || allowed.includes(role);
}
