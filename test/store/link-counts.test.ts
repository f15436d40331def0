/**
 * SQLite keeps each user's number of links (migration 0014) through every kind of write, and the
 * API's list without a filter takes its total from it instead of counting the links.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PassThrough, Readable } from 'node:stream'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase, type Db } from '../../src/db/connect.js'
import { migrate, migrateTo } from '../../src/db/migrate.js'
import { dumpLines } from '../../src/transfer/dump-lines.js'
import { exportDatabase } from '../../src/transfer/export-database.js'
import { importDatabase } from '../../src/transfer/import-database.js'
import { createProgress } from '../../src/transfer/progress.js'
import { createTestApp, type TestApp } from '../support/app.js'
import { freshSqlite } from '../support/databases.js'
import { expectStatus } from '../http/helpers.js'

/** Each user's kept count and real count, for every user with either. */
async function counts(
  db: Db,
): Promise<{ kept: Record<number, number>; real: Record<number, number> }> {
  const kept = await sql<{ user_id: number; links: number }>`
    SELECT user_id, links FROM link_counts WHERE links <> 0`.execute(db.kysely)
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
    expect(await migrate(db)).toEqual({ applied: ['0014-link-counts'] })
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
    const out = new PassThrough()
    const chunks: Buffer[] = []
    out.on('data', (chunk: Buffer) => chunks.push(chunk))
    await exportDatabase(source.db, out, createProgress({ write: () => true }, false))
    const dump = Buffer.concat(chunks).toString()
    expect(dump).toContain('"links"')
    expect(dump).not.toContain('link_counts')

    await importDatabase(
      target.db,
      dumpLines(Readable.from([Buffer.from(dump)])),
      createProgress({ write: () => true }, false),
    )
    expect(await counts(target.db)).toEqual({ kept: { 1: 5, 2: 2 }, real: { 1: 5, 2: 2 } })
  } finally {
    await source.drop()
    await target.drop()
  }
})
