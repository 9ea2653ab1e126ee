// CSV for spreadsheets (RFC 4180: comma, CRLF, quotes doubled), made safe to open: a cell that a
// spreadsheet would run as a formula (OWASP 'CSV Injection': one that begins with =, +, -, @, a tab
// or a carriage return) gets a leading apostrophe, so Excel, LibreOffice and Google Sheets show it
// as text. The audit log's export (issue 25) carries text people typed (titles, usernames tried).

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]|^\s|\s$/;

/** One cell: null and undefined are empty; a formula-looking value is neutralised; quoted when needed. */
export function csvCell(value: unknown): string {
  let text = value == null ? "" : String(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One line of cells, ended with CRLF. */
export function csvRow(cells: readonly unknown[]): string {
  return `${cells.map(csvCell).join(",")}\r\n`;
}

/** A byte-order mark: Excel reads a CSV without one in the machine's legacy code page (Cyrillic breaks). */
export const CSV_BOM = "\uFEFF";
