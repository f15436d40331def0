/**
 * Each user's number of links is kept through every kind of write (SQLite: migration 0014, a row
 * per user; PostgreSQL: migration 0015, rows of changes folded now and then), and the API's list
 * without a filter takes its total from it instead of counting the links.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'kysely'
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { openDatabase, type Db } from '../../src/db/connect.js'
import { migrate, migrateTo } from '../../src/db/migrate.js'
import { SqlLinkStore } from '../../src/links/store.js'
import { createTestApp, type TestApp } from '../support/app.js'
import {
  freshSqlite,
  postgresCheck,
  postgresPerTest,
  unmigratedPostgresPerTest,
} from '../support/databases.js'
import { dumpOf, importDump } from '../support/dumps.js'
import { OWNED_AT, owner } from '../support/owners.js'
import { expectStatus } from '../http/helpers.js'

const postgres = await postgresCheck()

/** Each user's kept count and real count, for every user with either. */
async function counts(
  db: Db,
): Promise<{ kept: Record<number, number>; real: Record<number, number> }> {
  const kept = await (
    db.dialect === 'sqlite'
      ? sql<{ user_id: number; links: number }>`
        SELECT user_id, links FROM link_counts WHERE links <> 0`
      : sql<{ user_id: number; links: number }>`
        SELECT user_id, sum(delta)::bigint AS links FROM link_count_deltas
        GROUP BY user_id HAVING sum(delta) <> 0`
  ).execute(db.kysely)
  const real = await sql<{ user_id: number; links: number }>`
    SELECT user_id, count(*) AS links FROM links GROUP BY user_id`.execute(db.kysely)
  const byUser = (rows: { user_id: number; links: number }[]) =>
    Object.fromEntries(rows.map((r) => [r.user_id, r.links]))
  return { kept: byUser(kept.rows), real: byUser(real.rows) }
}

/** Inserts `n` links of the user straight into the table, in one statement. */
async function insertLinks(db: Db, userId: number, domainId: number, prefix: string, n: number) {
  const now = Date.now()
  await sql`INSERT INTO links (user_id, domain_id, alias, url, title, title_locked, target_type,
      disabled, privacy, clicks, created_at, updated_at)
    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${n})
    SELECT ${userId}, ${domainId}, ${prefix} || i, 'https://example.com/' || i, NULL, 0, 0, 0, 0,
      0, ${now}, ${now} FROM n`.execute(db.kysely)
}

describe('the kept counts of links', () => {
  let t: TestApp
  let db: Db

  beforeAll(async () => {
    t = await createTestApp()
    db = t.services.db
  })
  afterAll(() => t.close())

  it('follow creates, deletes, a bulk insert, an owner change and a deleted user', async () => {
    for (const alias of ['one', 'two', 'three']) {
      expectStatus(
        await t.call('POST', '/api/v1/links', { form: { url: 'https://example.com', alias } }),
        201,
      )
    }
    const created = await t.call('POST', '/api/v1/links', {
      form: { url: 'https://example.com/b' },
      key: 'test-key-user-b-0123456789',
    })
    expectStatus(created, 201)
    expect(await counts(db)).toEqual({
      kept: { [t.userA]: 3, [t.userB]: 1 },
      real: { [t.userA]: 3, [t.userB]: 1 },
    })

    const two = (
      await db.kysely
        .selectFrom('links')
        .select('id')
        .where('alias', '=', 'two')
        .executeTakeFirstOrThrow()
    ).id
    expectStatus(await t.call('DELETE', `/api/v1/links/${two}`), 200)
    await insertLinks(db, t.userB, t.defaultDomainId, 'bulk-', 250)
    expect(await counts(db)).toEqual({
      kept: { [t.userA]: 2, [t.userB]: 251 },
      real: { [t.userA]: 2, [t.userB]: 251 },
    })

    await sql`UPDATE links SET user_id = ${t.userA} WHERE alias IN ('bulk-1', 'bulk-2')`.execute(
      db.kysely,
    )
    // A change of another column leaves the counts alone.
    await sql`UPDATE links SET title = 'Renamed' WHERE alias = 'bulk-3'`.execute(db.kysely)
    expect(await counts(db)).toEqual({
      kept: { [t.userA]: 4, [t.userB]: 249 },
      real: { [t.userA]: 4, [t.userB]: 249 },
    })

    await sql`DELETE FROM users WHERE id = ${t.userB}`.execute(db.kysely)
    expect(await counts(db)).toEqual({ kept: { [t.userA]: 4 }, real: { [t.userA]: 4 } })
    const rows = await sql`SELECT user_id FROM link_counts WHERE user_id = ${t.userB}`.execute(
      db.kysely,
    )
    expect(rows.rows).toEqual([])
  })

  it('give the total of the API list without a filter; a filtered list counts', async () => {
    const total = async (query: string) => {
      const res = await t.call('GET', `/api/v1/links?${query}`)
      expectStatus(res, 200)
      const body = res.json() as { data: { alias: string }[]; meta: { total: number } }
      return { total: body.meta.total, aliases: body.data.map((l) => l.alias) }
    }
    expect(await total('per_page=10&sort=asc')).toEqual({
      total: 4,
      aliases: ['one', 'three', 'bulk-1', 'bulk-2'],
    })
    // The kept count is the one said: set wrong on purpose, the unfiltered total follows it
    // (and the page stops where it says), while a filter still counts the links.
    await sql`UPDATE link_counts SET links = 2 WHERE user_id = ${t.userA}`.execute(db.kysely)
    expect(await total('per_page=10&sort=asc')).toEqual({
      total: 2,
      aliases: ['one', 'three', 'bulk-1', 'bulk-2'],
    })
    expect(await total('per_page=10&page=2&sort=asc')).toEqual({ total: 2, aliases: [] })
    expect((await total('per_page=10&status=1')).total).toBe(4)
    expect((await total('per_page=10&search=bulk&search_by=alias')).total).toBe(2)
    await sql`UPDATE link_counts SET links = 4 WHERE user_id = ${t.userA}`.execute(db.kysely)
    expect(await total('per_page=10&sort=asc')).toEqual({
      total: 4,
      aliases: ['one', 'three', 'bulk-1', 'bulk-2'],
    })
  })
})

it('are filled from the links already there when the migration runs', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'slink-link-counts-'))
  const db = openDatabase({ kind: 'sqlite', path: join(dir, 'counts.db') })
  try {
    await migrateTo(db, '0013-postgres-alias-suffixes')
    const now = Date.now()
    for (const email of ['a@example.com', 'b@example.com', 'c@example.com']) {
      await sql`INSERT INTO users (name, email, timezone, created_at, updated_at, role)
        VALUES (${email}, ${email}, 'UTC', ${now}, ${now}, 'user')`.execute(db.kysely)
    }
    await sql`INSERT INTO domains (user_id, name, url, created_at, updated_at)
      VALUES (NULL, 'short.test', 'https://short.test', ${now}, ${now})`.execute(db.kysely)
    await insertLinks(db, 1, 1, 'a-', 7)
    await insertLinks(db, 2, 1, 'b-', 3)
    expect(await migrate(db)).toEqual({
      applied: [
        '0014-link-counts',
        '0015-postgres-link-counts',
        '0016-short-alias-suffixes',
        '0017-search-changed-text',
        '0019-short-key-prefixes',
        '0020-standard-search',
        '0023-normalised-urls',
        '0024-webhook-outbox-pending-age',
        '0025-click-stream',
        '0026-tags',
        '0027-utm-templates',
        '0028-click-sources',
        '0030-redirect-rules',
        '0031-social-previews',
        '0032-search-index-level',
      ],
    })
    expect(await counts(db)).toEqual({ kept: { 1: 7, 2: 3 }, real: { 1: 7, 2: 3 } })
  } finally {
    await db.close()
    rmSync(dir, { recursive: true, force: true })
  }
})

it('are kept for the links an import of a dump writes, and are not dumped', async () => {
  const source = await freshSqlite()
  const target = await freshSqlite()
  try {
    const now = Date.now()
    for (const email of ['a@example.com', 'b@example.com']) {
      await sql`INSERT INTO users (name, email, timezone, created_at, updated_at, role)
        VALUES (${email}, ${email}, 'UTC', ${now}, ${now}, 'user')`.execute(source.db.kysely)
    }
    await sql`INSERT INTO domains (user_id, name, url, created_at, updated_at)
      VALUES (NULL, 'short.test', 'https://short.test', ${now}, ${now})`.execute(source.db.kysely)
    await insertLinks(source.db, 1, 1, 'a-', 5)
    await insertLinks(source.db, 2, 1, 'b-', 2)
    const dump = await dumpOf(source.db)
    expect(dump).toContain('"links"')
    expect(dump).not.toContain('link_counts')

    await importDump(target.db, dump)
    expect(await counts(target.db)).toEqual({ kept: { 1: 5, 2: 2 }, real: { 1: 5, 2: 2 } })
  } finally {
    await source.drop()
    await target.drop()
  }
})

/** The rows of changes PostgreSQL holds for the user. */
async function changeRows(db: Db, userId: number): Promise<number> {
  const { rows } = await sql<{ n: number }>`
    SELECT count(*)::int AS n FROM link_count_deltas WHERE user_id = ${userId}`.execute(db.kysely)
  return rows[0]!.n
}

const everything = { searchBy: 'alias' as const, sortBy: 'id' as const }
const firstPage = { page: 1, perPage: 10, sort: 'asc' as const }

describe.skipIf(!postgres.ok)('the kept counts of links on PostgreSQL', () => {
  const database = postgresPerTest('counts')
  let db: Db
  beforeEach(() => {
    db = database()
  })

  it('follow creates, deletes, a multi-row insert, an owner change and a deleted user', async () => {
    const links = new SqlLinkStore(db)
    const alice = await owner(db, 'alice@example.com')
    const bob = await owner(db, 'bob@example.com')
    const one = await links.create(alice.link('one'), [])
    await links.create(alice.link('two'), [])
    await links.create(bob.link('bob-one'), [])
    expect(await counts(db)).toEqual({
      kept: { [alice.id]: 2, [bob.id]: 1 },
      real: { [alice.id]: 2, [bob.id]: 1 },
    })
    // One row of changes per statement, whatever it inserts.
    await db.kysely
      .insertInto('links')
      .values([
        ...Array.from({ length: 300 }, (_, i) => bob.link(`bulk-${i}`)),
        alice.link('three'),
      ])
      .execute()
    expect(await changeRows(db, bob.id)).toBe(2)
    await links.delete(one.id)
    await sql`DELETE FROM links WHERE alias LIKE 'bulk-1%'`.execute(db.kysely)
    expect(await counts(db)).toEqual({
      kept: { [alice.id]: 2, [bob.id]: 190 },
      real: { [alice.id]: 2, [bob.id]: 190 },
    })

    await sql`UPDATE links SET user_id = ${alice.id} WHERE alias IN ('bulk-2', 'bulk-3')`.execute(
      db.kysely,
    )
    const aliceRows = await changeRows(db, alice.id)
    // A change of another column, or an owner set to the one it has, writes no row.
    await sql`UPDATE links SET title = 'Renamed', user_id = user_id WHERE alias = 'bulk-4'`.execute(
      db.kysely,
    )
    expect(await changeRows(db, alice.id)).toBe(aliceRows)
    expect(await counts(db)).toEqual({
      kept: { [alice.id]: 4, [bob.id]: 188 },
      real: { [alice.id]: 4, [bob.id]: 188 },
    })

    // Bob's domain goes with him, and with it the two links on it that Alice was given: those
    // are taken from her count, while Bob's rows go with him.
    await db.kysely.deleteFrom('users').where('id', '=', bob.id).execute()
    expect(await counts(db)).toEqual({ kept: { [alice.id]: 2 }, real: { [alice.id]: 2 } })
    expect(await changeRows(db, bob.id)).toBe(0)
  })

  it('give the total of the list without a filter, folded into one row after many reads', async () => {
    const links = new SqlLinkStore(db)
    // The fold a read starts after its answer, as it settles.
    const fold = vi.spyOn(links, 'foldLinkCounts')
    const alice = await owner(db, 'alice@example.com')
    for (let i = 0; i < 70; i++) await links.create(alice.link(`link-${i}`), [])
    expect(await changeRows(db, alice.id)).toBe(70)

    // The kept count is the one said: made wrong on purpose, the total follows it, while a
    // filtered list counts its links.
    await sql`INSERT INTO link_count_deltas (user_id, delta) VALUES (${alice.id}, 5)`.execute(
      db.kysely,
    )
    expect((await links.list(alice.id, everything, firstPage, OWNED_AT)).total).toBe(75)
    const searched = await links.list(
      alice.id,
      { ...everything, search: 'link-' },
      firstPage,
      OWNED_AT,
    )
    expect(searched.total).toBe(70)
    // The first read found 71 rows, more than it sums without folding: it folded them after it
    // answered (the search counts its links, and folds nothing).
    expect(fold.mock.calls).toEqual([[alice.id]])
    await fold.mock.results[0]!.value
    expect(await changeRows(db, alice.id)).toBe(1)
    expect((await links.list(alice.id, everything, firstPage, OWNED_AT)).total).toBe(75)

    await sql`INSERT INTO link_count_deltas (user_id, delta) VALUES (${alice.id}, -5)`.execute(
      db.kysely,
    )
    const listed = await links.list(alice.id, everything, firstPage, OWNED_AT)
    expect(listed.total).toBe(70)
    expect(listed.rows.map((l) => l.alias)).toEqual(
      Array.from({ length: 10 }, (_, i) => `link-${i}`),
    )
    // Rows that sum to nothing fold into none.
    await sql`DELETE FROM links WHERE user_id = ${alice.id}`.execute(db.kysely)
    await links.foldLinkCounts(alice.id)
    expect(await changeRows(db, alice.id)).toBe(0)
    expect((await links.list(alice.id, everything, firstPage, OWNED_AT)).total).toBe(0)
  })

  it('report a fold that fails and lose nothing by it; the next read folds', async () => {
    const reported: unknown[] = []
    let told = () => {}
    const failedOnce = new Promise<void>((resolve) => (told = resolve))
    const links = new SqlLinkStore(db, (error) => {
      reported.push(error)
      told()
    })
    const fold = vi.spyOn(links, 'foldLinkCounts')
    const alice = await owner(db, 'alice@example.com')
    for (let i = 0; i < 70; i++) await links.create(alice.link(`link-${i}`), [])
    // A create writes a row of +1; a fold writes the sum of the rows it takes: refused here.
    await sql`CREATE FUNCTION refuse_sums() RETURNS trigger LANGUAGE plpgsql
      AS $$ BEGIN RAISE EXCEPTION 'no sums here'; END $$`.execute(db.kysely)
    await sql`CREATE TRIGGER refuse_sums BEFORE INSERT ON link_count_deltas FOR EACH ROW
      WHEN (NEW.delta > 1) EXECUTE FUNCTION refuse_sums()`.execute(db.kysely)

    try {
      expect((await links.list(alice.id, everything, firstPage, OWNED_AT)).total).toBe(70)
      await failedOnce
      expect(reported.map((error) => (error as Error).message)).toEqual(['no sums here'])
      expect(await changeRows(db, alice.id)).toBe(70)
      expect(await counts(db)).toEqual({ kept: { [alice.id]: 70 }, real: { [alice.id]: 70 } })
    } finally {
      // The database is emptied for the next test, not made anew.
      await sql`DROP TRIGGER refuse_sums ON link_count_deltas`.execute(db.kysely)
      await sql`DROP FUNCTION refuse_sums()`.execute(db.kysely)
    }
    expect((await links.list(alice.id, everything, firstPage, OWNED_AT)).total).toBe(70)
    expect(fold).toHaveBeenCalledTimes(2)
    await fold.mock.results[1]!.value
    expect(await changeRows(db, alice.id)).toBe(1)
    expect(reported).toHaveLength(1)
  })

  it('lose no change when folds run beside each other and beside creates', async () => {
    const links = new SqlLinkStore(db)
    const alice = await owner(db, 'alice@example.com')
    let created = 0
    for (let round = 0; round < 8; round++) {
      await Promise.all([
        links.foldLinkCounts(alice.id),
        ...Array.from({ length: 6 }, async (_, i) => {
          await links.create(alice.link(`r${round}-${i}`), [])
          created++
        }),
        links.foldLinkCounts(alice.id),
        links.foldLinkCounts(alice.id),
      ])
    }
    expect(created).toBe(48)
    expect(await counts(db)).toEqual({ kept: { [alice.id]: 48 }, real: { [alice.id]: 48 } })
    await links.foldLinkCounts(alice.id)
    expect(await changeRows(db, alice.id)).toBe(1)
  })
})

describe.skipIf(!postgres.ok)('the kept counts of links on PostgreSQL, filled', () => {
  const database = unmigratedPostgresPerTest('counts')
  let db: Db
  beforeEach(() => {
    db = database()
  })

  it('by the migration, from the links already there', async () => {
    await migrateTo(db, '0014-link-counts')
    const alice = await owner(db, 'alice@example.com')
    const bob = await owner(db, 'bob@example.com')
    await db.kysely
      .insertInto('links')
      .values([alice.link('a1'), alice.link('a2'), bob.link('b1')])
      .execute()
    expect(await migrate(db)).toEqual({
      applied: [
        '0015-postgres-link-counts',
        '0016-short-alias-suffixes',
        '0017-search-changed-text',
        '0019-short-key-prefixes',
        '0020-standard-search',
        '0023-normalised-urls',
        '0024-webhook-outbox-pending-age',
        '0025-click-stream',
        '0026-tags',
        '0027-utm-templates',
        '0028-click-sources',
        '0030-redirect-rules',
        '0031-social-previews',
        '0032-search-index-level',
      ],
    })
    expect(await counts(db)).toEqual({
      kept: { [alice.id]: 2, [bob.id]: 1 },
      real: { [alice.id]: 2, [bob.id]: 1 },
    })
  })

  it('by an import of a dump, which does not carry them', async () => {
    const source = await freshSqlite()
    try {
      const alice = await owner(source.db, 'alice@example.com')
      const links = new SqlLinkStore(source.db)
      for (const alias of ['a1', 'a2', 'a3']) await links.create(alice.link(alias), [])
      const dump = await dumpOf(source.db)
      expect(dump).not.toContain('link_count')

      await importDump(db, dump)
      expect(await counts(db)).toEqual({ kept: { 1: 3 }, real: { 1: 3 } })
    } finally {
      await source.drop()
    }
  })
})
