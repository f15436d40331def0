/**
 * Writes a flushed batch of clicks in one transaction: the click rows, the per-day
 * aggregates (upserted), the links' click counts, new unique visitors, and rotation positions.
 */
import type { Kysely, Transaction } from 'kysely'
import type { Db } from '../db/connect.js'
import type { Database } from '../db/types.js'
import type { Aggregate, StatIncrement } from './aggregate.js'
import type { ClickRow } from './event.js'

export interface ClickBatch {
  rows: ClickRow[]
  aggregate: Aggregate
  /** Rotation counters to persist as `last_rotation`. */
  rotations: Map<number, number>
}

export interface ClickStore {
  write(batch: ClickBatch): Promise<void>
}

const CHUNK = 500

function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = []
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK))
  return out
}

async function upsertStats(
  trx: Transaction<Database> | Kysely<Database>,
  stats: StatIncrement[],
): Promise<void> {
  for (const part of chunks(stats)) {
    await trx
      .insertInto('click_stats')
      .values(part)
      .onConflict((oc) =>
        oc.columns(['link_id', 'dimension', 'day', 'value']).doUpdateSet((eb) => ({
          clicks: eb('click_stats.clicks', '+', eb.ref('excluded.clicks')),
        })),
      )
      .execute()
  }
}

export class SqlClickStore implements ClickStore {
  constructor(private readonly db: Db) {}

  write(batch: ClickBatch): Promise<void> {
    return this.db.kysely.transaction().execute(async (trx) => {
      // Links deleted since the click are skipped: their statistics went with them.
      const ids = [...new Set(batch.rows.map((r) => r.link_id))]
      const alive = new Set<number>()
      for (const part of chunks(ids)) {
        const found = await trx.selectFrom('links').select('id').where('id', 'in', part).execute()
        for (const row of found) alive.add(row.id)
      }
      const rows = batch.rows.filter((r) => alive.has(r.link_id))
      for (const part of chunks(rows)) await trx.insertInto('clicks').values(part).execute()

      const newVisitors: StatIncrement[] = []
      for (const part of chunks(batch.aggregate.visitors.filter((v) => alive.has(v.link_id)))) {
        const inserted = await trx
          .insertInto('click_visitors')
          .values(part)
          .onConflict((oc) => oc.columns(['link_id', 'day', 'visitor']).doNothing())
          .returning(['link_id', 'day'])
          .execute()
        for (const v of inserted)
          newVisitors.push({
            link_id: v.link_id,
            dimension: 'visitors',
            day: v.day,
            value: '',
            clicks: 1,
          })
      }
      await upsertStats(trx, [
        ...batch.aggregate.stats.filter((s) => alive.has(s.link_id)),
        ...mergeVisitors(newVisitors),
      ])

      for (const [linkId, n] of batch.aggregate.linkClicks) {
        if (!alive.has(linkId)) continue
        await trx
          .updateTable('links')
          .set((eb) => ({ clicks: eb('clicks', '+', n) }))
          .where('id', '=', linkId)
          .execute()
      }
      for (const [linkId, position] of batch.rotations) {
        await trx
          .updateTable('links')
          .set({ last_rotation: position })
          .where('id', '=', linkId)
          .execute()
      }
    })
  }
}

function mergeVisitors(increments: StatIncrement[]): StatIncrement[] {
  const merged = new Map<string, StatIncrement>()
  for (const inc of increments) {
    const key = `${inc.link_id}\u0000${inc.day}`
    const found = merged.get(key)
    if (found) found.clicks += inc.clicks
    else merged.set(key, { ...inc })
  }
  return [...merged.values()]
}
