import { saveBlob } from './save-file';

/**
 * One CSV cell: quoted when it holds a comma, quote or line break. A cell a spreadsheet
 * would read as a formula (starting with = + - @, a tab or a carriage return) is made text with a
 * leading apostrophe first, so an exported log cannot run a formula.
 */
export function csvCell(value: string | number | null | undefined): string {
  let text = value === null || value === undefined ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) || text !== text.trim() ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Rows as CSV text, lines ended by CRLF. */
export function toCsv(rows: ReadonlyArray<ReadonlyArray<string | number | null | undefined>>): string {
  return `${rows.map((row) => row.map(csvCell).join(',')).join('\r\n')}\r\n`;
}

/** Hands the browser a file to save (a byte-order mark first, so spreadsheet programs read UTF-8). */
export function downloadText(name: string, text: string, type = 'text/csv;charset=utf-8'): void {
  saveBlob(name, new Blob(['\uFEFF', text], { type }));
}
