/**
 * PostgreSQL's alias suffix table (migration 0013) holds exactly every suffix of every link's
 * lower-cased alias, whatever writes the links: the store one row at a time, statements over
 * many rows, a user's deletion through its foreign keys, an import, and the migration itself
 * over links that were there before it. A row left behind would not change a search's answer
 * (the final comparison decides), so these tests read the table itself; the store contract
 * checks the answers.
 */
import { sql } from 'kysely'
import { beforeEach, describe, expect, it } from 'vitest'
import type { Db } from '../../src/db/connect.js'
import { migrate, migrateTo } from '../../src/db/migrate.js'
import { aliasSuffixes } from '../../src/links/search-index-sql.js'
import { SqlLinkStore } from '../../src/links/store.js'
import {
  freshSqlite,
  postgresCheck,
  postgresPerTest,
  unmigratedPostgresPerTest,
} from '../support/databases.js'
import { dumpOf, importDump } from '../support/dumps.js'
import { OWNED_AT as T, owner } from '../support/owners.js'

const postgres = await postgresCheck()
const page = { page: 1, perPage: 100, sort: 'asc' as const }

/** The table's rows, as `id suffix`, sorted. */
async function held(db: Db): Promise<string[]> {
  const { rows } = await sql<{
    suffix: string
    link_id: number
  }>`select suffix, link_id from links_search_suffixes`.execute(db.kysely)
  return rows.map((r) => `${r.link_id} ${r.suffix}`).sort()
}

/** What it must hold for the links there are now. */
async function expected(db: Db): Promise<string[]> {
  const links = await db.kysely.selectFrom('links').select(['id', 'alias']).execute()
  return links.flatMap((l) => aliasSuffixes(l.alias).map((s) => `${l.id} ${s}`)).sort()
}

async function aliasesFound(db: Db, userId: number, search: string): Promise<string[]> {
  const found = await new SqlLinkStore(db).list(
    userId,
    { searchBy: 'alias', search, sortBy: 'id' },
    page,
    T,
  )
  return found.rows.map((l) => l.alias)
}

describe.skipIf(!postgres.ok)('the alias suffix table on PostgreSQL', () => {
  const database = postgresPerTest('sfx')
  let db: Db
  beforeEach(() => {
    db = database()
  })

  it('holds the suffixes of each lower-cased alias as links are created, renamed and deleted', async () => {
    const links = new SqlLinkStore(db)
    const alice = await owner(db, 'alice@example.com')
    const umlaut = await links.create(alice.link('ÄbcDé'), [])
    expect(await held(db)).toEqual([`${umlaut.id} bcdé`, `${umlaut.id} cdé`, `${umlaut.id} äbcdé`])
    const abab = await links.create(alice.link('abab'), [])
    const sale = await links.create(alice.link('Spring_Sale'), [])
    expect(await held(db)).toEqual(await expected(db))

    await links.update(abab.id, { alias: 'Xyz' }, undefined)
    expect((await held(db)).filter((row) => row.startsWith(`${abab.id} `))).toEqual([
      `${abab.id} xyz`,
    ])
    await links.update(sale.id, { alias: 'SPRING_sale', title: 'Sale' }, undefined)
    await links.update(umlaut.id, { url: 'https://example.com/other' }, undefined)
    expect(await held(db)).toEqual(await expected(db))

    await links.delete(umlaut.id)
    expect(await held(db)).toEqual(await expected(db))
    expect((await held(db)).some((row) => row.startsWith(`${umlaut.id} `))).toBe(false)
  })

  it('follows statements over many links: a multi-row insert, a rename of many, a user deleted', async () => {
    const alice = await owner(db, 'alice@example.com')
    const bob = await owner(db, 'bob@example.com')
    await db.kysely
      .insertInto('links')
      .values([
        ...Array.from({ length: 300 }, (_, i) => bob.link(`bob-${i}`)),
        alice.link('alice-1'),
      ])
      .execute()
    expect((await held(db)).length).toBe((await expected(db)).length)
    expect(await held(db)).toEqual(await expected(db))

    await sql`update links set alias = 'Renamed-' || alias where user_id = ${bob.id} and alias like 'bob-1%'`.execute(
      db.kysely,
    )
    expect(await held(db)).toEqual(await expected(db))
    expect(await aliasesFound(db, bob.id, 'ed-bob-19')).toEqual([
      'Renamed-bob-19',
      'Renamed-bob-190',
      'Renamed-bob-191',
      'Renamed-bob-192',
      'Renamed-bob-193',
      'Renamed-bob-194',
      'Renamed-bob-195',
      'Renamed-bob-196',
      'Renamed-bob-197',
      'Renamed-bob-198',
      'Renamed-bob-199',
    ])

    await db.kysely.deleteFrom('users').where('id', '=', bob.id).execute()
    expect(await held(db)).toEqual(await expected(db))
    expect((await held(db)).length).toBe(aliasSuffixes('alice-1').length)
  })
})

describe.skipIf(!postgres.ok)('the alias suffix table filled on PostgreSQL', () => {
  const database = unmigratedPostgresPerTest('sfx')
  let db: Db
  beforeEach(() => {
    db = database()
  })

  it('by the migration, from the links already there', async () => {
    await migrateTo(db, '0012-auth-generation')
    const alice = await owner(db, 'alice@example.com')
    await db.kysely
      .insertInto('links')
      .values([alice.link('ÄbcDé'), alice.link('b5678'), alice.link('Spring_Sale')])
      .execute()
    expect(await migrateTo(db, '0013-postgres-alias-suffixes')).toEqual({
      applied: ['0013-postgres-alias-suffixes'],
    })
    // Every suffix, until 0016 drops those shorter than a searched term can be.
    expect((await held(db)).length).toBe(5 + 5 + 11)
    await migrate(db)
    expect((await held(db)).length).toBe(3 + 3 + 9)
    expect(await held(db)).toEqual(await expected(db))
    expect(await aliasesFound(db, alice.id, '567')).toEqual(['b5678'])
  })

  it('by an import of a dump, which finds its links by alias', async () => {
    const source = await freshSqlite()
    try {
      const alice = await owner(source.db, 'alice@example.com')
      const links = new SqlLinkStore(source.db)
      for (const alias of ['ÄbcDé', 'abab', 'Spring_Sale', 'spring-sale']) {
        await links.create(alice.link(alias), [])
      }
      const gone = await links.create(alice.link('deleted-1'), [])
      await links.delete(gone.id)
      await importDump(db, await dumpOf(source.db))
      expect(await held(db)).toEqual(await expected(db))
      expect((await held(db)).length).toBe(3 + 2 + 9 + 9)
      expect(await aliasesFound(db, alice.id, 'äbc')).toEqual(['ÄbcDé'])
      expect(await aliasesFound(db, alice.id, 'ring')).toEqual(['Spring_Sale', 'spring-sale'])
      expect(await aliasesFound(db, alice.id, 'g_s')).toEqual(['Spring_Sale'])
      expect(await aliasesFound(db, alice.id, 'deleted')).toEqual([])
    } finally {
      await source.drop()
    }
  })
})
