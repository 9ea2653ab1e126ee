// The menus' fixed lists (issue 31 item 5), shared by the model and the /admin/menu screen.

export const MENUS = ["header", "footer"] as const;
export type MenuName = (typeof MENUS)[number];
export const MENU_KINDS = ["home", "category", "page", "url"] as const;
export const MENU_NAMES: Record<MenuName, string> = { header: "Головне меню", footer: "Швидкі посилання (футер)" };

/** The footer's social networks, in the order shown (their addresses are settings, group `social`). */
export const SOCIAL_NETWORKS = [
  { key: "facebook", name: "Facebook" },
  { key: "x", name: "X (Twitter)" },
  { key: "telegram", name: "Telegram" },
  { key: "youtube", name: "YouTube" },
  { key: "instagram", name: "Instagram" },
] as const;
