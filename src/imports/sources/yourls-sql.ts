/**
 * YOURLS's database as a `.sql` dump (mysqldump, phpMyAdmin): the rows of its URL table (any
 * prefix: a table whose name ends in `url` with `keyword` and `url` columns) and, when the dump
 * has it before them, its click log (`…log`: `shorturl`, `click_time`), counted per link and
 * UTC day. mysqldump and phpMyAdmin write tables in name order, so `yourls_log` comes before
 * `yourls_url`; a log after the URL table is not read. Everything else is skipped.
 */
import { count, emptyRow, instant, text, type DayClicks, type SourceRow } from '../row.js'
import { sqlRows, type SqlRow } from './sql-dump.js'

/** YOURLS's own column order, for INSERTs that have no column list and no CREATE TABLE. */
const URL_COLUMNS = ['keyword', 'url', 'title', 'timestamp', 'ip', 'clicks']
const LOG_COLUMNS = [
  'click_id',
  'click_time',
  'shorturl',
  'referrer',
  'user_agent',
  'ip_address',
  'country_code',
]

/** (link, day) pairs of logged clicks held at most; clicks past it count on the import day. */
export const MAX_LOGGED_DAYS = 1_000_000

const DAY_MS = 86_400_000

const isUrlTable = (name: string) => /url$/i.test(name)
const isLogTable = (name: string) => /log$/i.test(name)

function fields(row: SqlRow, defaults: string[]): Map<string, string | null> {
  const names = row.columns ?? defaults
  return new Map(names.map((name, i) => [name, row.values[i] ?? null]))
}

export async function* readYourlsSql(input: AsyncIterable<string>): AsyncGenerator<SourceRow> {
  // Logged clicks per keyword, per day number (days since 1970-01-01 UTC).
  const logged = new Map<string, Map<number, number>>()
  let pairs = 0
  let line = 0
  for await (const sql of sqlRows(input, (name) => isUrlTable(name) || isLogTable(name))) {
    if (isLogTable(sql.table)) {
      const f = fields(sql, LOG_COLUMNS)
      const keyword = text(f.get('shorturl'))
      const at = instant(f.get('click_time'))
      if (keyword === null || at === null) continue
      const day = Math.floor(at / DAY_MS)
      let days = logged.get(keyword)
      if (days === undefined) {
        if (pairs >= MAX_LOGGED_DAYS) continue
        days = new Map()
        logged.set(keyword, days)
      }
      const before = days.get(day)
      if (before === undefined && pairs >= MAX_LOGGED_DAYS) continue
      if (before === undefined) pairs++
      days.set(day, (before ?? 0) + 1)
      continue
    }
    const row = emptyRow(++line)
    if (sql.problem !== null) {
      row.problem = sql.problem
      yield row
      continue
    }
    const f = fields(sql, URL_COLUMNS)
    if (!f.has('keyword') || !f.has('url')) {
      line--
      continue
    }
    row.alias = text(f.get('keyword'))
    row.key = row.alias
    row.url = text(f.get('url'))
    row.title = text(f.get('title'))
    row.createdAt = instant(f.get('timestamp'))
    row.clicks = count(f.get('clicks'))
    const days = row.alias === null ? undefined : logged.get(row.alias)
    if (days !== undefined) {
      logged.delete(row.alias!)
      pairs -= days.size
      row.history = history(days)
      const sum = row.history.reduce((a, d) => a + d.clicks, 0)
      row.clicks = Math.max(row.clicks, sum)
    }
    yield row
  }
}

function history(days: Map<number, number>): DayClicks[] {
  return [...days]
    .sort((a, b) => a[0] - b[0])
    .map(([day, clicks]) => ({ day: new Date(day * DAY_MS).toISOString().slice(0, 10), clicks }))
}
