/**
 * The live schema of either engine, as the transfer sees it: tables with their columns
 * (name, declared type, whether it is the auto-increment key), the tables each one references,
 * the migrations applied and row counts. Views, SQLite's own tables and the migrator's tables
 * are left out; on PostgreSQL only the current schema counts (the one slink's queries use).
 */
import { sql } from 'kysely'
import type { Db } from '../db/connect.js'
import { isInternalTable } from './tables.js'

export interface ColumnInfo {
  name: string
  type: string
  autoIncrement: boolean
}

export interface TableInfo {
  name: string
  columns: ColumnInfo[]
}

/** A double-quoted SQL identifier (valid on both engines). */
export function quoted(name: string): string {
  return `"${name.replace(/"/g, '""')}"`
}

async function currentSchema(db: Db): Promise<string | undefined> {
  if (db.dialect !== 'postgres') return undefined
  const { rows } = await sql<{ s: string }>`select current_schema() as s`.execute(db.kysely)
  return rows[0]?.s
}

export async function liveTables(db: Db): Promise<TableInfo[]> {
  const schema = await currentSchema(db)
  const tables = await db.kysely.introspection.getTables()
  return tables
    .filter((t) => !t.isView && !isInternalTable(t.name))
    .filter((t) => schema === undefined || t.schema === schema)
    .map((t) => ({
      name: t.name,
      columns: t.columns.map((c) => ({
        name: c.name,
        type: c.dataType,
        autoIncrement: c.isAutoIncrementing,
      })),
    }))
}

/** The tables `table`'s foreign keys point at. */
export async function referencedTables(db: Db, table: string): Promise<string[]> {
  if (db.dialect === 'sqlite') {
    const { rows } = await sql<{
      table: string
    }>`select * from pragma_foreign_key_list(${table})`.execute(db.kysely)
    return [...new Set(rows.map((r) => r.table))]
  }
  const { rows } = await sql<{ name: string }>`
    select distinct ref.relname as name
    from pg_constraint c
    join pg_class t on t.oid = c.conrelid
    join pg_class ref on ref.oid = c.confrelid
    where c.contype = 'f' and t.relname = ${table}
      and t.relnamespace = current_schema()::regnamespace`.execute(db.kysely)
  return rows.map((r) => r.name)
}

/** Names of the migrations applied to this database, in order; none on an empty one. */
export async function appliedMigrations(db: Db): Promise<string[]> {
  const schema = await currentSchema(db)
  const tables = await db.kysely.introspection.getTables({ withInternalKyselyTables: true })
  const present = tables.some(
    (t) => t.name === 'kysely_migration' && (schema === undefined || t.schema === schema),
  )
  if (!present) return []
  const { rows } = await sql<{
    name: string
  }>`select name from kysely_migration order by name`.execute(db.kysely)
  return rows.map((r) => r.name)
}

/** Tables holding rows, with their counts. */
export async function nonEmptyTables(
  db: Db,
  tables: readonly string[],
): Promise<[string, number][]> {
  const found: [string, number][] = []
  for (const name of tables) {
    const { rows } = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(
      name,
    )}`.execute(db.kysely)
    const n = Number(rows[0]?.n ?? 0)
    if (n > 0) found.push([name, n])
  }
  return found
}
