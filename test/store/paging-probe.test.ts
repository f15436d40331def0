/**
 * A page read through the probe (db/paging.ts: the ordered ids of at most `probe` matches give
 * the total and the page) is the page read by a count and an ordered page, on both engines:
 * every page, both directions, ties broken by id, and with more matches than the probe.
 */
import { sql, type KyselyPlugin } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Db } from '../../src/db/connect.js'
import { fetchPage, type PageOptions } from '../../src/db/paging.js'
import { textSortKey } from '../../src/db/sql-helpers.js'
import {
  freshPostgres,
  freshSqlite,
  postgresCheck,
  type TestDatabase,
} from '../support/databases.js'

const postgres = await postgresCheck()

/** Users named from a small set, so that sorts by name have ties; every third one matches. */
async function seed(db: Db): Promise<void> {
  const now = Date.now()
  for (let i = 1; i <= 40; i++) {
    const name = `${['Kai', 'ann', 'Bo', 'zoë', 'Éva'][i % 5]}${i % 3 === 0 ? ' match' : ''}`
    await sql`INSERT INTO users (name, email, timezone, created_at, updated_at, role)
      VALUES (${name}, ${`u${i}@example.com`}, 'UTC', ${now - i}, ${now}, 'user')`.execute(
      db.kysely,
    )
  }
}

/** The columns of the first row of each query run through `pageOf` (a count answers `total`). */
const answered: string[] = []
const recorder: KyselyPlugin = {
  transformQuery: (args) => args.node,
  transformResult: (args) => {
    answered.push(Object.keys(args.result.rows[0] ?? {}).join(','))
    return Promise.resolve(args.result)
  },
}

function pageOf(
  db: Db,
  sortBy: 'id' | 'name',
  sort: 'asc' | 'desc',
  page: number,
  options: PageOptions,
) {
  const base = db.kysely.withPlugin(recorder).selectFrom('users').where('name', 'like', '%match%')
  const key = sortBy === 'id' ? 'id' : textSortKey('name', db.dialect)
  return fetchPage(
    base,
    (qb) => qb.select(['id', 'name']),
    key,
    'id',
    { page, perPage: 4, sort },
    options,
  )
}

/** The rows of ids, as the probe reads a page's rows (by id alone, in any order). */
const byId = (db: Db) => (ids: number[]) =>
  db.kysely
    .selectFrom('users')
    .select(['id', 'name'])
    .where('id', 'in', ids)
    .orderBy('id', 'desc')
    .execute()

describe.each([
  ['sqlite', true],
  ['postgres', postgres.ok],
] as const)('on %s', (engine, available) => {
  let database: TestDatabase
  beforeAll(async () => {
    if (!available) return
    database = engine === 'sqlite' ? await freshSqlite() : await freshPostgres('probe')
    await seed(database.db)
  })
  afterAll(() => database?.drop())

  it.skipIf(!available)(
    'gives every page and total as the count and the ordered page do',
    async () => {
      const { db } = database
      let compared = 0
      for (const sortBy of ['id', 'name'] as const) {
        for (const sort of ['asc', 'desc'] as const) {
          for (let page = 1; page <= 5; page++) {
            const plain = await pageOf(db, sortBy, sort, page, {})
            expect(plain.total).toBe(13)
            // 13 matches: all within a probe of 20 (one pass), past a probe of 5 (count and page).
            for (const max of [20, 13, 5]) {
              const probe = { max, rows: byId(db) }
              answered.length = 0
              expect(
                await pageOf(db, sortBy, sort, page, { probe }),
                `${sortBy} ${sort} ${page} ${probe}`,
              ).toEqual(plain)
              // One pass when every match fits the probe; counted when they do not.
              expect(answered[0]).toBe('match_id')
              expect(answered.includes('total')).toBe(max < 13)
              compared++
            }
          }
        }
      }
      expect(compared).toBe(60)
      // The last page is partial and the one after it empty, with the total all the same.
      expect(
        (await pageOf(db, 'id', 'asc', 4, { probe: { max: 20, rows: byId(db) } })).rows,
      ).toHaveLength(1)
      expect(await pageOf(db, 'id', 'asc', 5, { probe: { max: 20, rows: byId(db) } })).toEqual({
        rows: [],
        total: 13,
      })
    },
  )
})
