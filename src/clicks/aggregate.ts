/**
 * Turns a batch of click rows into what the flush writes: per-day counts of every dimension,
 * the links' click increments, and the (link, day, visitor) triples to check for uniques.
 * Clicks are grouped by their whole description first, so a batch of similar clicks costs one
 * map entry each, not one per dimension. Unknown values are kept as '' so every dimension adds
 * up to the day's total. Countries, referrers, regions and cities are also counted per month
 * (`<dimension>/month`, day `YYYY-MM`), which the statistics read for whole months. A region
 * or city is kept with its country (`placeValue`), so that one name in two countries stays two
 * rows.
 */
import { FACT_COLUMNS } from './columns.js'
import {
  dayOf,
  hourOf,
  monthlyOf,
  type ClickRow,
  type Dimension,
  type MonthlyDimension,
} from './event.js'

export interface StatIncrement {
  link_id: number
  dimension: Dimension | MonthlyDimension | 'visitors'
  day: string
  value: string
  clicks: number
}

export interface Aggregate {
  stats: StatIncrement[]
  /** Increments of `links.clicks` (clicks not already counted by the click-limit step). */
  linkClicks: Map<number, number>
  visitors: { link_id: number; day: string; visitor: string }[]
}

const SEP = '\u0000'

/** Between a region's or city's name and its country code in a stored value. */
export const PLACE_SEP = '\u001f'

/** `Bavaria␟DE`: sorted by name first; unknown (no name) is ''. */
export function placeValue(name: string | null, country: string | null): string | null {
  return name === null ? null : `${name}${PLACE_SEP}${country ?? ''}`
}

/** The name and country of a stored region or city value. */
export function splitPlace(value: string): { name: string; country: string | null } {
  const at = value.lastIndexOf(PLACE_SEP)
  if (at === -1) return { name: value, country: null }
  return { name: value.slice(0, at), country: value.slice(at + 1) || null }
}

export function aggregate(rows: readonly ClickRow[], counted: readonly boolean[]): Aggregate {
  const groups = new Map<string, { row: ClickRow; day: string; hour: string; clicks: number }>()
  const linkClicks = new Map<number, number>()
  const visitors = new Map<string, { link_id: number; day: string; visitor: string }>()
  rows.forEach((row, i) => {
    const day = dayOf(row.at)
    const hour = hourOf(row.at)
    let key = `${row.link_id}${SEP}${day}${SEP}${hour}`
    for (const column of FACT_COLUMNS) key += SEP + (row[column] ?? '')
    const group = groups.get(key)
    if (group) group.clicks++
    else groups.set(key, { row, day, hour, clicks: 1 })
    if (!counted[i]) linkClicks.set(row.link_id, (linkClicks.get(row.link_id) ?? 0) + 1)
    const visitorKey = `${row.link_id}${SEP}${day}${SEP}${row.visitor}`
    if (!visitors.has(visitorKey))
      visitors.set(visitorKey, { link_id: row.link_id, day, visitor: row.visitor })
  })

  const stats = new Map<string, StatIncrement>()
  const bump = (
    link_id: number,
    dimension: Dimension | MonthlyDimension,
    day: string,
    value: string | null,
    clicks: number,
  ) => {
    const key = `${link_id}${SEP}${dimension}${SEP}${day}${SEP}${value ?? ''}`
    const found = stats.get(key)
    if (found) found.clicks += clicks
    else stats.set(key, { link_id, dimension, day, value: value ?? '', clicks })
  }
  for (const { row, day, hour, clicks } of groups.values()) {
    const month = day.slice(0, 7)
    bump(row.link_id, 'total', day, '', clicks)
    bump(row.link_id, 'hour', day, hour, clicks)
    for (const column of FACT_COLUMNS) {
      const value =
        column === 'region' || column === 'city'
          ? placeValue(row[column], row.country)
          : row[column]
      bump(row.link_id, column, day, value, clicks)
      const perMonth = monthlyOf(column)
      if (perMonth !== null) bump(row.link_id, perMonth, month, value, clicks)
    }
  }
  return { stats: [...stats.values()], linkClicks, visitors: [...visitors.values()] }
}

/** New unique visitors become `visitors` increments, one per link and day. */
export function visitorIncrements(
  fresh: readonly { link_id: number; day: string }[],
): StatIncrement[] {
  const merged = new Map<string, StatIncrement>()
  for (const v of fresh) {
    const key = `${v.link_id}\u0000${v.day}`
    const found = merged.get(key)
    if (found) found.clicks++
    else
      merged.set(key, {
        link_id: v.link_id,
        dimension: 'visitors',
        day: v.day,
        value: '',
        clicks: 1,
      })
  }
  return [...merged.values()]
}
