import type { VisitorContext } from '../redirects/visitor/context.js'

/**
 * A click as the redirect hands it over, after the response is on its way. The visitor
 * context works out country, platform, browser, device, language and referrer host lazily (the
 * parts targeting needed are already known); address and User-Agent stay in memory until the
 * flush turns them into a salted visitor hash. Neither is ever stored.
 */
export interface ClickEvent {
  linkId: number
  /** The link's `clicks` was already raised by the atomic click-limit step. */
  counted: boolean
  at: number
  ip: string
  userAgent: string
  visitor: VisitorContext
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

/** `YYYY-MM-DD` of an instant, in UTC. */
export function dayOf(at: number): string {
  return new Date(at).toISOString().slice(0, 10)
}
