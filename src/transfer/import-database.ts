/**
 * `slink import`: loads a dump into an empty database. Checks first (target empty, schemas
 * compatible), then brings the target to the dump's schema with the normal migrator, then
 * writes every row in one transaction, verifying the dump as it streams (structure, kinds,
 * counts, checksum) and the row counts in the target at the end, and moves the id sequences
 * past the imported ids before committing. A dump of an older schema is migrated forward
 * afterwards, as an in-place upgrade would be.
 */
import type { Db } from '../db/connect.js'
import { migrate, migrateTo } from '../db/migrate.js'
import { TransferError } from './dump-format.js'
import { DumpParser } from './dump-parser.js'
import type { TransferSummary } from './export-database.js'
import type { Progress } from './progress.js'
import { openTarget } from './target.js'
import { checkImport, importTables } from './target-check.js'

/** Every row is in and committed, but the later migrations failed: `slink migrate` finishes it. */
export class SchemaUpdateError extends TransferError {}

export interface ImportSummary extends TransferSummary {
  /** Migrations applied after the rows went in (the dump had an older schema). */
  migratedForward: string[]
}

export async function importDatabase(
  db: Db,
  lines: AsyncIterable<string[]>,
  progress: Progress,
): Promise<ImportSummary> {
  const started = performance.now()
  const parser = new DumpParser(lines)
  const header = await parser.header()
  await checkImport(db, header)
  await migrateTo(db, header.migrations[header.migrations.length - 1]!)
  const tables = await importTables(db, header)
  const target = await openTarget(db)
  let total = 0
  try {
    // The target held no row before it was migrated: rows now present were seeded by a migration,
    // and the dump, made from a database that ran the same migrations, carries them as they are.
    for (const table of [...header.tables].reverse()) await target.clear(table.name)
    for await (const part of parser.parts(header, (t) => tables.get(t.name)!.kinds)) {
      if (part.kind === 'table') {
        progress.table(part.table.name, part.table.rows)
        continue
      }
      await target.insert(tables.get(part.table.name)!, part)
      total += part.rows.length
      progress.advance(part.rows.length)
    }
    for (const table of header.tables) {
      const found = await target.count(table.name)
      if (found !== table.rows) {
        throw new TransferError(
          `table ${table.name} holds ${found} rows after the import, the dump ${table.rows}`,
        )
      }
      const sequence = tables.get(table.name)!.sequence
      if (sequence !== null) await target.advanceSequence(table.name, sequence, table.last_id ?? 0)
    }
    await target.commit()
  } catch (error) {
    await parser.close().catch(() => {})
    await target.rollback().catch(() => {})
    const message = error instanceof Error ? error.message.split('\n')[0] : String(error)
    throw new TransferError(`${message}; nothing was imported`)
  }
  let applied: string[]
  try {
    applied = (await migrate(db)).applied
  } catch (error) {
    throw new SchemaUpdateError(
      `every row was imported, but updating the schema afterwards failed (${(error as Error).message.split('\n')[0]}): run slink migrate`,
    )
  }
  return {
    tables: header.tables.length,
    rows: total,
    seconds: (performance.now() - started) / 1000,
    migratedForward: applied,
  }
}
