/**
 * Clicks on their way from the request thread to the writer, one array per field: recording a
 * click appends to arrays instead of allocating an object, and the arrays cross to the worker
 * thread cheaply.
 */
import type { ClickEvent } from './event.js'

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
