/**
 * The export files of other shorteners, each read into source rows. What each carries over
 * and loses is in docs/import.md. Column names are matched case-insensitively.
 */
import {
  count,
  emptyRow,
  instant,
  splitShortUrl,
  splitTags,
  text,
  withTags,
  type SourceRow,
} from '../row.js'
import { csvRecords, decoded, pick, type CsvRecord } from './csv-records.js'
import { jsonItems, type JsonItem } from './json-items.js'
import { readYourlsSql } from './yourls-sql.js'

type Bytes = AsyncIterable<Buffer | Uint8Array>

/**
 * The shared short domains of the hosted services: nobody can bring them along, so their links
 * land on the account's default domain, keeping their aliases. A custom (branded) domain is
 * kept, and must be one of the owner's domains here.
 */
const SHARED_DOMAINS = new Set(['bit.ly', 'bitly.com', 'j.mp', 'dub.sh', 'dub.co', 'dub.link'])

function ownDomain(host: string | null): string | null {
  return host === null || SHARED_DOMAINS.has(host) ? null : host
}

async function* fromCsv(
  input: Bytes,
  map: (fields: Record<string, string>, row: SourceRow) => void,
): AsyncGenerator<SourceRow> {
  for await (const record of csvRecords(input)) yield rowOf(record, map)
}

function rowOf(
  record: CsvRecord,
  map: (fields: Record<string, string>, row: SourceRow) => void,
): SourceRow {
  const row = emptyRow(record.line)
  if (record.problem !== null) row.problem = record.problem
  else map(record.fields, row)
  return row
}

/**
 * YOURLS: its `yourls_url` table as CSV (keyword, url, title, timestamp, ip, clicks), or its
 * database as a `.sql` dump (yourls-sql.ts), told apart by the first bytes: a dump begins with
 * a comment or a statement.
 */
export async function* readYourls(input: Bytes): AsyncGenerator<SourceRow> {
  const bytes = await firstBytes(input)
  if (SQL_START.test(bytes.head)) {
    yield* readYourlsSql(decoded(bytes.stream))
    return
  }
  yield* fromCsv(bytes.stream, (f, row) => {
    row.alias = text(f.keyword)
    row.key = row.alias
    row.url = text(f.url)
    row.title = text(f.title)
    row.createdAt = instant(f.timestamp)
    row.clicks = count(f.clicks)
  })
}

/** How a MySQL dump begins (after a byte-order mark and blank lines): a comment or a statement. */
const SQL_START =
  /^(\uFEFF)?\s*(--|#|\/\*|(set|create|insert|drop|lock|use|replace|start|begin)\s)/i

/**
 * Shlink's CSV export: createdAt, domain, shortCode, shortUrl, longUrl, title, tags (names
 * joined by `|`), visits.
 */
export function readShlinkCsv(input: Bytes): AsyncGenerator<SourceRow> {
  return fromCsv(input, (f, row) => {
    const short = splitShortUrl(pick(f, 'shorturl', 'short_url'))
    row.alias = pick(f, 'shortcode', 'short_code') ?? short.alias
    row.domain = text(f.domain)?.toLowerCase() ?? short.domain
    row.key = pick(f, 'shorturl', 'short_url') ?? `${row.domain ?? ''}/${row.alias ?? ''}`
    row.url = pick(f, 'longurl', 'long_url')
    row.title = text(f.title)
    row.createdAt = instant(pick(f, 'createdat', 'created_at', 'datecreated'))
    row.clicks = count(pick(f, 'visits', 'visitscount', 'visits_count'))
    withTags(row, splitTags(f.tags, '|'))
  })
}

/**
 * Bitly's link export (CSV: link or bitlink, long_url, title, created_at, clicks, tags joined
 * by `,`; or the JSON of its v4 `bitlinks` list: `{"links":[{id, link, long_url, title,
 * created_at, tags: [names], …}]}`).
 */
export async function* readBitly(input: Bytes): AsyncGenerator<SourceRow> {
  const bytes = await firstBytes(input)
  if (bytes.json) {
    for await (const { row, item } of jsonRows(bytes.stream)) {
      const short = splitShortUrl(item.id ?? item.link)
      row.key = text(item.id) ?? text(item.link)
      row.domain = ownDomain(short.domain)
      row.alias = short.alias
      row.url = text(item.long_url)
      row.title = text(item.title)
      row.createdAt = instant(item.created_at)
      row.clicks = count(item.clicks)
      withTags(row, Array.isArray(item.tags) ? item.tags : [])
      yield row
    }
    return
  }
  yield* fromCsv(bytes.stream, (f, row) => {
    const link = pick(f, 'bitlink', 'link', 'short link', 'short_url', 'id')
    const short = splitShortUrl(link)
    row.key = link
    row.domain = ownDomain(short.domain)
    row.alias = short.alias
    row.url = pick(f, 'long_url', 'long url', 'destination', 'destination url')
    row.title = pick(f, 'title')
    row.createdAt = instant(pick(f, 'created_at', 'created', 'date created', 'created date'))
    row.clicks = count(pick(f, 'clicks', 'total clicks', 'engagements'))
    withTags(row, splitTags(f.tags, ','))
  })
}

/**
 * Dub's link export (CSV: link or shortLink, url, title, clicks, createdAt, Tags joined by `, `;
 * or JSON, its links' `tags` objects or `tagNames`).
 */
export async function* readDub(input: Bytes): AsyncGenerator<SourceRow> {
  const bytes = await firstBytes(input)
  const map = (get: (...names: string[]) => string | null, row: SourceRow, tags: unknown[]) => {
    const link = get('shortlink', 'short link', 'link')
    const short = splitShortUrl(link)
    row.domain = ownDomain(get('domain')?.toLowerCase() ?? short.domain)
    row.alias = get('key') ?? short.alias
    row.key = get('id', 'link id') ?? link
    row.url = get('url', 'destination url', 'destination')
    row.title = get('title')
    row.createdAt = instant(get('createdat', 'created at', 'created_at'))
    row.clicks = count(get('clicks'))
    row.password = get('password')
    row.endsAt = instant(get('expiresat', 'expires at'))
    row.disabled = /^true$/i.test(get('archived') ?? '')
    withTags(row, tags)
  }
  if (bytes.json) {
    for await (const { row, item } of jsonRows(bytes.stream)) {
      const lower = Object.fromEntries(Object.entries(item).map(([k, v]) => [k.toLowerCase(), v]))
      map(
        (...names) => {
          for (const n of names) {
            const v = text(lower[n])
            if (v !== null) return v
          }
          return null
        },
        row,
        dubTags(lower.tags, lower.tagnames),
      )
      yield row
    }
    return
  }
  yield* fromCsv(bytes.stream, (f, row) =>
    map((...names) => pick(f, ...names), row, splitTags(f.tags, ',')),
  )
}

/** Dub's tags: `tags` as objects with a `name` (or plain names), else `tagNames`. */
function dubTags(tags: unknown, tagNames: unknown): unknown[] {
  if (Array.isArray(tags) && tags.length > 0)
    return tags.map((tag: unknown) =>
      typeof tag === 'object' && tag !== null ? (tag as { name?: unknown }).name : tag,
    )
  return Array.isArray(tagNames) ? tagNames : []
}

/**
 * Sink's export (JSON from its dashboard: `{"links":[{id, url, slug, comment, title,
 * createdAt, expiration, …}]}`, times in Unix seconds). Sink keeps no click totals there.
 */
export async function* readSink(input: Bytes): AsyncGenerator<SourceRow> {
  for await (const { row, item } of jsonRows(input)) {
    row.key = text(item.id) ?? text(item.slug)
    row.alias = text(item.slug)
    row.url = text(item.url)
    row.title = text(item.title) ?? text(item.comment)
    row.createdAt = instant(item.createdAt)
    row.endsAt = instant(item.expiration)
    yield row
  }
}

/**
 * The rows of a JSON export's link list (its top-level array, or its `links`), streamed, each
 * with the item it comes from; an item that could not be read comes as a row with its problem
 * and an empty item.
 */
async function* jsonRows(input: Bytes): AsyncGenerator<{ row: SourceRow; item: JsonItem }> {
  let line = 0
  for await (const entry of jsonItems(input, 'links')) {
    const row = emptyRow(++line)
    row.problem = entry.problem
    yield { row, item: entry.item ?? {} }
  }
}

/** Peeks at the first bytes: JSON (starts with `{` or `[`) or not; the stream stays whole. */
async function firstBytes(input: Bytes) {
  const iterator = input[Symbol.asyncIterator]()
  const first = await iterator.next()
  const head = first.done ? Buffer.alloc(0) : Buffer.from(first.value)
  const start = head.subarray(0, 64).toString('utf8')
  const json = /^(\uFEFF)?\s*[[{]/.test(start)
  async function* stream(): AsyncGenerator<Buffer> {
    try {
      if (head.length > 0) yield head
      for (let next = await iterator.next(); !next.done; next = await iterator.next())
        yield Buffer.from(next.value)
    } finally {
      // Stopped early (a cap, an error): the input (a file's stream) is closed too.
      await iterator.return?.()
    }
  }
  return { json, head: start, stream: stream() }
}
