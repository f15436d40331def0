/**
 * What the export reads, checked before a single row is: the source is at exactly this
 * version's schema, holds exactly the listed tables (a table nobody listed would otherwise be
 * left behind silently), every column has a type a dump can carry, and the table order puts
 * every referenced table first.
 */
import type { Db } from '../db/connect.js'
import { migrationNames } from '../db/migrate.js'
import { appliedMigrations, liveTables, referencedTables } from './catalog.js'
import { TransferError } from './dump-format.js'
import { TABLE_ORDER, TABLES, type TableName } from './tables.js'
import { kindOfType, type ColumnKind } from './values.js'

export interface TablePlan {
  name: TableName
  columns: string[]
  kinds: ColumnKind[]
  orderBy: 'id' | null
  /** The auto-increment key column, whose sequence the dump records. */
  sequence: string | null
}

async function checkSchemaLevel(db: Db): Promise<string[]> {
  const applied = await appliedMigrations(db)
  const known = migrationNames()
  if (applied.length === 0) {
    throw new TransferError('the source database has no slink schema: there is nothing to export')
  }
  const unknown = applied.find((name) => !known.includes(name))
  if (unknown !== undefined) {
    throw new TransferError(
      `the source database was migrated by a newer slink (migration ${unknown}): export it with that version`,
    )
  }
  const missing = known.filter((name) => !applied.includes(name))
  if (missing.length > 0) {
    throw new TransferError(
      `the source database's schema is not up to date (${missing.join(', ')} not applied): run slink migrate first`,
    )
  }
  return applied
}

export async function planExport(db: Db): Promise<{ migrations: string[]; tables: TablePlan[] }> {
  const migrations = await checkSchemaLevel(db)
  const live = new Map((await liveTables(db)).map((t) => [t.name, t]))
  const unlisted = [...live.keys()].filter((name) => !Object.hasOwn(TABLES, name))
  if (unlisted.length > 0) {
    throw new TransferError(
      `table ${unlisted.join(', ')} is not in the export's table list (src/transfer/tables.ts): it would be left behind`,
    )
  }
  const tables: TablePlan[] = []
  for (const [position, name] of TABLE_ORDER.entries()) {
    const table = live.get(name)
    if (!table) throw new TransferError(`the source database has no table ${name}`)
    const kinds = table.columns.map((column) => {
      const kind = kindOfType(column.type)
      if (kind === null) {
        throw new TransferError(
          `column ${name}.${column.name} has type ${column.type}, which a dump cannot carry yet`,
        )
      }
      return kind
    })
    for (const parent of await referencedTables(db, name)) {
      if (parent !== name && TABLE_ORDER.indexOf(parent as TableName) > position) {
        throw new TransferError(
          `table ${name} references ${parent}, which the table list puts after it`,
        )
      }
    }
    tables.push({
      name,
      columns: table.columns.map((c) => c.name),
      kinds,
      orderBy: TABLES[name].orderBy,
      sequence: table.columns.find((c) => c.autoIncrement)?.name ?? null,
    })
  }
  return { migrations, tables }
}
