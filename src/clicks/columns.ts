/**
 * Clicks on their way from the request thread to the writer, one array per field: recording a
 * click appends to arrays instead of allocating an object, and the arrays cross to the worker
 * thread cheaply.
 */
import type { ClickEvent, ClickRow } from './event.js'

/**
 * The click log's columns that describe a visit, each also the statistic dimension of its
 * name: what the request told (`REQUEST_COLUMNS`), then where the visit came from and went
 * (`SOURCE_COLUMNS`; migration 0028, which added them, keeps its own copy).
 */
export const REQUEST_COLUMNS = [
  'country',
  'platform',
  'browser',
  'device',
  'language',
  'referrer',
] as const
export const SOURCE_COLUMNS = [
  'region',
  'city',
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'destination',
  'source',
] as const
export const FACT_COLUMNS = [...REQUEST_COLUMNS, ...SOURCE_COLUMNS] as const

/** Every column of a click row: the link, the instant, the visitor hash and the facts. */
export const CLICK_ROW_COLUMNS = [
  'link_id',
  'at',
  'visitor',
  ...FACT_COLUMNS,
] as const satisfies readonly (keyof ClickRow)[]

export interface ClickColumns {
  linkIds: number[]
  counted: boolean[]
  at: number[]
  ips: string[]
  userAgents: string[]
  acceptLanguages: (string | undefined)[]
  referers: (string | undefined)[]
  queries: string[]
  destinations: string[]
  /** Rotation positions to persist: `[linkId, position]`. */
  rotations: [number, number][]
}

export function emptyColumns(): ClickColumns {
  return {
    linkIds: [],
    counted: [],
    at: [],
    ips: [],
    userAgents: [],
    acceptLanguages: [],
    referers: [],
    queries: [],
    destinations: [],
    rotations: [],
  }
}

export function append(columns: ClickColumns, click: ClickEvent): void {
  columns.linkIds.push(click.linkId)
  columns.counted.push(click.counted)
  columns.at.push(click.at)
  columns.ips.push(click.ip)
  columns.userAgents.push(click.userAgent)
  columns.acceptLanguages.push(click.acceptLanguage)
  columns.referers.push(click.referer)
  columns.queries.push(click.query)
  columns.destinations.push(click.destination)
}

export function toEvents(columns: ClickColumns): ClickEvent[] {
  return columns.linkIds.map((linkId, i) => ({
    linkId,
    counted: columns.counted[i]!,
    at: columns.at[i]!,
    ip: columns.ips[i]!,
    userAgent: columns.userAgents[i]!,
    acceptLanguage: columns.acceptLanguages[i],
    referer: columns.referers[i],
    query: columns.queries[i]!,
    destination: columns.destinations[i]!,
  }))
}
