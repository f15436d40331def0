/**
 * The statistics as CSV (RFC 4180): a `value,count` header (`value,country,count` for regions
 * and cities), one line per row, CRLF line ends.
 * An unknown value is an empty field. A field with a comma, a quote or a line break is quoted
 * (quotes doubled), and a value a spreadsheet would run as a formula (starting with `=`, `+`,
 * `-`, `@`, a tab or a carriage return) is prefixed with `'`, as OWASP advises.
 */
import type { Period } from './period.js'
import type { StatRecord } from './schema.js'

export const CSV_CONTENT_TYPE = 'text/csv; charset=utf-8'

export function csvField(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe
}

/** Rows of regions and cities (`withCountry`) have a `value,country,count` header. */
export function statsCsv(rows: readonly StatRecord[], withCountry = false): string {
  const lines = withCountry
    ? [
        'value,country,count',
        ...rows.map((r) => `${csvField(r.value ?? '')},${csvField(r.country ?? '')},${r.count}`),
      ]
    : ['value,count', ...rows.map((r) => `${csvField(r.value ?? '')},${r.count}`)]
  return `${lines.join('\r\n')}\r\n`
}

/** `stats-12-country-2026-04-01-2026-04-30.csv`, with `-page-2` for pages after the first. */
export function csvFilename(
  linkId: number | string,
  name: string,
  period: Period,
  page: number,
): string {
  const suffix = page > 1 ? `-page-${page}` : ''
  return `stats-${linkId}-${name}-${period.from}-${period.to}${suffix}.csv`
}

/** The page links of a list as an RFC 8288 `Link` header (the CSV has no envelope). */
export function linkHeader(links: Record<string, string | null>): string {
  return Object.entries(links)
    .filter((entry): entry is [string, string] => entry[1] !== null)
    .map(([rel, url]) => `<${url}>; rel="${rel}"`)
    .join(', ')
}
