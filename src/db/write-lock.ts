/**
 * Taking SQLite's write lock without stalling the process. A connection that finds the lock held
 * by another (a cluster worker's transaction, the click writer's batch) would wait in SQLite's
 * busy handler, which sleeps inside the call, up to 100 ms at a time: the whole event loop stops
 * meanwhile, redirects included. `beginImmediate` asks for the lock without the handler, and
 * while it is held elsewhere pauses on a timer (1, 2, 4, 4… ms) and asks again, so everything
 * else the process serves goes on. With two cluster workers creating links, SQLite's handler
 * gave creates a p99 of 169 to 833 ms, against 46 to 139 ms on timers (docs/performance.md,
 * "Waiting for the write lock").
 */
import type SQLite from 'better-sqlite3'
import type { Db } from './connect.js'

/** How long a connection waits for another's write lock (the connections' busy timeout too). */
export const LOCK_WAIT_MS = 5000
/** The longest pause between two asks for the write lock. */
const LOCK_POLL_MAX_MS = 4

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
 * `BEGIN IMMEDIATE` on `handle`, waiting for another connection's write lock on timers; after
 * `waitMs`, fails with SQLite's SQLITE_BUSY as the busy handler would have.
 */
export async function beginImmediate(
  handle: SQLite.Database,
  waitMs = LOCK_WAIT_MS,
): Promise<void> {
  const { begin } = statementsOf(handle)
  const deadline = Date.now() + waitMs
  for (let pause = 1; ; pause = Math.min(pause * 2, LOCK_POLL_MAX_MS)) {
    try {
      withBusyTimeout(handle, 0, () => begin.run())
      return
    } catch (error) {
      if (!isBusy(error) || Date.now() >= deadline) throw error
    }
    await new Promise((resolve) => setTimeout(resolve, pause))
  }
}

/**
 * Runs the synchronous `work` on `handle` in a transaction of its own, begun with
 * `beginImmediate` and committed after it (`committed` is told then), or rolled back if it throws.
 */
export async function writeTransaction<T>(
  handle: SQLite.Database,
  work: () => T,
  committed: () => void = () => {},
): Promise<T> {
  const { commit, rollback } = statementsOf(handle)
  await beginImmediate(handle)
  try {
    const result = work()
    commit.run()
    committed()
    return result
  } catch (error) {
    if (handle.inTransaction) rollback.run()
    throw error
  }
}

/** Runs `work` with the connection's busy timeout at `ms`, then puts LOCK_WAIT_MS back. */
export function withBusyTimeout<T>(handle: SQLite.Database, ms: number, work: () => T): T {
  // SQLite applies this pragma when the statement is compiled, so it is not a prepared one.
  handle.pragma(`busy_timeout = ${ms}`)
  try {
    return work()
  } finally {
    handle.pragma(`busy_timeout = ${LOCK_WAIT_MS}`)
  }
}

/**
 * Runs the synchronous write `write` (a statement of the process's SQLite connection) at once
 * when no transaction is open on that connection (Db.idleSqlite) and SQLite's write lock is
 * free; otherwise undefined, with nothing written: the caller then writes through the query
 * builder, whose driver waits for the lock on timers (db/sqlite-dialect.ts). Always undefined on
 * PostgreSQL.
 */
export function writeNowIfFree<T>(db: Pick<Db, 'idleSqlite'>, write: () => T): T | undefined {
  const handle = db.idleSqlite()
  if (handle === null) return undefined
  try {
    return withBusyTimeout(handle, 0, write)
  } catch (error) {
    if (isBusy(error)) return undefined
    throw error
  }
}

function isBusy(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'SQLITE_BUSY'
}
