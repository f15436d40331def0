/**
 * What the statistics read: sums of the per-day (and per-month) aggregates the click writer
 * keeps in `click_stats`, never the click log. Every read is a range of the table's primary key
 * (link, dimension, day, value), so its cost follows the rows of the period, not the clicks.
 */
import type { Page } from '../db/paging.js'
import type { Span } from './spans.js'

/** One value and its clicks; `value` is `''` for an unknown value. */
export interface StatRow {
  value: string
  count: number
}

export interface StatOrder {
  by: 'count' | 'value'
  direction: 'asc' | 'desc'
}

/** Whose clicks: one link's, or (`tagId` given, `linkId` then not read) a tag's links' together. */
export interface StatSubject {
  linkId: number
  tagId?: number
}

export interface StatQuery extends StatSubject {
  /** The rows to add up (see spans.ts); at least one. */
  spans: readonly Span[]
  /** What a result row is: each stored value, or each day (for per-day counts). */
  key: 'value' | 'day'
  /** Ties (equal counts) always break by value, ascending, in byte order. */
  order: StatOrder
  limit: number
  offset: number
}

export interface StatsStore {
  /** A page of the summed rows, and how many rows there are in all. */
  sums(query: StatQuery): Promise<Page<StatRow>>
}
