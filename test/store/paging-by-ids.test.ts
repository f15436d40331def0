/**
 * A page read by ids (db/paging.ts: the ordered ids of every match, one JSON array, give the
 * total and the page) is the page read by a count and an ordered page, on both engines: every
 * page, both directions, ties broken by id, past the last page, and with no match at all.
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
  term = '%match%',
) {
  const base = db.kysely.withPlugin(recorder).selectFrom('users').where('name', 'like', term)
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

/** The rows of ids, as a store reads a page's rows (by id alone, in any order). */
const byIds = (db: Db): PageOptions['byIds'] => ({
  dialect: db.dialect,
  rows: (ids: number[]) =>
    db.kysely
      .selectFrom('users')
      .select(['id', 'name'])
      .where('id', 'in', ids)
      .orderBy('id', 'desc')
      .execute(),
})

describe.each([
  ['sqlite', true],
  ['postgres', postgres.ok],
] as const)('on %s', (engine, available) => {
  let database: TestDatabase
  beforeAll(async () => {
    if (!available) return
    database = engine === 'sqlite' ? await freshSqlite() : await freshPostgres('paging_ids')
    await seed(database.db)
  })
  afterAll(() => database?.drop())

  it.skipIf(!available)(
    'gives every page and total as the count and the ordered page do, in one pass',
    async () => {
      const { db } = database
      let compared = 0
      for (const sortBy of ['id', 'name'] as const) {
        for (const sort of ['asc', 'desc'] as const) {
          for (let page = 1; page <= 5; page++) {
            answered.length = 0
            const plain = await pageOf(db, sortBy, sort, page, {})
            expect(plain.total).toBe(13)
            // Without byIds: a count, then the page (none past the last).
            expect(answered[0]).toBe('total')
            answered.length = 0
            expect(
              await pageOf(db, sortBy, sort, page, { byIds: byIds(db) }),
              `${sortBy} ${sort} ${page}`,
            ).toEqual(plain)
            // One pass of the filter (the page's rows are then read by id, outside it).
            expect(answered).toEqual(['match_ids'])
            compared++
          }
        }
      }
      expect(compared).toBe(20)
      // The last page is partial and the one after it empty, with the total all the same.
      expect((await pageOf(db, 'id', 'asc', 4, { byIds: byIds(db) })).rows).toHaveLength(1)
      expect(await pageOf(db, 'id', 'asc', 5, { byIds: byIds(db) })).toEqual({
        rows: [],
        total: 13,
      })
      // No match: no page and a total of 0 (PostgreSQL's aggregate of no row is null).
      expect(await pageOf(db, 'name', 'desc', 1, { byIds: byIds(db) }, '%none%')).toEqual({
        rows: [],
        total: 0,
      })
    },
  )
})
