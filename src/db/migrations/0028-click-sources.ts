import { sql, type Kysely } from 'kysely'

/** The new daily dimensions, and those of them also counted per month (see clicks/event.ts). */
const DAILY = [
  'region',
  'city',
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'destination',
  'source',
]
const MONTHLY = ['region', 'city']

/**
 * Where a click came from and went: the click log gains region, city, the short URL's UTM
 * values, the destination and the source (`qr` or `link`). Clicks stored before know none of
 * them: every day and month with clicks gets each new dimension's unknown value ('') with the
 * day's (month's) recorded clicks, as the click writer would have counted them, so each
 * dimension still adds up to the clicks of a period. The clicks come from the `hour` rows
 * (every recorded click, without the totals an import added) and the `country/month` rows.
 */
export function clickSources() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      for (const column of DAILY) {
        await db.schema.alterTable('clicks').addColumn(column, 'text').execute()
      }
      for (const dimension of DAILY) {
        await sql`INSERT INTO click_stats (link_id, dimension, day, value, clicks)
          SELECT link_id, ${sql.lit(dimension)}, day, '', sum(clicks) FROM click_stats
          WHERE dimension = 'hour'
          GROUP BY link_id, day`.execute(db)
      }
      for (const dimension of MONTHLY) {
        await sql`INSERT INTO click_stats (link_id, dimension, day, value, clicks)
          SELECT link_id, ${sql.lit(`${dimension}/month`)}, day, '', sum(clicks) FROM click_stats
          WHERE dimension = 'country/month'
          GROUP BY link_id, day`.execute(db)
      }
    },
  }
}
