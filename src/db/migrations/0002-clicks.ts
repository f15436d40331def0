import type { Kysely } from 'kysely'
import type { Dialect } from '../connect.js'

/**
 * Clicks: one compact row per counted click (no address, no User-Agent), the per-day
 * aggregates the statistics read, and the visitor hashes of the last two days (for uniques).
 * The click log is append-only and has no index and no foreign key: an index on the link would
 * turn every batch of clicks into scattered page writes (about six times the cost per click,
 * measured), and nothing reads the log by link on a hot path. Rows of deleted links are removed
 * in the background (clicks/orphans.ts).
 */
export function clicks(dialect: Dialect) {
  const big = dialect === 'postgres' ? 'bigint' : 'integer'
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('clicks')
        .addColumn('link_id', 'integer', (c) => c.notNull())
        .addColumn('at', big, (c) => c.notNull())
        .addColumn('country', 'text')
        .addColumn('platform', 'text')
        .addColumn('browser', 'text')
        .addColumn('device', 'text')
        .addColumn('language', 'text')
        .addColumn('referrer', 'text')
        .addColumn('visitor', 'text', (c) => c.notNull())
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
