/**
 * How writes take SQLite's write lock: in SQLite's own busy handler. Every connection is opened
 * in WAL mode with `busy_timeout` LOCK_WAIT_MS (db/connect.ts), set once; a connection that finds
 * the lock held by another (the click-writing thread's batch, a cluster worker, the CLI) waits in
 * the handler, up to that long, and then fails with SQLITE_BUSY. Readers never wait (WAL).
 */
import type SQLite from 'better-sqlite3'
import type { Db } from './connect.js'

/** How long a connection waits for another's write lock (its busy timeout). */
export const LOCK_WAIT_MS = 5000

const statements = new WeakMap<
  SQLite.Database,
  Record<'begin' | 'commit' | 'rollback', SQLite.Statement>
>()

/** The connection's `BEGIN IMMEDIATE`, `COMMIT` and `ROLLBACK`, prepared once. */
export function statementsOf(handle: SQLite.Database) {
  let prepared = statements.get(handle)
  if (prepared === undefined) {
    prepared = {
      begin: handle.prepare('BEGIN IMMEDIATE'),
      commit: handle.prepare('COMMIT'),
      rollback: handle.prepare('ROLLBACK'),
    }
    statements.set(handle, prepared)
  }
  return prepared
}

/**
 * Runs the synchronous write `write` (a statement of the process's SQLite connection) at once
 * when no transaction is open on that connection (Db.idleSqlite), so that it commits on its own;
 * otherwise undefined, with nothing written: the caller then writes through the query builder,
 * after the open transaction. Always undefined on PostgreSQL.
 */
export function writeNowIfIdle<T>(db: Pick<Db, 'idleSqlite'>, write: () => T): T | undefined {
  const handle = db.idleSqlite()
  return handle === null ? undefined : write()
}
