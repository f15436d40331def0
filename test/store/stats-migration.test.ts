/**
 * Migration 0003 on a database written by the previous version: monthly rows are added from
 * the daily ones, and on SQLite the aggregates become a WITHOUT ROWID table (rows, key and
 * link cascade kept). Runs on SQLite, and on PostgreSQL when reachable.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql, type Kysely } from 'kysely'
import { afterEach, describe, expect, it } from 'vitest'
import { openDatabase, type Db } from '../../src/db/connect.js'
import { initial } from '../../src/db/migrations/0001-initial.js'
import { clicks } from '../../src/db/migrations/0002-clicks.js'
import { clickStatsByMonth } from '../../src/db/migrations/0003-click-stats-by-month.js'
import { emptyPostgres, postgresCheck } from '../support/databases.js'

const postgres = await postgresCheck()

const engines: { name: string; ok: boolean; open(): Promise<{ db: Db; drop(): Promise<void> }> }[] =
  [
    {
      name: 'SQLite',
      ok: true,
      async open() {
        const dir = mkdtempSync(join(tmpdir(), 'slink-migration-'))
        const db = openDatabase({ kind: 'sqlite', path: join(dir, 'm.db') })
        return {
          db,
          drop: async () => (await db.close(), rmSync(dir, { recursive: true, force: true })),
        }
      },
    },
    {
      name: 'PostgreSQL',
      ok: postgres.ok,
      async open() {
        const empty = await emptyPostgres()
        const db = openDatabase({ kind: 'postgres', url: empty.url })
        return { db, drop: async () => (await db.close(), await empty.drop()) }
      },
    },
  ]

for (const engine of engines) {
  describe.skipIf(!engine.ok)(`migration 0003 on ${engine.name}`, () => {
    let opened: { db: Db; drop(): Promise<void> } | null = null
    afterEach(async () => {
      await opened?.drop()
      opened = null
    })

    it('adds monthly rows from the daily ones, keeping the daily rows and the link cascade', async () => {
      opened = await engine.open()
      const { db } = opened
      const k = db.kysely as unknown as Kysely<unknown>
      await initial(db.dialect).up(k)
      await clicks(db.dialect).up(k)
      await sql`INSERT INTO users (name, email, timezone, created_at, updated_at) VALUES ('A', 'a@x', 'UTC', 1, 1)`.execute(
        k,
      )
      await sql`INSERT INTO domains (name, url, created_at, updated_at) VALUES ('s.test', 'http://s.test', 1, 1)`.execute(
        k,
      )
      await sql`INSERT INTO links (user_id, domain_id, alias, url, created_at, updated_at) VALUES (1, 1, 'a', 'https://e.test', 1, 1)`.execute(
        k,
      )
      const daily = [
        ['total', '2026-01-31', '', 3],
        ['country', '2026-01-30', 'DE', 2],
        ['country', '2026-01-31', 'DE', 1],
        ['country', '2026-02-01', '', 4],
        ['visitors', '2026-01-31', '', 2],
      ] as const
      for (const [dimension, day, value, n] of daily)
        await db.kysely
          .insertInto('click_stats')
          .values({ link_id: 1, dimension, day, value, clicks: n })
          .execute()

      await clickStatsByMonth(db.dialect).up(k)

      const rows = await db.kysely
        .selectFrom('click_stats')
        .select(['dimension', 'day', 'value', 'clicks'])
        .orderBy('dimension')
        .orderBy('day')
        .execute()
      expect(rows).toEqual([
        { dimension: 'country', day: '2026-01-30', value: 'DE', clicks: 2 },
        { dimension: 'country', day: '2026-01-31', value: 'DE', clicks: 1 },
        { dimension: 'country', day: '2026-02-01', value: '', clicks: 4 },
        { dimension: 'country/month', day: '2026-01', value: 'DE', clicks: 3 },
        { dimension: 'country/month', day: '2026-02', value: '', clicks: 4 },
        { dimension: 'total', day: '2026-01-31', value: '', clicks: 3 },
        { dimension: 'visitors', day: '2026-01-31', value: '', clicks: 2 },
      ])
      // The primary key still refuses a second row for the same key, and the upsert still adds.
      await db.kysely
        .insertInto('click_stats')
        .values({ link_id: 1, dimension: 'total', day: '2026-01-31', value: '', clicks: 2 })
        .onConflict((oc) =>
          oc.columns(['link_id', 'dimension', 'day', 'value']).doUpdateSet((eb) => ({
            clicks: eb('click_stats.clicks', '+', eb.ref('excluded.clicks')),
          })),
        )
        .execute()
      const total = await db.kysely
        .selectFrom('click_stats')
        .select('clicks')
        .where('dimension', '=', 'total')
        .executeTakeFirstOrThrow()
      expect(total.clicks).toBe(5)
      if (db.dialect === 'sqlite') {
        const ddl = db
          .sqlite!.prepare("SELECT sql FROM sqlite_schema WHERE name = 'click_stats'")
          .pluck()
          .get()
        expect(String(ddl)).toMatch(/without rowid$/i)
      }
      await sql`DELETE FROM links WHERE id = 1`.execute(k)
      expect(await db.kysely.selectFrom('click_stats').selectAll().execute()).toEqual([])
    })
  })
}
