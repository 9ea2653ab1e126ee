// The admin sidebar (SPEC §2 'Shell'); titles double as the header's section title.
export const ADMIN_NAV = [
  { to: "/admin/dashboard", label: "Панель керування" },
  { to: "/admin/articles", label: "Статті" },
  { to: "/admin/homepage", label: "Редактор головної" },
  { to: "/admin/media", label: "Медіа" },
  { to: "/admin/users", label: "Користувачі" },
  { to: "/admin/authors", label: "Автори" },
  { to: "/admin/categories", label: "Категорії" },
  { to: "/admin/comments", label: "Коментарі" },
  { to: "/admin/pages", label: "Сторінки" },
  { to: "/admin/menu", label: "Меню" },
  { to: "/admin/analytics", label: "Аналітика" },
  { to: "/admin/newsletter", label: "Розсилка" },
  { to: "/admin/settings", label: "Налаштування" },
  { to: "/admin/audit", label: "Журнал дій" },
  { to: "/admin/import", label: "Імпорт і експорт" },
] as const;

export const SEO_NAV = { group: "SEO", to: "/admin/seo/analytics", label: "SEO аналітика" } as const;

export const DEFAULT_SECTION_TITLE = "Admin Panel";

/** A route module's `handle` that names its section in the admin header. */
export interface AdminHandle {
  title: string;
}
