// The audit log's actions (SECURITY.md 'Audit log', docs/decisions/024): the one list of what the
// log records, each with its Ukrainian label for the /admin/audit screen and its CSV. A new kind of
// staff change (imports and exports, two-factor enrolment, …) adds one line here and calls
// `recordAudit(trx, entry)` (app/models/audit.server.ts) inside the transaction of its change; the
// type below then accepts it everywhere, and the screen's filter lists it. Names are
// `<object>.<verb>` in snake case; never rename one that has been written (old entries keep it).

export const AUDIT_ACTIONS = {
  // Signing in and out (who tried which username, from where; never a password).
  "auth.sign_in": "Вхід",
  "auth.sign_in_failed": "Невдалий вхід",
  "auth.sign_out": "Вихід",
  // Staff accounts (also a person's own profile).
  "user.create": "Створено користувача",
  "user.update": "Змінено користувача",
  "user.role_change": "Змінено роль",
  "user.password_change": "Змінено пароль",
  "user.deactivate": "Деактивовано користувача",
  "user.activate": "Активовано користувача",
  "user.delete": "Видалено користувача",
  // A person's own second factor and sessions (docs/decisions/023).
  "user.two_factor_enable": "Увімкнено двофакторну перевірку",
  "user.two_factor_disable": "Вимкнено двофакторну перевірку",
  "user.recovery_codes_renew": "Нові коди відновлення",
  "user.sessions_end": "Завершено сеанси",
  // Articles and the editorial desk (a bulk action writes one entry per article).
  "article.create": "Створено статтю",
  "article.update": "Змінено статтю",
  "article.publish": "Опубліковано статтю",
  "article.schedule": "Заплановано публікацію",
  "article.unpublish": "Знято з публікації",
  "article.archive": "Архівовано статтю",
  "article.delete": "Видалено статтю",
  "article.restore": "Відновлено версію статті",
  "article.submit": "Надіслано на перевірку",
  "article.return": "Повернуто автору",
  "article.preview_link": "Створено посилання для перегляду",
  "article.preview_link_revoke": "Скасовано посилання для перегляду",
  "article.correct": "Виправлено статтю",
  // Categories, media, the homepage, settings, SEO submissions.
  "category.create": "Створено категорію",
  "category.update": "Змінено категорію",
  "category.delete": "Видалено категорію",
  "media.upload": "Завантажено файл",
  "media.update": "Змінено опис файлу",
  "media.delete": "Видалено файл",
  "homepage.save": "Збережено головну сторінку",
  "settings.save": "Змінено налаштування",
  "seo.submit": "Надіслано до пошукових систем",
  // Readers' comments (issue 28): a moderator's change of status, and a removal for good.
  "comment.moderate": "Змінено статус коментаря",
  "comment.delete": "Видалено коментар назавжди",
  // Guest contributors (issue 29, docs/decisions/028).
  "guest_author.create": "Створено гостьового автора",
  "guest_author.update": "Змінено гостьового автора",
  "guest_author.delete": "Видалено гостьового автора",
  // Newsletter (issue 28) and "forgot password" (issue 31 item 20).
  "newsletter.send": "Надіслано розсилку",
  "newsletter.subscriber_remove": "Видалено підписника",
  "user.password_reset": "Пароль відновлено за посиланням",
  // Moving here and moving on (issue 27, DESIGN §14).
  "site.import": "Імпортовано сайт",
  "site.import_failed": "Імпорт відхилено",
  "site.import_settings": "Застосовано налаштування з імпорту",
  "site.export": "Експортовано сайт",
  // Static pages (issue 31 item 5).
  "page.create": "Створено сторінку",
  "page.update": "Змінено сторінку",
  "page.delete": "Видалено сторінку",
  // The header menu and the footer quick links (issue 31 item 5).
  "menu.save": "Змінено меню",
} as const;

export type AuditAction = keyof typeof AUDIT_ACTIONS;

/** Every action name, in the order of the list above (the screen's filter, the API's check). */
export const AUDIT_ACTION_NAMES = Object.keys(AUDIT_ACTIONS) as [AuditAction, ...AuditAction[]];

/** What an entry is about. */
export const AUDIT_OBJECT_TYPES = [
  "user",
  "article",
  "category",
  "media",
  "homepage",
  "settings",
  "seo",
  "comment",
  "guest_author",
  "newsletter",
  "import",
  "page",
  "menu",
] as const;
export type AuditObjectType = (typeof AUDIT_OBJECT_TYPES)[number];

export const AUDIT_OBJECT_LABELS: Record<AuditObjectType, string> = {
  user: "Користувач",
  article: "Стаття",
  category: "Категорія",
  media: "Файл",
  homepage: "Головна сторінка",
  settings: "Налаштування",
  seo: "SEO",
  comment: "Коментар",
  guest_author: "Гостьовий автор",
  newsletter: "Розсилка",
  import: "Імпорт",
  page: "Сторінка",
  menu: "Меню",
};

/** The Ukrainian label of an action; an unknown name (written by newer code) shows as itself. */
export function auditActionLabel(action: string): string {
  return (AUDIT_ACTIONS as Record<string, string>)[action] ?? action;
}

// How the screen reads an entry's details: known keys and values in Ukrainian, the rest as written.
const DETAIL_KEYS: Record<string, string> = {
  via: "через",
  reason: "причина",
  unusual_username: "ім'я не схоже на логін",
  role: "роль",
  fields: "поля",
  keys: "ключі",
  status: "статус",
  slug: "slug",
  bulk: "масова дія",
  revision: "версія",
  publish_at: "час публікації",
  expires_at: "діє до",
  size: "розмір, байт",
  kind: "вид",
  blocks: "блоки",
  scheduled: "за розкладом",
  items: "пунктів",
  added: "додано",
  removed: "прибрано",
};
const DETAIL_VALUES: Record<string, string> = {
  form: "форма входу",
  api: "API",
  credentials: "невірне ім'я або пароль",
  inactive: "обліковий запис вимкнено",
  true: "так",
  false: "ні",
};

const detailValue = (value: unknown): string =>
  Array.isArray(value)
    ? value.map(detailValue).join(", ")
    : value !== null && typeof value === "object"
      ? JSON.stringify(value)
      : (DETAIL_VALUES[String(value)] ?? String(value));

/** An entry's details as one line for people: "draft → published; поля: title, content". */
export function describeAuditDetails(details: Record<string, unknown> | null): string {
  if (!details) return "";
  const parts: string[] = [];
  if ("from" in details || "to" in details) parts.push(`${detailValue(details.from ?? "—")} → ${detailValue(details.to ?? "—")}`);
  for (const [key, value] of Object.entries(details)) {
    if (key === "from" || key === "to") continue;
    if (Array.isArray(value) && value.length === 0) continue;
    parts.push(`${DETAIL_KEYS[key] ?? key}: ${detailValue(value)}`);
  }
  return parts.join("; ");
}
