import type { ImportSummary } from "./run-import.server";

// The summary table of an import run: the command line prints it, /admin/import shows it.

const SKIPPED: Record<string, string> = {
  page: "сторінки",
  attachment: "вкладення",
  attachment_unattached: "вкладення без запису",
  nav_menu_item: "пункти меню",
  other: "інші типи записів",
  invalid: "некоректні записи",
  comment_trash: "коментарі з кошика",
};
const STATUS: Record<string, string> = { published: "опубліковано", draft: "чернетки", review: "на перевірці", scheduled: "заплановано", archived: "архів" };

export function summaryRows(
  s: Pick<ImportSummary, "articles" | "categories" | "tags" | "authors" | "images" | "redirects" | "comments" | "skipped" | "settings" | "dryRun" | "version">,
): [string, string][] {
  const rows: [string, string][] = [
    ["Формат", s.version],
    [s.dryRun ? "Статей буде імпортовано" : "Статей імпортовано", String(s.articles.created)],
    ["Уже були імпортовані раніше", String(s.articles.existing)],
    ["Статей з помилкою", String(s.articles.failed)],
    ...Object.entries(s.articles.byStatus).map(([k, v]): [string, string] => [`  ${STATUS[k] ?? k}`, String(v)]),
    ["Категорії: знайдено / створено", `${s.categories.matched} / ${s.categories.created}`],
    ["Теги у файлі", String(s.tags)],
    ["Автори: знайдено / створено", `${s.authors.matched} / ${s.authors.created}`],
    ["Зображення: збережено / уже були / не вдалося", `${s.images.stored} / ${s.images.existing} / ${s.images.failed.length}`],
    ["Старі адреси (301)", String(s.redirects)],
  ];
  // Runs recorded before comments and settings were applied kept bare counts.
  const comments = typeof s.comments === "number" ? null : s.comments;
  if (comments) {
    rows.push([
      s.dryRun ? "Коментарі: буде імпортовано / уже були / пропущено" : "Коментарі: імпортовано / уже були / пропущено",
      `${comments.created} / ${comments.existing} / ${comments.skipped}`,
    ]);
    if (comments.note) rows.push(["Коментарі", comments.note]);
  }
  for (const [k, v] of Object.entries(s.skipped)) rows.push([`Пропущено: ${SKIPPED[k] ?? k.replace(/^status_/, "статус ")}`, String(v)]);
  const settings = typeof s.settings === "number" ? null : s.settings;
  if (settings?.applied.length) rows.push([s.dryRun ? "Налаштування буде застосовано" : "Налаштування застосовано", settings.applied.join(", ")]);
  if (settings?.ignored.length) rows.push(["Налаштування не застосовано (безпека, адреса сайту або некоректні)", settings.ignored.join(", ")]);
  return rows;
}
