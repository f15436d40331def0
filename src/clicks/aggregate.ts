/**
 * Turns a batch of click rows into what the flush writes: per-day counts of every dimension,
 * the links' click increments, and the (link, day, visitor) triples to check for uniques.
 * Unknown values are kept as '' so every dimension adds up to the day's total.
 */
import { dayOf, type ClickRow, type Dimension } from './event.js'

export interface StatIncrement {
  link_id: number
  dimension: Dimension | 'visitors'
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

export function aggregate(rows: readonly ClickRow[], counted: readonly boolean[]): Aggregate {
  const stats = new Map<string, StatIncrement>()
  const bump = (link_id: number, dimension: Dimension, day: string, value: string | null) => {
    const key = `${link_id}\u0000${dimension}\u0000${day}\u0000${value ?? ''}`
    const found = stats.get(key)
    if (found) found.clicks++
    else stats.set(key, { link_id, dimension, day, value: value ?? '', clicks: 1 })
  }
  const linkClicks = new Map<number, number>()
  const visitors = new Map<string, { link_id: number; day: string; visitor: string }>()
  rows.forEach((row, i) => {
    const day = dayOf(row.at)
    bump(row.link_id, 'total', day, '')
    bump(row.link_id, 'hour', day, new Date(row.at).toISOString().slice(11, 13))
    bump(row.link_id, 'country', day, row.country)
    bump(row.link_id, 'platform', day, row.platform)
    bump(row.link_id, 'browser', day, row.browser)
    bump(row.link_id, 'device', day, row.device)
    bump(row.link_id, 'language', day, row.language)
    bump(row.link_id, 'referrer', day, row.referrer)
    if (!counted[i]) linkClicks.set(row.link_id, (linkClicks.get(row.link_id) ?? 0) + 1)
    visitors.set(`${row.link_id}\u0000${day}\u0000${row.visitor}`, {
      link_id: row.link_id,
      day,
      visitor: row.visitor,
    })
  })
  return { stats: [...stats.values()], linkClicks, visitors: [...visitors.values()] }
}
