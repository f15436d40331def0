/**
 * The databases store tests run on: a fresh SQLite file always; PostgreSQL when reachable (a
 * copy of a migrated template per suite, reused by the process's next suite once given back, or
 * one per file brought back to the template's state before each test). Without PostgreSQL the
 * suite skips with a reason, except under CI=true, where a missing service fails.
 */
import { createHash, randomBytes } from 'node:crypto'
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openDatabase, type Db } from '../../src/db/connect.js'
import { migrate } from '../../src/db/migrate.js'
import { CompiledQuery, sql } from 'kysely'
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

/** `run` on a connection of its own to `url`, ended after it. */
async function connectedTo<T>(url: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return await run(client)
  } finally {
    await client.end()
  }
}

function admin<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  return connectedTo(POSTGRES_ADMIN_URL, run)
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

/**
 * The name of this test run (set by vitest.config.ts for every test process), in the names of
 * the databases its processes keep for reuse, so that the run's teardown drops those and no
 * other run's.
 */
export const TEST_RUN = process.env.SLINK_TEST_RUN ?? ''

/** A new database of the server (`CREATE DATABASE … <options>`), its URL and its `drop`. */
async function createdDatabase(
  label: string,
  options: string,
): Promise<{ name: string; url: string; drop(): Promise<void> }> {
  const name = `slink_${label}_${TEST_RUN === '' ? '' : `${TEST_RUN}_`}${randomBytes(6).toString('hex')}`
  await admin((client) => client.query(`CREATE DATABASE ${name} ${options}`))
  return { name, url: databaseUrl(name), drop: () => dropDatabase(name) }
}

function dropDatabase(name: string): Promise<void> {
  return admin((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(
    () => {},
  )
}

/** Drops the databases this run's processes kept for reuse (`migratedPostgres`). */
export async function dropKeptDatabases(run: string): Promise<void> {
  const { rows } = await admin((client) =>
    client.query<{ name: string }>(
      `SELECT datname AS name FROM pg_database WHERE datname LIKE 'slink\\_%' AND datname LIKE $1`,
      [`%\\_${run}\\_%`],
    ),
  )
  for (const { name } of rows) await dropDatabase(name)
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
 * Databases at today's schema that their tests have given back, emptied, with the rows the
 * migrations wrote, for the next test of this process to take: copying the template costs the
 * server a few hundred milliseconds, emptying a database a few tens.
 */
const kept: string[] = []

/** What a copy of the template holds: its schema's fingerprint and the migrations' rows. */
interface TemplateState {
  schema: string
  seeded: { table: string; rows: string }[]
}
let templateState: Promise<TemplateState> | null = null

/**
 * A PostgreSQL database at today's schema, as a copy of a migrated template is, with no other
 * connection to it; `drop` gives it back. Within a test run (`TEST_RUN`) a database given back
 * is emptied and kept for the next caller, and the run's teardown drops it; outside one, it is
 * dropped.
 */
export async function migratedPostgres(
  label = 'test',
): Promise<{ url: string; drop(): Promise<void> }> {
  const reused = kept.pop()
  const name = reused ?? (await createdDatabase(label, `TEMPLATE ${await migratedTemplate()}`)).name
  templateState ??= stateOf(name)
  const state = await templateState
  return {
    url: databaseUrl(name),
    drop: async () => {
      // A test that changed the schema (a table of its own, say) leaves a database not to reuse.
      if (TEST_RUN === '' || !(await emptiedToTemplate(name, state))) await dropDatabase(name)
      else kept.push(name)
    },
  }
}

/** A statement's rows, on whichever connection a caller holds. */
type Query = (text: string, values?: unknown[]) => Promise<Record<string, unknown>[]>

function onClient(client: pg.Client): Query {
  return async (text, values) => (await client.query(text, values)).rows
}

function onDb(db: Db): Query {
  return async (text, values) =>
    (await db.kysely.executeQuery(CompiledQuery.raw(text, values ?? []))).rows as Record<
      string,
      unknown
    >[]
}

/** The tables of the schema but the migrations' own. */
async function tablesOf(query: Query): Promise<string[]> {
  const rows = await query(
    `SELECT tablename AS name FROM pg_tables
     WHERE schemaname = current_schema() AND tablename NOT LIKE 'kysely_migration%'`,
  )
  return rows.map((r) => r.name as string)
}

/** A fingerprint of the schema: its relations with their columns, triggers and functions. */
async function schemaOf(query: Query): Promise<string> {
  const [row] = await query(
    `SELECT md5(
       (SELECT string_agg(c.relname || ':' || c.relkind::text || ':' || coalesce(a.columns, ''), ','
                          ORDER BY c.relname)
        FROM pg_class c
        LEFT JOIN LATERAL (
          SELECT string_agg(attname || ' ' || format_type(atttypid, atttypmod) || ' ' || attnotnull::text,
                            ',' ORDER BY attnum) AS columns
          FROM pg_attribute WHERE attrelid = c.oid AND attnum > 0 AND NOT attisdropped) a ON true
        WHERE c.relnamespace = current_schema()::regnamespace)
       || (SELECT count(*) FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
           WHERE c.relnamespace = current_schema()::regnamespace)
       || (SELECT count(*) FROM pg_proc WHERE pronamespace = current_schema()::regnamespace)
     ) AS schema`,
  )
  return row!.schema as string
}

/** A new copy of the template: its schema's fingerprint and its rows, table by table, as JSON. */
function stateOf(name: string): Promise<TemplateState> {
  return connectedTo(databaseUrl(name), async (client) => {
    const query = onClient(client)
    const seeded: TemplateState['seeded'] = []
    for (const table of await tablesOf(query)) {
      const [row] = await query(
        `SELECT json_agg(t)::text AS rows FROM ${pg.escapeIdentifier(table)} t`,
      )
      if (row!.rows !== null) seeded.push({ table, rows: row!.rows as string })
    }
    return { schema: await schemaOf(query), seeded }
  })
}

/**
 * Empties every table but the migrations' own, restarts their identities and writes again the
 * rows the migrations wrote: what a new copy of the template holds.
 */
async function emptyToTemplate(query: Query, state: TemplateState): Promise<void> {
  const tables = (await tablesOf(query)).map((t) => pg.escapeIdentifier(t))
  await query(`TRUNCATE ${tables.join(', ')} RESTART IDENTITY CASCADE`)
  for (const { table, rows } of state.seeded) {
    const id = pg.escapeIdentifier(table)
    await query(`INSERT INTO ${id} SELECT * FROM json_populate_recordset(null::${id}, $1::json)`, [
      rows,
    ])
  }
}

/**
 * Brings a database given back to the template's state, its other connections ended, if its
 * schema is still the template's. False, and nothing done, for a schema changed.
 */
function emptiedToTemplate(name: string, state: TemplateState): Promise<boolean> {
  return connectedTo(databaseUrl(name), async (client) => {
    const query = onClient(client)
    if ((await schemaOf(query)) !== state.schema) return false
    await query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
       WHERE datname = current_database() AND pid <> pg_backend_pid()`,
    )
    await emptyToTemplate(query, state)
    return true
  })
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
 * One migrated PostgreSQL database for a whole test file, brought back to the template's state
 * at the start of each test (`emptyToTemplate`), so each test finds what a new database would
 * hold, without the cost of creating one per test.
 */
export function postgresPerFile(label?: string): {
  fresh(): Promise<TestDatabase>
  drop(): Promise<void>
} {
  let shared: TestDatabase | null = null
  return {
    async fresh() {
      if (shared === null) shared = await freshPostgres(label)
      else await emptyToTemplate(onDb(shared.db), await templateState!)
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
