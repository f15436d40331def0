/**
 * Prepared reads on PostgreSQL run as named statements of the pool; a schema changed under
 * them by another process (a migration) does not break them.
 */
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase, type Db } from '../../src/db/connect.js'
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
})
