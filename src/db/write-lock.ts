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

/** How long a connection waits for another's write lock (the connections' busy timeout too). */
export const LOCK_WAIT_MS = 5000
/** The longest pause between two asks for the write lock. */
const LOCK_POLL_MAX_MS = 4

const begins = new WeakMap<SQLite.Database, SQLite.Statement>()

/**
 * `BEGIN IMMEDIATE` on `handle`, waiting for another connection's write lock on timers; after
 * `waitMs`, fails with SQLite's SQLITE_BUSY as the busy handler would have.
 */
export async function beginImmediate(
  handle: SQLite.Database,
  waitMs = LOCK_WAIT_MS,
): Promise<void> {
  let begin = begins.get(handle)
  if (begin === undefined) begins.set(handle, (begin = handle.prepare('BEGIN IMMEDIATE')))
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

function isBusy(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'SQLITE_BUSY'
}
