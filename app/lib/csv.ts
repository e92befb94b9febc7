/** CSV (RFC 4180) for spreadsheet software: CRLF line ends, fields quoted when they need it, UTF-8 BOM. */

export type CsvCell = string | number | boolean | null | undefined

const NEEDS_QUOTES = /[",\r\n]/

/** One field: quoted (with doubled quotes) when it holds a comma, a quote or a line break. */
export function csvField(value: CsvCell): string {
  if (value === null || value === undefined) return ''
  const text = String(value)
  // A leading =, +, - or @ makes spreadsheets evaluate the cell; prefix a quote so it stays text.
  const safe = /^[=+\-@\t\r]/.test(text) && typeof value === 'string' ? `'${text}` : text
  return NEEDS_QUOTES.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe
}

/** The document text (no BOM): header row first, CRLF after every row. */
export function csvText(header: readonly string[], rows: readonly (readonly CsvCell[])[]): string {
  return [header, ...rows].map((row) => `${row.map(csvField).join(',')}\r\n`).join('')
}

export const UTF8_BOM = '\uFEFF'

/** UTF-8 bytes with a BOM, so that Excel opens Japanese text correctly. */
export function csvBytes(header: readonly string[], rows: readonly (readonly CsvCell[])[]): Uint8Array {
  return new TextEncoder().encode(UTF8_BOM + csvText(header, rows))
}

/** A Content-Disposition value with an ASCII fallback name and the UTF-8 name (RFC 6266 / 5987). */
export function attachmentDisposition(filename: string, asciiFallback: string): string {
  return `attachment; filename="${asciiFallback}"; filename*=UTF-8''${encodeURIComponent(filename)}`
}
