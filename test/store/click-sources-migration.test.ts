/**
 * Migration 0028 on a database with clicks: the click log gains its new columns (null on the
 * clicks already stored), and every day and month with recorded clicks gets each new
 * dimension's unknown value with those clicks, so each dimension still adds up; the totals an
 * import added (without a recorded click) are left out, as for the other dimensions. Runs on
 * SQLite, and on PostgreSQL when reachable.
 */
import { sql } from 'kysely'
import { afterEach, describe, expect, it } from 'vitest'
import type { Db } from '../../src/db/connect.js'
import { migrateTo, migrationNames } from '../../src/db/migrate.js'
import { migrationEngines } from '../support/databases.js'

/** The migration applied just before `name`: the database as the release before it left it. */
const justBefore = (name: string) => migrationNames()[migrationNames().indexOf(name) - 1]!

const engines = await migrationEngines()

for (const engine of engines) {
  describe.skipIf(!engine.ok)(`migration 0028 on ${engine.name}`, () => {
    let opened: { db: Db; drop(): Promise<void> } | null = null
    afterEach(async () => {
      await opened?.drop()
      opened = null
    })

    it('adds the columns and the unknown rows of the clicks already counted', async () => {
      opened = await engine.open()
      const { db } = opened
      const k = db.kysely
      await migrateTo(db, justBefore('0028-click-sources'))
      await sql`INSERT INTO users (name, email, timezone, created_at, updated_at) VALUES ('A', 'a@x', 'UTC', 1, 1)`.execute(
        k,
      )
      await sql`INSERT INTO domains (user_id, name, url, created_at, updated_at) VALUES (NULL, 'short.test', 'https://short.test', 1, 1)`.execute(
        k,
      )
      for (const alias of ['a', 'b'])
        await sql`INSERT INTO links (user_id, domain_id, alias, url, title, title_locked, target_type, disabled, privacy, clicks, created_at, updated_at)
          VALUES (1, 1, ${alias}, 'https://example.com/', NULL, 0, 0, 0, 0, 0, 1, 1)`.execute(k)
      await sql`INSERT INTO clicks (link_id, at, country, platform, browser, device, language, referrer, visitor)
        VALUES (1, ${Date.UTC(2026, 3, 1, 9)}, 'DE', 'Windows', 'Chrome', 'desktop', 'de', NULL, 'v1')`.execute(
        k,
      )
      const stats: [number, string, string, string, number][] = [
        [1, 'total', '2026-04-01', '', 5],
        [1, 'hour', '2026-04-01', '09', 3],
        [1, 'hour', '2026-04-01', '10', 2],
        [1, 'country', '2026-04-01', 'DE', 5],
        [1, 'total', '2026-04-02', '', 1],
        [1, 'hour', '2026-04-02', '00', 1],
        [1, 'country', '2026-04-02', '', 1],
        [1, 'country/month', '2026-04', 'DE', 5],
        [1, 'country/month', '2026-04', '', 1],
        // Brought by an import: a total without recorded clicks.
        [1, 'total', '2026-04-03', '', 40],
        [1, 'imported', '2026-04-03', '', 40],
        [2, 'total', '2026-05-09', '', 2],
        [2, 'hour', '2026-05-09', '23', 2],
        [2, 'country/month', '2026-05', 'FR', 2],
      ]
      for (const [link, dimension, day, value, clicks] of stats)
        await sql`INSERT INTO click_stats (link_id, dimension, day, value, clicks)
          VALUES (${link}, ${dimension}, ${day}, ${value}, ${clicks})`.execute(k)

      expect((await migrateTo(db, '0028-click-sources')).applied).toEqual(['0028-click-sources'])

      const log = await sql<Record<string, unknown>>`SELECT * FROM clicks`.execute(k)
      expect(log.rows).toEqual([
        expect.objectContaining({
          link_id: 1,
          country: 'DE',
          region: null,
          city: null,
          utm_source: null,
          utm_medium: null,
          utm_campaign: null,
          destination: null,
          source: null,
        }),
      ])
      const added = await db.kysely
        .selectFrom('click_stats')
        .select(['link_id', 'dimension', 'day', 'value', 'clicks'])
        .where('dimension', 'not in', ['total', 'hour', 'country', 'country/month', 'imported'])
        .execute()
      const sorted = added
        .map((r) => `${r.link_id} ${r.dimension} ${r.day} ${JSON.stringify(r.value)} ${r.clicks}`)
        .sort()
      const rows = (link: number, day: string, clicks: number, names: string[]) =>
        names.map((n) => `${link} ${n} ${day} "" ${clicks}`)
      const DAILY = [
        'region',
        'city',
        'utm_source',
        'utm_medium',
        'utm_campaign',
        'destination',
        'source',
      ]
      expect(sorted).toEqual(
        [
          ...rows(1, '2026-04-01', 5, DAILY),
          ...rows(1, '2026-04-02', 1, DAILY),
          ...rows(1, '2026-04', 6, ['region/month', 'city/month']),
          ...rows(2, '2026-05-09', 2, DAILY),
          ...rows(2, '2026-05', 2, ['region/month', 'city/month']),
        ].sort(),
      )
    })
  })
}
