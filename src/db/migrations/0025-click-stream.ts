import type { Kysely } from 'kysely'
import type { Dialect } from '../connect.js'

/**
 * The click stream's outbox (CLICK_STREAM_URL, clicks/stream-publisher.ts): `click_stream` holds
 * one row per stored click still to publish, written in the clicks' own transaction; its `id` is
 * the event's id. Published rows are deleted. `click_stream_lease` names the one process that
 * publishes at a time, until its lease runs out.
 */
export function clickStream(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      const big = dialect === 'postgres' ? 'bigint' : 'integer'
      await (
        dialect === 'postgres'
          ? db.schema
              .createTable('click_stream')
              .addColumn('id', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
          : db.schema
              .createTable('click_stream')
              .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
      )
        .addColumn('link_id', 'integer', (c) => c.notNull())
        .addColumn('event', 'text', (c) => c.notNull())
        .execute()
      await db.schema
        .createTable('click_stream_lease')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('holder', 'text', (c) => c.notNull())
        .addColumn('until', big, (c) => c.notNull())
        .execute()
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('click_stream_lease').execute()
      await db.schema.dropTable('click_stream').execute()
    },
  }
}
