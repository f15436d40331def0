/**
 * The export's view of an SQLite database: one read transaction, so every table is read as it
 * was at the first read (WAL mode lets the service keep writing meanwhile; the WAL file grows
 * until the export ends). Rows come from a stepping statement in storage order, a batch at a
 * time: rowid order (the id for tables with one, else insertion order), or primary-key order for
 * a WITHOUT ROWID table.
 */
import type SQLite from 'better-sqlite3'
import { quoted } from './catalog.js'
import type { Snapshot } from './snapshot.js'

const BATCH = 2000

export function sqliteSnapshot(handle: SQLite.Database): Snapshot {
  handle.exec('BEGIN')
  // The first read fixes the snapshot.
  handle.prepare('SELECT count(*) FROM sqlite_master').pluck().get()
  const hasSequences =
    handle.prepare("SELECT 1 FROM sqlite_master WHERE name = 'sqlite_sequence'").get() !== undefined

  /** The ORDER BY that reads a table in storage order, without a sort. */
  const storageOrder = (table: string): string => {
    const withoutRowid = handle
      .prepare("SELECT wr FROM pragma_table_list WHERE schema = 'main' AND name = ?")
      .pluck()
      .get(table)
    if (withoutRowid !== 1) return 'rowid'
    const key = handle
      .prepare('SELECT name FROM pragma_table_info(?) WHERE pk > 0 ORDER BY pk')
      .pluck()
      .all(table) as string[]
    return key.map(quoted).join(', ')
  }

  return {
    async count(table) {
      return Number(
        handle
          .prepare(`SELECT count(*) FROM ${quoted(table)}`)
          .pluck()
          .get(),
      )
    },
    async lastId(table, column) {
      const max = handle
        .prepare(`SELECT max(${quoted(column)}) FROM ${quoted(table)}`)
        .pluck()
        .get()
      const seq = hasSequences
        ? handle.prepare('SELECT seq FROM sqlite_sequence WHERE name = ?').pluck().get(table)
        : undefined
      return Math.max(Number(max ?? 0), Number(seq ?? 0))
    },
    async *rows(table, columns) {
      const order = storageOrder(table)
      const statement = handle
        .prepare(`SELECT ${columns.map(quoted).join(', ')} FROM ${quoted(table)} ORDER BY ${order}`)
        .raw(true)
      let batch: unknown[][] = []
      for (const row of statement.iterate() as IterableIterator<unknown[]>) {
        batch.push(row)
        if (batch.length === BATCH) {
          yield batch
          batch = []
        }
      }
      if (batch.length > 0) yield batch
    },
    async close() {
      if (handle.inTransaction) handle.exec('COMMIT')
    },
  }
}
