/**
 * Clicks written straight into a database through the real aggregation and click store (the
 * daily and monthly rows the statistics read), without a redirect: for tests that need known
 * clicks on known days, or stored values no real visitor could send.
 */
import { aggregate } from '../../src/clicks/aggregate.js'
import type { ClickRow } from '../../src/clicks/event.js'
import { clickStoreFor } from '../../src/clicks/store.js'
import type { Db } from '../../src/db/connect.js'

/** A click of `linkId` at `iso` (UTC); every described field may be overridden. */
export function click(linkId: number, iso: string, over: Partial<ClickRow> = {}): ClickRow {
  return {
    link_id: linkId,
    at: Date.parse(iso),
    country: 'DE',
    platform: 'Windows',
    browser: 'Chrome',
    device: 'desktop',
    language: 'de',
    referrer: null,
    visitor: `v-${Math.random().toString(36).slice(2, 10)}`,
    region: null,
    city: null,
    utm_source: null,
    utm_medium: null,
    utm_campaign: null,
    destination: null,
    source: 'link',
    ...over,
  }
}

/** `n` copies of a click (each its own visitor unless `visitor` is given). */
export function clicks(n: number, linkId: number, iso: string, over: Partial<ClickRow> = {}) {
  return Array.from({ length: n }, () => click(linkId, iso, over))
}

/** Writes the clicks in one batch, as the click writer does. */
export async function writeClicks(db: Db, rows: ClickRow[]): Promise<void> {
  await clickStoreFor(db).write({
    rows,
    aggregate: aggregate(
      rows,
      rows.map(() => false),
    ),
    rotations: new Map(),
    deliveries: [],
  })
}
