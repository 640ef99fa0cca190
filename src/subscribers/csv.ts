/**
 * CSV as RFC 4180 writes it (CRLF lines, a cell quoted when it holds a quote, comma or line break,
 * its quotes doubled), for the subscriber exports of the CLI and the console. A cell that starts
 * like a formula (= + - @, tab, carriage return) gets a leading ' and quotes, so a spreadsheet
 * opening the file shows it as text instead of running it (OWASP's CSV injection advice).
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: string): string {
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return text !== value || /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A header line and one line per row, each ending in CRLF. */
export function csvTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  return [header, ...rows].map((cells) => `${cells.map(csvCell).join(',')}\r\n`).join('');
}
