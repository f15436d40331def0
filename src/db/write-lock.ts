/**
 * Taking SQLite's write lock without stalling the process. A connection that finds the lock held
 * by another (a cluster worker's transaction, the click writer's batch) would wait in SQLite's
 * busy handler, which sleeps inside the call, up to 100 ms at a time: the whole event loop stops
 * meanwhile, redirects included. `beginImmediate` asks for the lock without the handler, and
 * while it is held elsewhere pauses on a timer (1, 2, 4, 4… ms) and asks again, so everything
 * else the process serves goes on. With two cluster workers creating links, SQLite's handler
 * gave creates a p99 of 169 to 833 ms, against 46 to 139 ms on timers (docs/performance.md,
 * "Waiting for the write lock").
 *
 * Within one process, the request thread and the click-writing thread (the search indexer's
 * batches and merge steps, and its other writes through this file) take turns at the lock
 * through `WriteLockTurns`: the request thread's writes go first.
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
  const shared = sharing.get(handle)
  if (shared?.role === 'background') await shared.turns.afterRequests()
  const deadline = Date.now() + waitMs
  let waiting = false
  try {
    for (let pause = 1; ; pause = Math.min(pause * 2, LOCK_POLL_MAX_MS)) {
      const seen = shared?.turns.releases() ?? 0
      try {
        withBusyTimeout(handle, 0, () => begin.run())
        return
      } catch (error) {
        if (!isBusy(error) || Date.now() >= deadline) throw error
      }
      if (shared?.role === 'requests') {
        if (!waiting) shared.turns.waiting(+1)
        waiting = true
        await shared.turns.releasedSince(seen, pause)
      } else {
        await sleep(pause)
      }
    }
  } finally {
    if (waiting) shared!.turns.waiting(-1)
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

/** The longest the background thread lets the request thread's waiting writes go first. */
const YIELD_MAX_MS = 50
const WAITING = 0
const RELEASES = 1

/**
 * SQLite's write lock shared by two threads of one process (their own connections to the same
 * file): the request thread's, whose writes answer requests, and a background thread's (the
 * click-writing thread's search indexer and its other writes through `beginImmediate`; its click
 * batches and checkpoints take the lock in SQLite's busy handler, for a few milliseconds).
 * Waiting on timers alone, the request thread's group of writes, which holds the answers of a
 * whole turn of requests, could find the lock taken again by the background's next step (the
 * indexer's batches and merge steps come one after another) each time it woke to ask.
 *
 * So the request thread says when it waits, and the background thread, before it takes the lock,
 * lets it go first (for at most YIELD_MAX_MS); when the background thread ends a transaction, it
 * wakes the waiting request thread at once instead of at its next timer, and the indexer's batch
 * ends early when the request thread starts waiting during it (`requestsWaiting`). Two counters in shared
 * memory: the request thread's waiting writes, and the background's releases of the lock.
 * Under a stream of creates, the creates' p99 fell from 20-25 to 16-19 ms (docs/performance.md,
 * "Twelfth round"). Between processes (cluster workers, the CLI) nothing changes: timers, as
 * above.
 */
export class WriteLockTurns {
  private readonly cells: Int32Array

  /** `buffer`: the other thread's turns' (`buffer`), to share them; a new one if omitted. */
  constructor(readonly buffer: SharedArrayBuffer = new SharedArrayBuffer(8)) {
    this.cells = new Int32Array(buffer)
  }

  /** The request thread starts (+1) or stops (-1) waiting for the lock. */
  waiting(change: 1 | -1): void {
    Atomics.add(this.cells, WAITING, change)
    if (change < 0) Atomics.notify(this.cells, WAITING)
  }

  /** The request thread waits for the lock now. */
  requestsWaiting(): boolean {
    return Atomics.load(this.cells, WAITING) > 0
  }

  /** How many times the background thread has ended a transaction. */
  releases(): number {
    return Atomics.load(this.cells, RELEASES)
  }

  /** The background thread ended a transaction: a waiting request thread asks again now. */
  released(): void {
    Atomics.add(this.cells, RELEASES, 1)
    Atomics.notify(this.cells, RELEASES)
  }

  /** Resolves once the background has ended a transaction after `seen` releases, or after `ms`. */
  releasedSince(seen: number, ms: number): Promise<void> {
    return wake(this.cells, RELEASES, seen, ms)
  }

  /** Resolves once the request thread waits for the lock no more (YIELD_MAX_MS at most). */
  async afterRequests(): Promise<void> {
    const until = Date.now() + YIELD_MAX_MS
    for (;;) {
      const waiting = Atomics.load(this.cells, WAITING)
      const left = until - Date.now()
      if (waiting <= 0 || left <= 0) return
      await wake(this.cells, WAITING, waiting, left)
    }
  }
}

/**
 * Resolves when `cells[index]` is told to have changed from `value`, or after `ms`. The timer
 * keeps the event loop alive, which a pending `Atomics.waitAsync` does not.
 */
function wake(cells: Int32Array, index: number, value: number, ms: number): Promise<void> {
  const wait = Atomics.waitAsync(cells, index, value, ms)
  if (!wait.async) return Promise.resolve()
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms)
    void wait.value.then(() => {
      clearTimeout(timer)
      resolve()
    })
  })
}

const sharing = new WeakMap<
  SQLite.Database,
  { turns: WriteLockTurns; role: 'requests' | 'background' }
>()

/**
 * `handle`'s writes take their turns at the write lock through `turns`: first, as the request
 * thread's, or after them, as the background thread's (see WriteLockTurns).
 */
export function shareWriteLock(
  handle: SQLite.Database,
  turns: WriteLockTurns,
  role: 'requests' | 'background',
): void {
  sharing.set(handle, { turns, role })
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
  } finally {
    transactionEnded(handle)
  }
}

/**
 * A transaction of `handle` has ended (committed or rolled back): as the background thread's,
 * it wakes a request thread waiting for the lock (WriteLockTurns).
 */
export function transactionEnded(handle: SQLite.Database): void {
  const shared = sharing.get(handle)
  if (shared?.role === 'background') shared.turns.released()
}

/**
 * `handle` is the background thread's (see WriteLockTurns) and the request thread waits for the
 * write lock: a long transaction of the background's commits what it has done so far and ends.
 */
export function requestsWaiting(handle: SQLite.Database): boolean {
  const shared = sharing.get(handle)
  return shared?.role === 'background' && shared.turns.requestsWaiting()
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
