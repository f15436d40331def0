/**
 * The PostgreSQL databases the tests run on (test/support/databases.ts): one given back is
 * brought to what a new copy of the migrated template holds and handed to the next test of the
 * process; one whose schema a test changed is dropped instead.
 */
import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { openDatabase } from '../../src/db/connect.js'
import { migratedPostgres, postgresCheck, POSTGRES_ADMIN_URL } from '../support/databases.js'
import pg from 'pg'

const postgres = await postgresCheck()

async function exists(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL })
  await client.connect()
  try {
    const name = new URL(url).pathname.slice(1)
    return (
      (await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount === 1
    )
  } finally {
    await client.end()
  }
}

/** What a test finds in a database: its users, the migration's row, the next user's id. */
async function contents(url: string) {
  const db = openDatabase({ kind: 'postgres', url })
  try {
    const users = await sql<{ n: number }>`SELECT count(*)::int AS n FROM users`.execute(db.kysely)
    const generation = await sql`SELECT value FROM auth_generation`.execute(db.kysely)
    const next = await sql<{ id: number }>`
      INSERT INTO users (email, name, created_at, updated_at)
      VALUES ('next@example.com', 'Next', 0, 0) RETURNING id`.execute(db.kysely)
    return { users: users.rows[0]!.n, generation: generation.rows, nextId: next.rows[0]!.id }
  } finally {
    await db.close()
  }
}

describe.skipIf(!postgres.ok)('test databases on PostgreSQL', () => {
  it('hands a database given back to the next caller, as a new copy of the template is', async () => {
    const first = await migratedPostgres('reuse')
    const fresh = await contents(first.url)
    expect(fresh).toMatchObject({ users: 0, nextId: 1 })
    expect(fresh.generation).toHaveLength(1)
    // Rows, a bumped generation, an identity moved on, and a connection left open.
    const left = new pg.Client({ connectionString: first.url })
    await left.connect()
    left.on('error', () => {})
    await left.query(
      `INSERT INTO users (email, name, created_at, updated_at)
       VALUES ('a@example.com', 'A', 0, 0), ('b@example.com', 'B', 0, 0)`,
    )
    expect((await left.query('SELECT value FROM auth_generation')).rows).not.toEqual(
      fresh.generation,
    )
    await first.drop()

    const second = await migratedPostgres('reuse')
    expect(second.url).toBe(first.url)
    expect(await contents(second.url)).toEqual(fresh)
    await second.drop()
    await left.end().catch(() => {})
  })

  it('drops a database whose schema a test changed instead of handing it on', async () => {
    const first = await migratedPostgres('reuse')
    const db = openDatabase({ kind: 'postgres', url: first.url })
    await sql`CREATE TABLE notes (body text)`.execute(db.kysely)
    await db.close()
    await first.drop()
    expect(await exists(first.url)).toBe(false)

    const second = await migratedPostgres('reuse')
    expect(second.url).not.toBe(first.url)
    await second.drop()
  })
})
