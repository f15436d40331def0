/**
 * Whether a dump may go into a database, checked before anything is written: the dump's schema
 * is this version's or an older one (its migrations are a prefix of the ones known here); the
 * target holds no row in any table; and the target's schema, if it has one, is not ahead of the
 * dump's. Once the target is at the dump's schema, every table of the dump must match one of
 * the target's, column for column, and the reverse.
 */
import type { Db } from '../db/connect.js'
import { migrationNames } from '../db/migrate.js'
import { appliedMigrations, liveTables, nonEmptyTables } from './catalog.js'
import { TransferError, type DumpHeader } from './dump-format.js'
import type { TargetTable } from './target.js'
import { kindOfType, type ColumnKind } from './values.js'

export type ImportTable = TargetTable & { kinds: ColumnKind[] }

const last = (names: readonly string[]) => names[names.length - 1] ?? 'none'

export async function checkImport(db: Db, header: DumpHeader): Promise<void> {
  const known = migrationNames()
  header.migrations.forEach((name, i) => {
    if (!known.includes(name)) {
      throw new TransferError(
        `the dump comes from a newer slink (schema migration ${name} is unknown here): import it with that version or later`,
      )
    }
    if (known[i] !== name) {
      throw new TransferError(
        `the dump's schema migrations (${header.migrations.join(', ')}) do not match this slink's (${known.join(', ')})`,
      )
    }
  })
  // In the dump's order, so the message reads parents first.
  const position = (name: string) => {
    const i = header.tables.findIndex((t) => t.name === name)
    return i === -1 ? header.tables.length : i
  }
  const names = (await liveTables(db)).map((t) => t.name)
  names.sort((a, b) => position(a) - position(b) || a.localeCompare(b))
  const full = await nonEmptyTables(db, names)
  if (full.length > 0) {
    const list = full.map(([name, n]) => `${name}: ${n}`).join(', ')
    throw new TransferError(
      `the target database is not empty (${list}): import only into a new or empty database`,
    )
  }
  const applied = await appliedMigrations(db)
  const unknown = applied.find((name) => !known.includes(name))
  if (unknown !== undefined) {
    throw new TransferError(
      `the target database was migrated by a newer slink (migration ${unknown})`,
    )
  }
  if (applied.some((name, i) => header.migrations[i] !== name)) {
    throw new TransferError(
      `the target database's schema (${last(applied)}) is ahead of the dump's (${last(header.migrations)}): import into a new database`,
    )
  }
}

/** The target's tables as the dump fills them; call with the target at the dump's schema. */
export async function importTables(db: Db, header: DumpHeader): Promise<Map<string, ImportTable>> {
  const live = new Map((await liveTables(db)).map((t) => [t.name, t]))
  const extra = [...live.keys()].filter((name) => !header.tables.some((t) => t.name === name))
  if (extra.length > 0)
    throw new TransferError(`the dump carries no table ${extra.join(', ')}, which the schema has`)
  const tables = new Map<string, ImportTable>()
  for (const table of header.tables) {
    const target = live.get(table.name)
    if (!target) throw new TransferError(`the dump's table ${table.name} is not in the schema`)
    const names = target.columns.map((c) => c.name)
    if (names.length !== table.columns.length || names.some((n) => !table.columns.includes(n))) {
      throw new TransferError(
        `table ${table.name} has columns (${table.columns.join(', ')}) in the dump but (${names.join(', ')}) in the schema`,
      )
    }
    const columns = table.columns.map((name) => target.columns.find((c) => c.name === name)!)
    tables.set(table.name, {
      name: table.name,
      columns: table.columns,
      types: columns.map((c) => c.type.toLowerCase()),
      kinds: columns.map((c) => {
        const kind = kindOfType(c.type)
        if (kind === null)
          throw new TransferError(
            `column ${table.name}.${c.name} has type ${c.type}, which a dump cannot fill`,
          )
        return kind
      }),
      sequence: target.columns.find((c) => c.autoIncrement)?.name ?? null,
    })
  }
  return tables
}
