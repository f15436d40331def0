/**
 * Prepared reads on PostgreSQL run as named statements of the pool, and in a transaction so do
 * prepared queries that list their columns; a schema changed under them by another process (a
 * migration) does not break them, except for one transaction on a column whose type changed.
 */
import { sql, type Kysely } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase, type Db } from '../../src/db/connect.js'
import { isDatabaseUnavailable } from '../../src/db/errors.js'
import { migrate } from '../../src/db/migrate.js'
import { prepared } from '../../src/db/prepared.js'
import { emptyPostgres, postgresCheck } from '../support/databases.js'

const postgres = await postgresCheck()

describe.skipIf(!postgres.ok)('prepared reads on PostgreSQL', () => {
  let db: Db
  let other: Db
  let drop: () => Promise<void>
  beforeAll(async () => {
    const empty = await emptyPostgres()
    db = openDatabase({ kind: 'postgres', url: empty.url })
    other = openDatabase({ kind: 'postgres', url: empty.url })
    await migrate(db)
    drop = async () => {
      await db.close()
      await other.close()
      await empty.drop()
    }
  })
  afterAll(() => drop())

  it('answer the same after another process adds a column to the table they read', async () => {
    const now = Date.now()
    await sql`INSERT INTO users (name, email, timezone, created_at, updated_at, role)
      VALUES ('P', 'p@example.com', 'UTC', ${now}, ${now}, 'user')`.execute(db.kysely)
    const user = prepared(
      () => db,
      1,
      (email: string) => db.kysely.selectFrom('users').selectAll().where('email', '=', email),
    )
    // Every connection of the pool plans it once.
    for (let i = 0; i < 20; i++) {
      expect((await user('p@example.com')).map((u) => u.name)).toEqual(['P'])
    }
    await sql`ALTER TABLE users ADD COLUMN nickname text`.execute(other.kysely)
    for (let i = 0; i < 20; i++) {
      const rows = await user('p@example.com')
      expect(rows.map((u) => u.name)).toEqual(['P'])
      expect(rows[0]).toHaveProperty('nickname', null)
    }
  })

  /** The texts of the named statements of the connection a transaction holds. */
  const namedInTransaction = async (run: () => Promise<unknown>) =>
    db.transaction(async () => {
      await run()
      const { rows } = await sql<{
        statement: string
      }>`SELECT statement FROM pg_prepared_statements WHERE NOT from_sql`.execute(db.kysely)
      return rows.map((r) => r.statement)
    })

  it('run in a transaction as named statements when they list their columns, never with *', async () => {
    const listed = prepared(
      () => db,
      1,
      (email: string) =>
        db.kysely.selectFrom('users').select(['id', 'email']).where('email', '=', email),
    )
    const starred = prepared(
      () => db,
      1,
      (name: string) => db.kysely.selectFrom('users').selectAll().where('name', '=', name),
    )
    const named = await namedInTransaction(async () => {
      await listed('q@example.com')
      await starred('Q')
    })
    expect(named.filter((text) => text.includes('select "id", "email" from "users"'))).toHaveLength(
      1,
    )
    expect(named.filter((text) => text.includes('select * from "users" where "name"'))).toEqual([])
  })

  it('fail a transaction at most once per connection when another process changes a column type, with a 503, then run unnamed', async () => {
    await sql`CREATE TABLE labels (id integer PRIMARY KEY, label varchar(10))`.execute(other.kysely)
    await sql`INSERT INTO labels VALUES (1, 'one')`.execute(other.kysely)
    const label = prepared(
      () => db,
      1,
      (id: number) =>
        (db.kysely as unknown as Kysely<{ labels: { id: number; label: string } }>)
          .selectFrom('labels')
          .select(['id', 'label'])
          .where('id', '=', id),
    )
    // Planned on every connection of the pool (ten transactions at once hold all ten).
    const everywhere = () =>
      Promise.allSettled(
        Array.from({ length: 10 }, () =>
          db.transaction(async () => {
            const rows = await label(1)
            await new Promise((resolve) => setTimeout(resolve, 20))
            return rows
          }),
        ),
      )
    const before = await everywhere()
    expect(before.map((r) => r.status)).toEqual(Array(10).fill('fulfilled'))
    expect(await namedInTransaction(() => label(1))).toEqual(
      expect.arrayContaining([expect.stringContaining('from "labels"')]),
    )
    // A column added changes nothing for a statement that lists its columns.
    await sql`ALTER TABLE labels ADD COLUMN extra text`.execute(other.kysely)
    const added = await everywhere()
    expect(added.map((r) => r.status)).toEqual(Array(10).fill('fulfilled'))
    await sql`ALTER TABLE labels ALTER COLUMN label TYPE text`.execute(other.kysely)
    const after = await everywhere()
    // The transactions that sent the named statement before the first refusal came back fail
    // (one at least: every connection had planned it), each answered as the database unavailable.
    const refused = after.filter((r) => r.status === 'rejected')
    expect(refused.length).toBeGreaterThanOrEqual(1)
    expect(refused.length).toBeLessThanOrEqual(10)
    for (const r of refused) {
      expect((r.reason as { code?: string }).code).toBe('0A000')
      expect(isDatabaseUnavailable(r.reason)).toBe(true)
    }
    const again = await everywhere()
    expect(again.map((r) => r.status)).toEqual(Array(10).fill('fulfilled'))
    for (const r of again) {
      expect((r as PromiseFulfilledResult<unknown>).value).toEqual([{ id: 1, label: 'one' }])
    }
  })
})
