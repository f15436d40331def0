/**
 * Checkpoints of the SQLite log (WAL): copying the pages written to the log back into the
 * database file, so that the log can start over. The click-writing thread runs them for the
 * whole process (threads/click-writer.ts); the request thread's connection never does.
 *
 * A passive checkpoint copies what it can and waits for no one. Under a steady stream of writes
 * that is not enough: SQLite starts the log over only when a write begins with every page of it
 * copied, and the writes go on while a checkpoint copies, so the end is never reached and the
 * log only grows (to about 900 MB in a minute of link creates at a million links). A long log
 * costs disk, and every read looks its pages up in a longer index (three point reads took 36
 * instead of 29 µs with 500 MB in the log).
 *
 * So once the log holds `restartAt` pages, the passive checkpoint, which has copied nearly all
 * of it without holding anything, is followed by a second one, which copies what was written
 * during the first, and then by a restart checkpoint: it takes the write lock (the request
 * thread's writes wait for it in SQLite's busy handler, see write-lock.ts), copies the few
 * pages written meanwhile, waits for the readers of the moment, and the next write starts the
 * log over (docs/adr/0003). It waits at most `waitMs` for the lock and the readers (the
 * connection's busy timeout for that one statement, so that writers are not held behind a long
 * wait), and tries again at the next call.
 */
import type SQLite from 'better-sqlite3'
import { LOCK_WAIT_MS } from './write-lock.js'

/** What `PRAGMA wal_checkpoint` answers: pages in the log, pages copied; busy 1 if it gave up. */
export interface CheckpointResult {
  busy: number
  log: number
  checkpointed: number
}

/** 10,000 pages: 40 MB of log with 4 KiB pages. */
export const RESTART_AT = 10_000
const RESTART_WAIT_MS = 100

export function checkpoint(
  handle: SQLite.Database,
  { restartAt = RESTART_AT, waitMs = RESTART_WAIT_MS } = {},
): CheckpointResult {
  const passive = (handle.pragma('wal_checkpoint(PASSIVE)') as CheckpointResult[])[0]!
  if (passive.log < restartAt) return passive
  handle.pragma('wal_checkpoint(PASSIVE)')
  return withBusyTimeout(
    handle,
    waitMs,
    () => (handle.pragma('wal_checkpoint(RESTART)') as CheckpointResult[])[0]!,
  )
}

/** Runs `work` with the connection's busy timeout at `ms`, then puts LOCK_WAIT_MS back. */
function withBusyTimeout<T>(handle: SQLite.Database, ms: number, work: () => T): T {
  // SQLite applies this pragma when the statement is compiled, so it is not a prepared one.
  handle.pragma(`busy_timeout = ${ms}`)
  try {
    return work()
  } finally {
    handle.pragma(`busy_timeout = ${LOCK_WAIT_MS}`)
  }
}
