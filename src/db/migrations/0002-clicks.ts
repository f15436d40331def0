import type { Kysely } from 'kysely'
import type { Dialect } from '../connect.js'

/**
 * Clicks: one compact row per counted click (no address, no User-Agent), the per-day
 * aggregates the statistics read, and the visitor hashes of the last two days (for uniques).
 */
export function clicks(dialect: Dialect) {
  const big = dialect === 'postgres' ? 'bigint' : 'integer'
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('clicks')
        .addColumn('link_id', 'integer', (c) =>
          c.notNull().references('links.id').onDelete('cascade'),
        )
        .addColumn('at', big, (c) => c.notNull())
        .addColumn('country', 'text')
        .addColumn('platform', 'text')
        .addColumn('browser', 'text')
        .addColumn('device', 'text')
        .addColumn('language', 'text')
        .addColumn('referrer', 'text')
        .addColumn('visitor', 'text', (c) => c.notNull())
        .execute()
      await db.schema
        .createIndex('clicks_link_at')
        .on('clicks')
        .columns(['link_id', 'at'])
        .execute()

      // dimension: total, hour, country, platform, browser, device, language, referrer, visitors
      await db.schema
        .createTable('click_stats')
        .addColumn('link_id', 'integer', (c) =>
          c.notNull().references('links.id').onDelete('cascade'),
        )
        .addColumn('dimension', 'text', (c) => c.notNull())
        .addColumn('day', 'text', (c) => c.notNull())
        .addColumn('value', 'text', (c) => c.notNull())
        .addColumn('clicks', big, (c) => c.notNull())
        .addPrimaryKeyConstraint('click_stats_pk', ['link_id', 'dimension', 'day', 'value'])
        .execute()

      await db.schema
        .createTable('click_visitors')
        .addColumn('link_id', 'integer', (c) =>
          c.notNull().references('links.id').onDelete('cascade'),
        )
        .addColumn('day', 'text', (c) => c.notNull())
        .addColumn('visitor', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('click_visitors_pk', ['link_id', 'day', 'visitor'])
        .execute()
    },
  }
}
