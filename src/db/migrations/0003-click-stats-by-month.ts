import { sql, type Kysely } from 'kysely'
import type { Dialect } from '../connect.js'

/** The dimensions counted per month as well as per day (see clicks/event.ts). */
const MONTHLY = ['country', 'referrer']

/**
 * Statistics that stay fast over long periods:
 * - on SQLite, `click_stats` becomes a WITHOUT ROWID table, stored in the order of its primary
 *   key (link, dimension, day, value): a period of one link's dimension is one contiguous range
 *   of the table, read without a second lookup per row (and the separate key index is gone,
 *   which halves its size). PostgreSQL keeps its table and primary-key index.
 * - monthly rows of countries and referrers (`<dimension>/month`, day `YYYY-MM`) are added from
 *   the daily ones, so a period of a year reads whole months from a dozen rows per value.
 */
export function clickStatsByMonth(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      if (dialect === 'sqlite') {
        await db.schema
          .createTable('click_stats_clustered')
          .addColumn('link_id', 'integer', (c) =>
            c.notNull().references('links.id').onDelete('cascade'),
          )
          .addColumn('dimension', 'text', (c) => c.notNull())
          .addColumn('day', 'text', (c) => c.notNull())
          .addColumn('value', 'text', (c) => c.notNull())
          .addColumn('clicks', 'integer', (c) => c.notNull())
          .addPrimaryKeyConstraint('click_stats_pk', ['link_id', 'dimension', 'day', 'value'])
          .modifyEnd(sql`without rowid`)
          .execute()
        await sql`INSERT INTO click_stats_clustered (link_id, dimension, day, value, clicks)
          SELECT link_id, dimension, day, value, clicks FROM click_stats
          ORDER BY link_id, dimension, day, value`.execute(db)
        await db.schema.dropTable('click_stats').execute()
        await db.schema.alterTable('click_stats_clustered').renameTo('click_stats').execute()
      }
      await sql`INSERT INTO click_stats (link_id, dimension, day, value, clicks)
        SELECT link_id, dimension || '/month', substr(day, 1, 7), value, sum(clicks)
        FROM click_stats
        WHERE dimension IN (${sql.join(MONTHLY)})
        GROUP BY link_id, dimension, substr(day, 1, 7), value`.execute(db)
    },
  }
}
