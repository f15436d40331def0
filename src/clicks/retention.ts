/**
 * Retention of the raw click log (CLICK_LOG_DAYS): removes `clicks` rows older than that many
 * days. Every click is folded into the daily statistics (`click_stats`) in the transaction that
 * logs it, and the statistics read only those, so removing log rows changes no statistic.
 *
 * Rows go in small batches, each its own short transaction, so no batch holds SQLite's write
 * lock for long:
 * - SQLite: batches of 1,000 rows by rowid. The log is append-only and a new row gets a rowid
 *   above every other, so rowid order is the order clicks were written in; a pass starts at the
 *   oldest row and stops at the first batch without an old row. A click written out of order
 *   (held back by its writer) leaves with a later pass.
 * - PostgreSQL: ranges of 16 table blocks (about 1,000 rows) by `ctid`, over the whole table,
 *   since PostgreSQL reuses the space of removed rows for new ones. PostgreSQL 14 and later read
 *   such a range directly (a TID range scan).
 */
import { sql } from 'kysely'
import type { Db } from '../db/connect.js'

const DAY_MS = 86_400_000
const BATCH_ROWS = 1000
const BATCH_BLOCKS = 16
/** How often a serving process runs a pass (and once as it starts). */
export const RETENTION_PASS_MS = 60 * 60 * 1000

const yieldTurn = () => new Promise<void>((resolve) => setImmediate(resolve))

export interface PassOptions {
  now?: number
  /** Ends the pass after the batch under way (each batch is whole or not done). */
  signal?: AbortSignal
}

/** One pass: removes the log rows older than `days` days before `now`; resolves with how many. */
export async function removeOldClicks(
  db: Db,
  days: number,
  options: PassOptions = {},
): Promise<number> {
  const cutoff = (options.now ?? Date.now()) - days * DAY_MS
  const signal = options.signal ?? new AbortController().signal
  return db.dialect === 'postgres'
    ? removeByBlocks(db, cutoff, signal)
    : removeByRowid(db, cutoff, signal)
}

async function removeByRowid(db: Db, cutoff: number, signal: AbortSignal): Promise<number> {
  let removed = 0
  const first = await sql<{ m: number | null }>`SELECT min(rowid) AS m FROM clicks`.execute(
    db.kysely,
  )
  let after = Number(first.rows[0]?.m ?? 0) - 1
  while (!signal.aborted) {
    const window = await sql<{ top: number | null }>`SELECT max(rowid) AS top FROM
      (SELECT rowid FROM clicks WHERE rowid > ${after} ORDER BY rowid LIMIT ${BATCH_ROWS})`.execute(
      db.kysely,
    )
    const top = window.rows[0]?.top ?? null
    if (top === null) return removed
    const result = await sql`DELETE FROM clicks
      WHERE rowid > ${after} AND rowid <= ${top} AND at < ${cutoff}`.execute(db.kysely)
    const count = Number(result.numAffectedRows ?? 0)
    if (count === 0) return removed
    removed += count
    after = Number(top)
    await yieldTurn()
  }
  return removed
}

async function removeByBlocks(db: Db, cutoff: number, signal: AbortSignal): Promise<number> {
  const size = await sql<{ blocks: string }>`SELECT
      (pg_relation_size('clicks') / current_setting('block_size')::int)::text AS blocks`.execute(
    db.kysely,
  )
  const blocks = Number(size.rows[0]?.blocks ?? 0)
  let removed = 0
  for (let from = 0; from < blocks && !signal.aborted; from += BATCH_BLOCKS) {
    const result = await sql`DELETE FROM clicks
      WHERE ctid >= ${`(${from},0)`}::tid AND ctid < ${`(${from + BATCH_BLOCKS},0)`}::tid
        AND at < ${cutoff}`.execute(db.kysely)
    removed += Number(result.numAffectedRows ?? 0)
    await yieldTurn()
  }
  return removed
}
