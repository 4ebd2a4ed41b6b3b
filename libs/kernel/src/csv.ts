/**
 * CSV for spreadsheets (RFC 4180), written the one way the service writes every CSV file (reports' tables, the
 * audit log's export): UTF-8 with a byte order mark (so Excel reads the accents), CRLF line ends, and cells that
 * come from outside neutralized when a spreadsheet would run them as a formula (OWASP CSV injection).
 */
export type CsvCell = string | number | boolean | null;

export const CSV_BOM = '\uFEFF';

/**
 * A cell a spreadsheet may run as a formula: one starting with `=`, `+`, `-` or `@`, or their full-width forms
 * (`＝＋－＠`, which spreadsheets with East Asian input read as the ASCII ones), also after blanks, line breaks or
 * invisible characters (which spreadsheets and import dialogs trim); and any cell starting with a tab or line
 * break (OWASP's list: an import splitting on them starts a cell with what follows).
 */
const FORMULA_START = /^(?:[\s\u200B-\u200D\u2060]*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20]|[\t\r\n])/;
const NEEDS_QUOTES = /[",\r\n]/;

/** One field: text that starts like a formula gets a leading `'`; quoted when it holds `"`, `,`, CR or LF. */
export function csvCell(value: CsvCell): string {
  if (value === null) return '';
  if (typeof value !== 'string') return String(value);
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One record, with its CRLF. */
export const csvLine = (cells: CsvCell[]): string => `${cells.map(csvCell).join(',')}\r\n`;
