/**
 * Writes a batch of clicks in one transaction: the click rows, the per-day aggregates
 * (upserted), the links' click counts, new unique visitors, rotation positions and the
 * batch's webhook deliveries (`click.recorded`), so the clicks and their events commit
 * together. Clicks of links deleted meanwhile are skipped: their statistics went with them.
 */
import type { Db } from '../db/connect.js'
import type { NewClickStreamRow, NewWebhookDeliveryRow } from '../db/types.js'
import { visitorIncrements, type Aggregate } from './aggregate.js'
import type { ClickRow } from './event.js'
import { SqliteClickStore } from './sqlite-store.js'

export interface ClickBatch {
  rows: ClickRow[]
  aggregate: Aggregate
  /** Rotation positions to persist as `last_rotation`. */
  rotations: Map<number, number>
  /** The batch's `click.recorded` deliveries (webhooks/outbox.ts plans them); often none. */
  deliveries: readonly NewWebhookDeliveryRow[]
  /** The batch's click-stream events (clicks/stream-events.ts), when CLICK_STREAM_URL is set. */
  stream?: readonly NewClickStreamRow[]
}

export interface ClickStore {
  write(batch: ClickBatch): Promise<void>
}

/** The store for the database's engine: prepared statements on SQLite, the query builder elsewhere. */
export function clickStoreFor(db: Db): ClickStore {
  return db.sqlite ? new SqliteClickStore(db.sqlite) : new SqlClickStore(db)
}

const CHUNK = 500

function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = []
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK))
  return out
}

export class SqlClickStore implements ClickStore {
  constructor(private readonly db: Db) {}

  write(batch: ClickBatch): Promise<void> {
    return this.db.kysely.transaction().execute(async (trx) => {
      const ids = [...new Set(batch.rows.map((r) => r.link_id))]
      const alive = new Set<number>()
      for (const part of chunks(ids)) {
        for (const row of await trx
          .selectFrom('links')
          .select('id')
          .where('id', 'in', part)
          .execute()) {
          alive.add(row.id)
        }
      }
      const rows = batch.rows.filter((r) => alive.has(r.link_id))
      for (const part of chunks(rows)) await trx.insertInto('clicks').values(part).execute()

      const fresh: { link_id: number; day: string }[] = []
      for (const part of chunks(batch.aggregate.visitors.filter((v) => alive.has(v.link_id)))) {
        const inserted = await trx
          .insertInto('click_visitors')
          .values(part)
          .onConflict((oc) => oc.columns(['link_id', 'day', 'visitor']).doNothing())
          .returning(['link_id', 'day'])
          .execute()
        fresh.push(...inserted)
      }
      const stats = [
        ...batch.aggregate.stats.filter((s) => alive.has(s.link_id)),
        ...visitorIncrements(fresh),
      ]
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
      for (const part of chunks(batch.deliveries)) {
        await trx.insertInto('webhook_outbox').values(part).execute()
      }
      for (const part of chunks((batch.stream ?? []).filter((e) => alive.has(e.link_id)))) {
        await trx.insertInto('click_stream').values(part).execute()
      }
    })
  }
}
