/**
 * The generic CSV: `url` required; `alias`, `title`, `space`, `domain`, `created_at`, `clicks`,
 * `password`, `expiration_date`, `expiration_time`, `expiration_clicks`, `disabled`, `tags` (names joined by `|`) optional (what
 * GET /api/v1/links/export?format=csv writes). A value our export protected from spreadsheets
 * (a `'` before `=`, `+`, `-`, `@`) is read back without it.
 */
import { count, emptyRow, instant, splitShortUrl, text, type SourceRow } from '../row.js'
import { csvRecords, pick } from './csv-records.js'

export function unprotect(value: string | null): string | null {
  return value !== null && /^'[=+\-@\t\r]/.test(value) ? value.slice(1) : value
}

export async function* readCsv(
  input: AsyncIterable<Buffer | Uint8Array>,
): AsyncGenerator<SourceRow> {
  for await (const record of csvRecords(input)) {
    const row = emptyRow(record.line)
    if (record.problem !== null) {
      row.problem = record.problem
      yield row
      continue
    }
    const f = record.fields
    const url = unprotect(pick(f, 'url'))
    const short = splitShortUrl(pick(f, 'short_url'))
    row.url = url
    row.alias = unprotect(text(f.alias)) ?? short.alias
    row.title = unprotect(text(f.title))
    row.space = unprotect(text(f.space))
    row.domain = text(f.domain)?.toLowerCase() ?? short.domain
    row.createdAt = instant(f.created_at)
    row.clicks = count(f.clicks)
    row.password = text(f.password)
    row.disabled = /^(1|true|yes)$/i.test(text(f.disabled) ?? '')
    row.tags = (unprotect(text(f.tags)) ?? '').split('|').filter((name) => name.trim() !== '')
    row.expirationDate = text(f.expiration_date)
    row.expirationTime = text(f.expiration_time)
    const limit = text(f.expiration_clicks)
    if (limit !== null) {
      if (/^\d{1,9}$/.test(limit)) row.expirationClicks = Number(limit)
      else row.problem = 'The expiration clicks field must be an integer of 0 or more.'
    }
    const created = text(f.created_at)
    if (created !== null && row.createdAt === null && row.problem === null)
      row.problem = 'The created at field is not a date.'
    yield row
  }
}
