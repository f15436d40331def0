/**
 * The links export: every link of a list filter, streamed a batch at a time, as CSV (the
 * columns of the generic `csv` import source, so a file exported here imports back) or as JSON
 * (the API's link records). Spreadsheet formulas are defused in CSV: a value that begins with
 * `=`, `+`, `-`, `@`, a tab or a carriage return gets a `'` in front (the csv source removes
 * it again). Passwords are never exported (only whether one is set).
 */
import { Readable } from 'node:stream'
import { stringify } from 'csv-stringify/sync'
import type { FastifyReply } from 'fastify'
import type { LinkRow } from '../../db/types.js'
import { utcToZoned } from '../../shared/time.js'
import { linkFilterOf } from '../../links/list-query.js'
import type { LinkPresenter } from '../../links/record.js'
import type { LinkListQuery } from '../../links/schema.js'
import type { LinkService } from '../../links/service.js'

export const EXPORT_COLUMNS = [
  'url',
  'alias',
  'title',
  'space',
  'domain',
  'created_at',
  'clicks',
  'password',
  'expiration_date',
  'expiration_time',
  'expiration_clicks',
  'short_url',
  'disabled',
  'id',
  'tags',
] as const

/** A cell a spreadsheet would not run as a formula. */
export function defused(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value
}

export async function* exportCsv(
  presenter: LinkPresenter,
  userId: number,
  timeZone: string,
  batches: AsyncIterable<LinkRow[]>,
): AsyncGenerator<string> {
  yield stringify([[...EXPORT_COLUMNS]], { bom: true })
  for await (const rows of batches) {
    const records = await presenter.present(userId, rows)
    const lines = rows.map((row, i) => {
      const record = records[i]!
      const expiry = row.ends_at === null ? null : utcToZoned(row.ends_at, timeZone)
      const cells = [
        row.url,
        row.alias,
        row.title ?? '',
        record.space?.name ?? '',
        record.domain.name,
        record.created_at,
        String(row.clicks),
        '',
        expiry?.date ?? '',
        expiry?.time ?? '',
        row.expiration_clicks === null ? '' : String(row.expiration_clicks),
        record.short_url,
        String(row.disabled),
        String(row.id),
        record.tags.join('|'),
      ]
      return cells.map(defused)
    })
    yield stringify(lines)
  }
}

export async function* exportJson(
  presenter: LinkPresenter,
  userId: number,
  batches: AsyncIterable<LinkRow[]>,
): AsyncGenerator<string> {
  yield '{"data":['
  let first = true
  for await (const rows of batches) {
    const records = await presenter.present(userId, rows)
    const text = records.map((r) => JSON.stringify(r)).join(',')
    yield first ? text : `,${text}`
    first = false
  }
  yield '],"status":200}\n'
}

/**
 * The export as a download (the API's route and the dashboard's): streamed, named after the
 * day, CSV unless `format=json`.
 */
export async function sendLinksExport(
  reply: FastifyReply,
  links: Pick<LinkService, 'batches' | 'timeZoneOf'>,
  presenter: LinkPresenter,
  userId: number,
  query: LinkListQuery & { format?: 'csv' | 'json' },
): Promise<FastifyReply> {
  const batches = links.batches(userId, linkFilterOf(query))
  const day = new Date().toISOString().slice(0, 10)
  if (query.format === 'json') {
    return reply
      .type('application/json; charset=utf-8')
      .header('content-disposition', `attachment; filename="links-${day}.json"`)
      .send(Readable.from(exportJson(presenter, userId, batches)))
  }
  const timeZone = await links.timeZoneOf(userId)
  return reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="links-${day}.csv"`)
    .send(Readable.from(exportCsv(presenter, userId, timeZone, batches)))
}
