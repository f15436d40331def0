/**
 * Opens the database named by the configuration: an SQLite file (created with its folder,
 * readable by the service's user only) or a PostgreSQL pool. Both come back behind the same
 * query builder.
 */
import { AsyncLocalStorage } from 'node:async_hooks'
import { chmodSync, closeSync, mkdirSync, openSync, statSync } from 'node:fs'
import { dirname } from 'node:path'
import SQLite from 'better-sqlite3'
import { Kysely, PostgresDialect, type PostgresPool, type PostgresPoolClient } from 'kysely'
import pg from 'pg'
import type { DatabaseConfig } from '../config.js'
import { CommitGroups } from './commit-groups.js'
import { SqliteFileDialect } from './sqlite-dialect.js'
import { ReadSnapshot } from './read-snapshot.js'
import { cachingStatements } from './statement-cache.js'
import type { Database } from './types.js'
import { forgetStatement, isStalePlan, statementNameOf } from './statement-names.js'
import { LOCK_WAIT_MS } from './write-lock.js'

export type Dialect = 'sqlite' | 'postgres'

export interface Db {
  /**
   * The query builder: inside `transaction(...)` it is that transaction's, so a store's
   * queries join the unit of work they are called in without being handed a handle.
   */
  readonly kysely: Kysely<Database>
  readonly dialect: Dialect
  /**
   * Runs `work` as one transaction (joining the one already open in this async context, if
   * any): the change and the events it raises are committed together or not at all. On SQLite
   * the transactions requested in one turn of the event loop share one commit (CommitGroups);
   * each still succeeds or fails alone, and resolves once its changes are committed.
   */
  transaction<T>(work: () => Promise<T>): Promise<T>
  /**
   * The raw SQLite handle, for the few synchronous statements on the redirect path. Taking it
   * ends the reader's snapshot (db/read-snapshot.ts), so that reads after what is done with it
   * see it.
   */
  readonly sqlite: SQLite.Database | null
  /**
   * The raw SQLite handle when no transaction is open on it, else null: a synchronous write on
   * it then commits on its own, instead of joining another request's transaction (and being
   * undone by its rollback). Null on PostgreSQL.
   */
  idleSqlite(): SQLite.Database | null
  /**
   * SQLite only: a second, read-only connection to the same file for the prepared reads of the
   * request path (db/prepared.ts), when no transaction is open in the current async context; null
   * inside one, on PostgreSQL, and for an in-memory database. It reads what is committed and
   * never waits behind a transaction of the writing connection; the reads of one turn of the
   * event loop share one snapshot, which every write of this process ends (db/read-snapshot.ts).
   */
  reader(): SQLite.Database | null
  /**
   * PostgreSQL only: the pool, for the prepared reads of the request path, which run as named
   * statements (parsed and planned once per connection); null inside a transaction.
   */
  pool(): pg.Pool | null
  close(): Promise<void>
}

export class DatabaseUnavailableError extends Error {}

// int8 (counts, epoch-millisecond timestamps) as numbers: every value we store fits in 2^53.
const pgTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === 20) return (value: string) => Number(value)
    return pg.types.getTypeParser(oid, format)
  },
}

/**
 * The pool as the query builder sees it: a query whose text is a prepared query's that lists its
 * columns runs as its named statement (db/statement-names.ts), so that a transaction's queries
 * are planned once per connection; a text PostgreSQL refuses as a stale plan is forgotten.
 */
function namingStatements(pool: pg.Pool): PostgresPool {
  // One stand-in per connection: the query builder keeps its own state per client it is given.
  const standIns = new WeakMap<pg.PoolClient, PostgresPoolClient>()
  const standIn = (client: pg.PoolClient): PostgresPoolClient => {
    const query = (text: unknown, values?: unknown[]) => {
      const name = typeof text === 'string' ? statementNameOf(text) : undefined
      // Anything else (a text not named, a cursor) goes to the driver as it is.
      if (name === undefined) return client.query(text as string, values)
      return client.query({ name, text: text as string, values }).catch((error: unknown) => {
        if (isStalePlan(error)) forgetStatement(text as string)
        throw error
      })
    }
    return { query, release: () => client.release() } as unknown as PostgresPoolClient
  }
  return {
    connect: async () => {
      const client = await pool.connect()
      let found = standIns.get(client)
      if (found === undefined) standIns.set(client, (found = standIn(client)))
      return found
    },
    end: () => pool.end(),
  }
}

/** A Db over a query builder: `kysely` follows the transaction open in the current async context. */
function unitOfWork(
  root: Kysely<Database>,
  dialect: Dialect,
  sqlite: SQLite.Database | null,
  snapshot: ReadSnapshot | null = null,
  pool: pg.Pool | null = null,
): Db {
  // The transaction of the current async context (on SQLite, the connection of its commit group).
  const current = new AsyncLocalStorage<Kysely<Database>>()
  // Node 20 carries an AsyncLocalStorage through hooks on every promise of the process from its
  // first use on: after a server's first transaction it answered a fifth fewer shows. So it is
  // turned off once no unit of work has run for a turn of the event loop (nothing outside one
  // needs it: there it holds nothing), and the next unit of work turns it on again.
  let running = 0
  const offWhenIdle = () => {
    if (running === 0) current.disable()
  }
  const within = async <T>(connection: Kysely<Database>, work: () => Promise<T>): Promise<T> => {
    running++
    try {
      return await current.run(connection, work)
    } finally {
      if (--running === 0) setImmediate(offWhenIdle)
    }
  }
  // Whatever is about to write on the raw handle, or has committed, ends the reader's snapshot.
  const wrote = snapshot?.close ?? (() => {})
  const groups = sqlite === null ? null : new CommitGroups(root, sqlite, within, wrote)
  return {
    get kysely() {
      return current.getStore() ?? root
    },
    dialect,
    get sqlite() {
      wrote()
      return sqlite
    },
    idleSqlite: () => {
      if (sqlite === null || sqlite.inTransaction) return null
      wrote()
      return sqlite
    },
    reader: () => (snapshot === null || current.getStore() ? null : snapshot.enter()),
    pool: () => (pool === null || current.getStore() ? null : pool),
    transaction<T>(work: () => Promise<T>): Promise<T> {
      if (current.getStore()) return work()
      if (groups !== null) return groups.run(work)
      return root.transaction().execute((trx) => within(trx, work))
    },
    close: async () => {
      snapshot?.close()
      snapshot?.handle.close()
      await root.destroy()
    },
  }
}

/** What every connection to an SQLite file is set up with. */
function configure(handle: SQLite.Database): void {
  handle.pragma(`busy_timeout = ${LOCK_WAIT_MS}`)
  handle.pragma('cache_size = -32768')
  // Unicode-aware lower(), as PostgreSQL has, so searches and sorts agree on both engines.
  handle.function('lower', { deterministic: true }, (value: unknown) =>
    typeof value === 'string' ? value.toLowerCase() : value,
  )
}

/**
 * The database file holds every secret the service keeps (API key hashes, webhook secrets, the
 * cookie and CSRF secrets): a new one is created empty, mode 0600, in a new folder made 0700,
 * before SQLite opens it; SQLite gives its -wal and -shm files the database file's mode. An
 * existing file (or -wal, -shm) that others may read is made 0600, and `notice` says so.
 */
function ownerOnly(path: string, notice: (line: string) => void): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 })
  try {
    closeSync(openSync(path, 'wx', 0o600))
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
  }
  for (const file of [path, `${path}-wal`, `${path}-shm`]) {
    let mode: number
    try {
      mode = statSync(file).mode & 0o777
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue
      throw error
    }
    if ((mode & 0o077) === 0) continue
    chmodSync(file, mode & 0o700)
    notice(
      `${file} could be read by other users (mode ${mode.toString(8)}); it is now ${(mode & 0o700).toString(8)}`,
    )
  }
}

/**
 * `notice` hears what opening changed on its own (an SQLite file made owner-only); by default
 * it goes to standard error.
 */
export function openDatabase(
  config: DatabaseConfig,
  notice: (line: string) => void = (line) => process.stderr.write(`slink: ${line}\n`),
): Db {
  if (config.kind === 'sqlite') {
    let handle: SQLite.Database
    let readOnly: SQLite.Database | null = null
    try {
      const inMemory = config.path === ':memory:' || config.path === ''
      if (!inMemory) ownerOnly(config.path, notice)
      handle = new SQLite(config.path)
      handle.pragma('journal_mode = WAL')
      handle.pragma('synchronous = NORMAL')
      handle.pragma('foreign_keys = ON')
      configure(handle)
      if (!inMemory) {
        readOnly = new SQLite(config.path, { readonly: true })
        configure(readOnly)
      }
    } catch (error) {
      throw new DatabaseUnavailableError(
        `cannot open SQLite database "${config.path}": ${(error as Error).message}`,
      )
    }
    // The reads of the request path share a snapshot a turn (db/read-snapshot.ts); the writing
    // connection's writes end it.
    const snapshot = readOnly === null ? null : new ReadSnapshot(readOnly)
    const kysely = new Kysely<Database>({
      dialect: new SqliteFileDialect({
        handle,
        statements: cachingStatements(handle, snapshot?.close),
        committed: snapshot?.close,
      }),
    })
    return unitOfWork(kysely, 'sqlite', handle, snapshot)
  }
  const pool = new pg.Pool({
    connectionString: config.url,
    max: 10,
    types: pgTypes,
    // A database that is away fails a request within seconds instead of holding it.
    connectionTimeoutMillis: 5000,
  })
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', () => {})
  const kysely = new Kysely<Database>({
    dialect: new PostgresDialect({ pool: namingStatements(pool) }),
  })
  return unitOfWork(kysely, 'postgres', null, null, pool)
}
