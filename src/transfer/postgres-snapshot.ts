/**
 * The export's view of a PostgreSQL database: one REPEATABLE READ, READ ONLY transaction (a
 * snapshot; writers are not blocked) and a cursor per table, fetched a batch at a time. Tables
 * with an id are read in id order; the others in storage order, with synchronized scans off
 * so a scan always starts at the table's first page (insertion order for append-only tables).
 */
import { sql, type ControlledTransaction } from 'kysely'
import type { Db } from '../db/connect.js'
import type { Database } from '../db/types.js'
import { quoted } from './catalog.js'
import type { Snapshot } from './snapshot.js'

const BATCH = 2000
const CURSOR = sql.raw('slink_export')

export async function postgresSnapshot(db: Db): Promise<Snapshot> {
  const trx: ControlledTransaction<Database> = await db.kysely
    .startTransaction()
    .setIsolationLevel('repeatable read')
    .setAccessMode('read only')
    .execute()
  try {
    await sql`set local synchronize_seqscans = off`.execute(trx)
  } catch (error) {
    await trx.rollback().execute()
    throw error
  }

  return {
    async count(table) {
      const { rows } = await sql<{
        n: number
      }>`select count(*) as n from ${sql.table(table)}`.execute(trx)
      return Number(rows[0]?.n ?? 0)
    },
    async lastId(table, column) {
      const { rows } = await sql<{ seq: string | null; max: number | null }>`
        select pg_get_serial_sequence(${quoted(table)}, ${column}) as seq,
          (select max(${sql.id(column)}) from ${sql.table(table)}) as max`.execute(trx)
      const max = Number(rows[0]?.max ?? 0)
      const seq = rows[0]?.seq
      if (!seq) return max
      // Sequences stand outside transactions: this is their state now, at least the snapshot's.
      const state = await sql<{ last_value: number; is_called: boolean }>`
        select last_value, is_called from ${sql.raw(seq)}`.execute(trx)
      const s = state.rows[0]
      return Math.max(max, s ? Number(s.last_value) - (s.is_called ? 0 : 1) : 0)
    },
    async *rows(table, columns, orderBy) {
      const order = orderBy === null ? sql`` : sql` order by ${sql.id(orderBy)}`
      await sql`declare ${CURSOR} no scroll cursor for select ${sql.join(
        columns.map((c) => sql.id(c)),
      )} from ${sql.table(table)}${order}`.execute(trx)
      for (;;) {
        const { rows } = await sql<Record<string, unknown>>`fetch forward ${sql.raw(
          String(BATCH),
        )} from ${CURSOR}`.execute(trx)
        if (rows.length === 0) break
        yield rows.map((row) => columns.map((c) => row[c]))
      }
      await sql`close ${CURSOR}`.execute(trx)
    },
    async close() {
      await trx.rollback().execute()
    },
  }
}
