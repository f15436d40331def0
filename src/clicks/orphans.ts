/**
 * Removes click-log rows of deleted links. The log has no index on the link (see the clicks
 * migration), so on SQLite this walks it in slices of rowids, each its own short transaction,
 * never holding the write lock for long; PostgreSQL deletes in one statement (readers and
 * writers are not blocked by it).
 */
import { sql } from 'kysely'
import type { Db } from '../db/connect.js'

const SLICE = 20_000
/** How often the click writer runs the clean-up. */
export const ORPHAN_SWEEP_MS = 60 * 60 * 1000

export async function forgetClicksOfDeletedLinks(db: Db): Promise<number> {
  const orphan = sql`NOT EXISTS (SELECT 1 FROM links WHERE links.id = clicks.link_id)`
  if (db.dialect === 'postgres') {
    const result = await sql`DELETE FROM clicks WHERE ${orphan}`.execute(db.kysely)
    return Number(result.numAffectedRows ?? 0)
  }
  const max = await sql<{ m: number | null }>`SELECT max(rowid) AS m FROM clicks`.execute(db.kysely)
  const last = Number(max.rows[0]?.m ?? 0)
  let removed = 0
  for (let from = 0; from < last; from += SLICE) {
    const result = await sql`DELETE FROM clicks
      WHERE rowid > ${from} AND rowid <= ${from + SLICE} AND ${orphan}`.execute(db.kysely)
    removed += Number(result.numAffectedRows ?? 0)
  }
  return removed
}
