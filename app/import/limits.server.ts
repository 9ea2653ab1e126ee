import { getImportLimits } from "../utils/env.server";

// The import file's size limit (issue 27): the admin screen's upload and the command line alike.
// IMPORT_MAX_MB raises it for a large archive imported from the command line.
const { IMPORT_MAX_MB, IMPORT_MEDIA_MAX_MB } = getImportLimits();

export const IMPORT_MAX_BYTES = IMPORT_MAX_MB * 1024 * 1024;

/** The zip of the old uploads sent beside it on /admin/import (IMPORT_MEDIA_MAX_MB). */
export const IMPORT_MEDIA_MAX_BYTES = IMPORT_MEDIA_MAX_MB * 1024 * 1024;

/** The body cap of a post to /admin/import (server/app.ts): both files and the form. */
export const IMPORT_BODY_BYTES = IMPORT_MAX_BYTES + IMPORT_MEDIA_MAX_BYTES + 1024 * 1024;

export const tooLargeMessage = (size?: number) =>
  `Файл завеликий${size ? ` (${Math.round(size / 1024 / 1024)} МБ)` : ""}: імпорт приймає файли до ${Math.round(IMPORT_MAX_BYTES / 1024 / 1024)} МБ. Нічого не імпортовано`;

export const mediaTooLargeMessage = () =>
  `Архів зображень завеликий: приймаються архіви до ${Math.round(IMPORT_MEDIA_MAX_BYTES / 1024 / 1024)} МБ (більший передайте командним рядком: npm run import -- … --media ТЕКА). Нічого не імпортовано`;
