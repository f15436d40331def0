import type { ClicksTable } from '../db/types.js'
import { FACT_COLUMNS } from './columns.js'
/**
 * A click as the redirect hands it over, after the response is on its way: the raw request
 * facts and the destination it chose only. Country, region, city, platform, browser, device,
 * language, referrer host, UTM values, source and the salted visitor hash are worked out later, off the request path; address and User-Agent are never
 * stored.
 */
export interface ClickEvent {
  linkId: number
  /** The link's `clicks` was already raised by the atomic click-limit step. */
  counted: boolean
  at: number
  ip: string
  userAgent: string
  acceptLanguage: string | undefined
  referer: string | undefined
  /** The short URL's raw query, without `?` (its `utm_*` and `qr=1` are read later). */
  query: string
  /** Where the visit was sent: the chosen destination, before the visitor's query is merged. */
  destination: string
}

/** What one click keeps in the database: a row of the click log. */
export type ClickRow = ClicksTable

/** The statistic dimensions kept per link and day (`total` is the day's click count). */
export const DIMENSIONS = ['total', 'hour', ...FACT_COLUMNS] as const
export type Dimension = (typeof DIMENSIONS)[number]

/** The dimensions of the stats lists (all but the total). */
export type ListDimension = Exclude<Dimension, 'total'>

/**
 * The dimensions with many values, also kept per month (as `<dimension>/month`, with a
 * `YYYY-MM` day): about 250 countries, thousands of regions and cities, and referrer hosts
 * without end make hundreds of rows a day, and a long period reads a dozen monthly rows per
 * value instead. The others have a few values each (24 hours, 7 platforms, a few browsers,
 * devices and languages, a link's destinations and campaigns, two sources): their daily rows
 * stay cheap to read, and one more row per click batch each would not pay for itself.
 */
export const MONTHLY_DIMENSIONS = ['country', 'referrer', 'region', 'city'] as const
export type MonthlyBase = (typeof MONTHLY_DIMENSIONS)[number]
export type MonthlyDimension = `${MonthlyBase}/month`

/** The monthly dimension of a dimension, or null when it is kept per day only. */
export function monthlyOf(dimension: Dimension): MonthlyDimension | null {
  const kept = MONTHLY_DIMENSIONS.find((d) => d === dimension)
  return kept === undefined ? null : `${kept}/month`
}

const DAY_MS = 86_400_000
let lastDayNumber = Number.NaN
let lastDay = ''

/** `YYYY-MM-DD` of an instant, in UTC (the last answer is remembered: clicks come in order). */
export function dayOf(at: number): string {
  const n = Math.floor(at / DAY_MS)
  if (n !== lastDayNumber) {
    lastDayNumber = n
    lastDay = new Date(n * DAY_MS).toISOString().slice(0, 10)
  }
  return lastDay
}

/** `00`–`23`: the UTC hour of an instant. */
export function hourOf(at: number): string {
  const hour = Math.floor(at / 3_600_000) % 24
  return hour < 10 ? `0${hour}` : String(hour)
}
