/**
 * A click as the redirect hands it over, after the response is on its way: the raw request
 * facts only. Country, platform, browser, device, language, referrer host and the salted
 * visitor hash are worked out later, off the request path; address and User-Agent are never
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
}

/** What one click keeps in the database. */
export interface ClickRow {
  link_id: number
  at: number
  country: string | null
  platform: string | null
  browser: string | null
  device: string | null
  language: string | null
  referrer: string | null
  visitor: string
}

/** The statistic dimensions kept per link and day (`total` is the day's click count). */
export const DIMENSIONS = [
  'total',
  'hour',
  'country',
  'platform',
  'browser',
  'device',
  'language',
  'referrer',
] as const
export type Dimension = (typeof DIMENSIONS)[number]

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
