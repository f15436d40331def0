/**
 * Where an import writes: one transaction on the target for every row of the dump, committed
 * only after the row counts are verified and the id sequences moved past the imported ids. A
 * failure anywhere (a bad row, a truncated dump, an interrupted process) leaves no row behind.
 */
import type { Db } from '../db/connect.js'
import type { RowBatch } from './dump-parser.js'
import { postgresTarget } from './postgres-target.js'
import { sqliteTarget } from './sqlite-target.js'

export interface TargetTable {
  name: string
  /** In the dump's order. */
  columns: string[]
  /** The target's type of each column (PostgreSQL casts to it). */
  types: string[]
  /** The auto-increment key column, if any. */
  sequence: string | null
}

export interface TargetSession {
  /** Deletes every row of the table (rows a migration seeded; the dump has them too). */
  clear(table: string): Promise<void>
  insert(table: TargetTable, batch: RowBatch): Promise<void>
  count(table: string): Promise<number>
  /** Makes the next id handed out greater than both the highest id present and `lastId`. */
  advanceSequence(table: string, column: string, lastId: number): Promise<void>
  commit(): Promise<void>
  rollback(): Promise<void>
}

export function openTarget(db: Db): Promise<TargetSession> {
  return db.sqlite ? Promise.resolve(sqliteTarget(db.sqlite)) : postgresTarget(db)
}
