/**
 * The read-only connection's reads (db/prepared.ts) share one read transaction per turn of the
 * event loop. A read outside a transaction begins and ends one of its own: on a file, two lock
 * calls on the shared-memory index and a look at the file, about 2.5 µs a read, and a show
 * makes four reads. In a loop, a show's four reads took 24 µs each on their own and 14 µs inside
 * one transaction.
 *
 * The snapshot begins at the first read of a turn and ends when the turn does (setImmediate), or
 * at the first read after MAX_AGE_MS (work that awaits only promises can make a turn long). It
 * also ends as soon as the process's writing connection begins a transaction, writes or commits
 * (`close`), so a read that follows a write of this process sees it, in the same turn too, and
 * a checkpoint that holds the write lock does not wait for this reader while this thread waits
 * for the lock (db/commit-groups.ts). A commit of another
 * process (a cluster worker, the CLI, the click-writing thread) is seen from the next turn on,
 * at most MAX_AGE_MS later, as if the read had come that much earlier.
 */
import { performance } from 'node:perf_hooks'
import type SQLite from 'better-sqlite3'

/** The oldest a snapshot gets: what another process committed is seen this late at most. */
export const MAX_AGE_MS = 10

export class ReadSnapshot {
  private readonly begin: SQLite.Statement
  private readonly end: SQLite.Statement
  private ending: NodeJS.Immediate | null = null
  private began = 0

  constructor(readonly handle: SQLite.Database) {
    this.begin = handle.prepare('BEGIN')
    this.end = handle.prepare('COMMIT')
  }

  /** The connection, inside this turn's snapshot. */
  enter(): SQLite.Database {
    if (this.handle.inTransaction) {
      if (performance.now() - this.began <= MAX_AGE_MS) return this.handle
      this.close()
    }
    this.begin.run()
    this.began = performance.now()
    this.ending = setImmediate(this.close)
    return this.handle
  }

  /** Ends the snapshot now: the next read begins another, which sees every commit so far. */
  readonly close = (): void => {
    if (this.ending !== null) {
      clearImmediate(this.ending)
      this.ending = null
    }
    if (this.handle.open && this.handle.inTransaction) this.end.run()
  }
}
