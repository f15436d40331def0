/**
 * The databases store tests run on: a fresh SQLite file always; PostgreSQL when reachable
 * (a new database per suite, or one per file emptied before each test). Without PostgreSQL the suite skips with a reason, except under
 * CI=true, where a missing service fails.
 */
import { createHash, randomBytes } from 'node:crypto'
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openDatabase, type Db } from '../../src/db/connect.js'
import { migrate } from '../../src/db/migrate.js'
import { sql } from 'kysely'
import pg from 'pg'
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest'

export interface TestDatabase {
  db: Db
  drop(): Promise<void>
}

let sqliteTemplate: Promise<string> | null = null

/**
 * Makes `path` an SQLite file at today's schema: a copy of one migrated file, made once per
 * test process (a copy takes a millisecond, the migrations tens of them).
 */
export async function migratedSqlite(path: string): Promise<void> {
  sqliteTemplate ??= (async () => {
    const dir = mkdtempSync(join(tmpdir(), 'slink-template-'))
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }))
    const template = join(dir, 'template.db')
    const db = openDatabase({ kind: 'sqlite', path: template })
    await migrate(db)
    await db.close()
    return template
  })()
  copyFileSync(await sqliteTemplate, path)
}

export async function freshSqlite(): Promise<TestDatabase> {
  const dir = mkdtempSync(join(tmpdir(), 'slink-store-'))
  const path = join(dir, 'store.db')
  await migratedSqlite(path)
  const db = openDatabase({ kind: 'sqlite', path })
  await migrate(db)
  return {
    db,
    drop: async () => {
      await db.close()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

/** Where the PostgreSQL tests create their databases (each test suite makes and drops its own). */
export const POSTGRES_ADMIN_URL =
  process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test'

export interface ServiceCheck {
  ok: boolean
  reason: string
}

/**
 * Whether PostgreSQL answers. Without it the PostgreSQL suites skip with this one-line reason,
 * except under CI=true, where a missing service fails the run.
 */
export async function postgresCheck(): Promise<ServiceCheck> {
  const client = new pg.Client({
    connectionString: POSTGRES_ADMIN_URL,
    connectionTimeoutMillis: 2000,
  })
  try {
    await client.connect()
    await client.query('SELECT 1')
    return { ok: true, reason: '' }
  } catch (error) {
    const reason = `PostgreSQL not reachable at ${POSTGRES_ADMIN_URL}: ${(error as Error).message}`
    if (process.env.CI === 'true') throw new Error(`${reason} (required under CI=true)`)
    console.warn(`skipping PostgreSQL tests: ${reason}`)
    return { ok: false, reason }
  } finally {
    await client.end().catch(() => {})
  }
}

async function admin<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL })
  await client.connect()
  try {
    return await run(client)
  } finally {
    await client.end()
  }
}

/**
 * A new, empty PostgreSQL database (no schema); `drop` removes it. `label` goes into its name,
 * to tell a suite's databases apart from those of other runs on the same server.
 */
export async function emptyPostgres(
  label = 'test',
): Promise<{ url: string; drop(): Promise<void> }> {
  return createdDatabase(label, '')
}

/** A new database of the server (`CREATE DATABASE … <options>`), its URL and its `drop`. */
async function createdDatabase(
  label: string,
  options: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `slink_${label}_${randomBytes(6).toString('hex')}`
  await admin((client) => client.query(`CREATE DATABASE ${name} ${options}`))
  return {
    url: databaseUrl(name),
    drop: () =>
      admin((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(
        () => {},
      ),
  }
}

function databaseUrl(name: string): string {
  const url = new URL(POSTGRES_ADMIN_URL)
  url.pathname = `/${name}`
  return url.toString()
}

const MIGRATIONS = new URL('../../src/db/migrations/', import.meta.url)

/**
 * The name of a database migrated to today's schema, to copy migrated databases from. It is
 * made once for a set of migrations (its name carries a hash of their source) by the first
 * test process that needs it, under an advisory lock, and kept on the server for later runs.
 */
let template: Promise<string> | null = null

function migratedTemplate(): Promise<string> {
  template ??= (async () => {
    const hash = createHash('sha256')
    for (const file of readdirSync(MIGRATIONS).sort()) {
      hash.update(file).update(readFileSync(new URL(file, MIGRATIONS)))
    }
    const name = `slink_template_${hash.digest('hex').slice(0, 16)}`
    await admin(async (client) => {
      await client.query('SELECT pg_advisory_lock(hashtext($1))', [name])
      try {
        const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])
        if (found.rowCount !== 0) return
        const building = `${name}_building`
        await client.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`)
        await client.query(`CREATE DATABASE ${building}`)
        const db = openDatabase({ kind: 'postgres', url: databaseUrl(building) })
        try {
          await migrate(db)
        } finally {
          await db.close()
        }
        await client.query(`ALTER DATABASE ${building} RENAME TO ${name}`)
      } finally {
        await client.query('SELECT pg_advisory_unlock(hashtext($1))', [name])
      }
    })
    return name
  })()
  return template
}

/**
 * A new PostgreSQL database at today's schema, copied from a migrated template (a copy takes
 * a fraction of running every migration again); `drop` removes it.
 */
export async function migratedPostgres(
  label = 'test',
): Promise<{ url: string; drop(): Promise<void> }> {
  return createdDatabase(label, `TEMPLATE ${await migratedTemplate()}`)
}

export async function freshPostgres(label?: string): Promise<TestDatabase> {
  const empty = await migratedPostgres(label)
  const db = openDatabase({ kind: 'postgres', url: empty.url })
  await migrate(db)
  return {
    db,
    drop: async () => {
      await db.close()
      await empty.drop()
    },
  }
}

/**
 * One migrated PostgreSQL database for a whole test file, emptied at the start of each test:
 * every table but the migrations' own is truncated and its identities restarted, so each test
 * finds what a new database would hold, without the cost of creating one per test.
 */
export function postgresPerFile(label?: string): {
  fresh(): Promise<TestDatabase>
  drop(): Promise<void>
} {
  let shared: TestDatabase | null = null
  return {
    async fresh() {
      if (shared === null) {
        shared = await freshPostgres(label)
      } else {
        const { rows } = await sql<{ name: string }>`
          select tablename as name from pg_tables
          where schemaname = current_schema() and tablename not like 'kysely_migration%'`.execute(
          shared.db.kysely,
        )
        const tables = sql.join(rows.map((r) => sql.id(r.name)))
        await sql`truncate ${tables} restart identity cascade`.execute(shared.db.kysely)
      }
      return { db: shared.db, drop: async () => {} }
    },
    drop: async () => {
      await shared?.drop()
      shared = null
    },
  }
}

/**
 * For the tests of one `describe` on a migrated PostgreSQL database: `postgresPerFile`'s,
 * emptied before each test and dropped after them all. Registers the hooks; the function
 * returned gives the connection.
 */
export function postgresPerTest(label: string): () => Db {
  const database = postgresPerFile(label)
  let db: Db
  beforeEach(async () => {
    db = (await database.fresh()).db
  })
  afterAll(() => database.drop())
  return () => db
}

/**
 * For the tests of one `describe` that migrate a PostgreSQL database themselves (up to some
 * migration, then on): one empty database for them all, its schema dropped after each test.
 * Registers the hooks; the function returned gives the connection.
 */
export function unmigratedPostgresPerTest(label: string): () => Db {
  let target: { url: string; drop(): Promise<void> }
  let db: Db
  beforeAll(async () => {
    target = await emptyPostgres(label)
    db = openDatabase({ kind: 'postgres', url: target.url })
  })
  afterEach(async () => {
    await sql`drop schema public cascade`.execute(db.kysely)
    await sql`create schema public`.execute(db.kysely)
  })
  afterAll(async () => {
    await db.close()
    await target.drop()
  })
  return () => db
}

/** An empty, unmigrated database of each engine (PostgreSQL when reachable), for migration tests. */
export async function migrationEngines(): Promise<
  { name: string; ok: boolean; open(): Promise<{ db: Db; drop(): Promise<void> }> }[]
> {
  const postgres = await postgresCheck()
  return [
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
}
