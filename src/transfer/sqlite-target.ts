/**
 * Writes an import into SQLite: one IMMEDIATE transaction (the write lock is taken at once), a
 * prepared INSERT per table run for each row, foreign keys checked as rows go in. Ids are
 * inserted as they are; SQLite's AUTOINCREMENT counter (sqlite_sequence) follows them and is
 * then raised to the source's last id, so ids of deleted rows are never handed out again.
 */
import type SQLite from 'better-sqlite3'
import { quoted } from './catalog.js'
import { TransferError } from './dump-format.js'
import type { TargetSession } from './target.js'

export function sqliteTarget(handle: SQLite.Database): TargetSession {
  handle.exec('BEGIN IMMEDIATE')
  const inserts = new Map<string, SQLite.Statement>()

  return {
    async clear(table) {
      handle.prepare(`DELETE FROM ${quoted(table)}`).run()
    },
    async insert(table, batch) {
      let insert = inserts.get(table.name)
      if (!insert) {
        insert = handle.prepare(
          `INSERT INTO ${quoted(table.name)} (${table.columns.map(quoted).join(', ')}) ` +
            `VALUES (${table.columns.map(() => '?').join(', ')})`,
        )
        inserts.set(table.name, insert)
      }
      let i = 0
      try {
        for (; i < batch.rows.length; i++) insert.run(batch.rows[i])
      } catch (error) {
        throw new TransferError(
          `table ${table.name}, dump line ${batch.firstLine + i}: ${(error as Error).message}`,
        )
      }
    },
    async count(table) {
      return Number(
        handle
          .prepare(`SELECT count(*) FROM ${quoted(table)}`)
          .pluck()
          .get(),
      )
    },
    async advanceSequence(table, column, lastId) {
      const max = Number(
        handle
          .prepare(`SELECT max(${quoted(column)}) FROM ${quoted(table)}`)
          .pluck()
          .get() ?? 0,
      )
      const last = Math.max(max, lastId)
      if (last === 0) return
      const raised = handle
        .prepare('UPDATE sqlite_sequence SET seq = max(seq, ?) WHERE name = ?')
        .run(last, table)
      if (raised.changes === 0)
        handle.prepare('INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)').run(table, last)
    },
    async commit() {
      handle.exec('COMMIT')
    },
    async rollback() {
      if (handle.inTransaction) handle.exec('ROLLBACK')
    },
  }
}
