/**
 * `slink export`: writes every table of a database to a dump, read from one consistent
 * snapshot: the header (with each table's row count and last id), each table's rows in the
 * table list's order, then the end line. Rows stream through in batches, so a table of any
 * size takes the same memory.
 */
import type { Writable } from 'node:stream'
import type { Db } from '../db/connect.js'
import { DumpWriter } from './dump-writer.js'
import {
  DUMP_FORMAT,
  DUMP_VERSION,
  generatorName,
  TransferError,
  type DumpHeader,
} from './dump-format.js'
import type { Progress } from './progress.js'
import { openSnapshot } from './snapshot.js'
import { planExport } from './source-check.js'
import { checkRow } from './values.js'

export interface TransferSummary {
  tables: number
  rows: number
  seconds: number
}

export async function exportDatabase(
  db: Db,
  out: Writable,
  progress: Progress,
): Promise<TransferSummary> {
  const started = performance.now()
  const plan = await planExport(db)
  const snapshot = await openSnapshot(db)
  try {
    const header: DumpHeader = {
      format: DUMP_FORMAT,
      version: DUMP_VERSION,
      generator: generatorName(),
      created_at: new Date().toISOString(),
      source: db.dialect,
      migrations: plan.migrations,
      tables: [],
    }
    for (const table of plan.tables) {
      header.tables.push({
        name: table.name,
        columns: table.columns,
        rows: await snapshot.count(table.name),
        last_id: table.sequence === null ? null : await snapshot.lastId(table.name, table.sequence),
      })
    }
    const writer = new DumpWriter(out)
    await writer.line(JSON.stringify(header))
    let total = 0
    for (const [i, table] of plan.tables.entries()) {
      const expected = header.tables[i]!.rows
      progress.table(table.name, expected)
      await writer.line(JSON.stringify({ table: table.name }))
      let rows = 0
      for await (const batch of snapshot.rows(table.name, table.columns, table.orderBy)) {
        for (const row of batch) {
          checkRow(row, table.name, table.columns, table.kinds, `table ${table.name}`)
          await writer.line(JSON.stringify(row))
        }
        rows += batch.length
        progress.advance(batch.length)
      }
      if (rows !== expected) {
        throw new TransferError(`table ${table.name} gave ${rows} rows, its count said ${expected}`)
      }
      total += rows
    }
    await writer.end(total)
    return {
      tables: plan.tables.length,
      rows: total,
      seconds: (performance.now() - started) / 1000,
    }
  } finally {
    await snapshot.close()
  }
}
