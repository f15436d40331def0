/**
 * A consistent, read-only view of the source database for the whole export, so a dump never
 * holds a click statistic of a link it does not hold, even while the service keeps writing.
 * SQLite: one read transaction (a snapshot in WAL mode). PostgreSQL: one REPEATABLE READ,
 * READ ONLY transaction with a cursor per table.
 */
import type { Db } from '../db/connect.js'
import { postgresSnapshot } from './postgres-snapshot.js'
import { sqliteSnapshot } from './sqlite-snapshot.js'

export interface Snapshot {
  count(table: string): Promise<number>
  /** The highest id the table's sequence has handed out (at least its highest id), 0 if none. */
  lastId(table: string, column: string): Promise<number>
  /** The rows in batches, values in `columns` order: id order when `orderBy` is set, else storage order. */
  rows(
    table: string,
    columns: readonly string[],
    orderBy: string | null,
  ): AsyncIterable<unknown[][]>
  close(): Promise<void>
}

export function openSnapshot(db: Db): Promise<Snapshot> {
  return db.sqlite ? Promise.resolve(sqliteSnapshot(db.sqlite)) : postgresSnapshot(db)
}
