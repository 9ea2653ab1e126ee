// The import file's size limit (issue 27): the admin screen's upload and the command line alike.
// IMPORT_MAX_MB raises it for a large archive imported from the command line.

export const IMPORT_MAX_BYTES = Math.max(1, Number(process.env.IMPORT_MAX_MB) || 50) * 1024 * 1024;

export const tooLargeMessage = (size?: number) =>
  `Файл завеликий${size ? ` (${Math.round(size / 1024 / 1024)} МБ)` : ""}: імпорт приймає файли до ${Math.round(IMPORT_MAX_BYTES / 1024 / 1024)} МБ. Нічого не імпортовано`;
