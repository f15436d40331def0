/**
 * What the stats page shows for a period, read from the aggregates: clicks, unique visitors
 * (the sum of each day's unique visitors), QR scans, all-time clicks, clicks per day and per hour with
 * the days and hours without clicks filled with zeros, and the top values of each dimension.
 */
import { monthlyOf } from '../clicks/event.js'
import { eachDay, type Period } from './period.js'
import { spansOf, type Span } from './spans.js'
import type { StatRow, StatsStore, StatSubject } from './store.js'

export const TOP_DIMENSIONS = [
  'country',
  'referrer',
  'platform',
  'browser',
  'device',
  'language',
  'region',
  'city',
  'source',
  'destination',
  'utm_source',
  'utm_medium',
  'utm_campaign',
] as const
export type TopDimension = (typeof TOP_DIMENSIONS)[number]
/** How many values each dimension's table shows. */
export const TOP_LIMIT = 10

export interface StatsOverview {
  period: Period
  clicks: number
  visitors: number
  /** Clicks through the QR code (`source` `qr`). */
  scans: number
  allTime: number
  days: { day: string; clicks: number }[]
  hours: { hour: string; clicks: number }[]
  /** Per dimension: its most clicked values, and how many values it has in all. */
  top: { dimension: TopDimension; rows: StatRow[]; values: number }[]
}

const HOURS = Array.from({ length: 24 }, (_, h) => String(h).padStart(2, '0'))
const ALL_TIME: Period = { from: '0000-01-01', to: '9999-12-31' }

/** The overview of one link, or of the links carrying a tag together. */
export async function statsOverview(
  store: StatsStore,
  subject: StatSubject,
  period: Period,
): Promise<StatsOverview> {
  const read = (spans: Span[], key: 'value' | 'day', by: 'count' | 'value', limit: number) =>
    store.sums({
      ...subject,
      spans,
      key,
      order: { by, direction: by === 'count' ? 'desc' : 'asc' },
      limit,
      offset: 0,
    })
  const sum = async (dimension: string, of: Period) =>
    (await read([{ dimension, ...of }], 'value', 'count', 1)).rows[0]?.count ?? 0

  const perDay = await read([{ dimension: 'total', ...period }], 'day', 'value', 400)
  const byDay = new Map(perDay.rows.map((r) => [r.value, r.count]))
  const days = eachDay(period).map((day) => ({ day, clicks: byDay.get(day) ?? 0 }))
  const perHour = await read(spansOf(period, 'hour', null), 'value', 'value', 24)
  const byHour = new Map(perHour.rows.map((r) => [r.value, r.count]))
  const top: StatsOverview['top'] = []
  for (const dimension of TOP_DIMENSIONS) {
    const page = await read(
      spansOf(period, dimension, monthlyOf(dimension)),
      'value',
      'count',
      TOP_LIMIT,
    )
    top.push({ dimension, rows: page.rows, values: page.total })
  }
  const sources = top.find((t) => t.dimension === 'source')?.rows ?? []
  return {
    period,
    clicks: days.reduce((total, d) => total + d.clicks, 0),
    visitors: await sum('visitors', period),
    scans: sources.find((r) => r.value === 'qr')?.count ?? 0,
    allTime: await sum('total', ALL_TIME),
    days,
    hours: HOURS.map((hour) => ({ hour, clicks: byHour.get(hour) ?? 0 })),
    top,
  }
}
