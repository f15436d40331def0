/**
 * The values a dump carries: null, text, and integers within ±(2^53 − 1), which hold every
 * number slink stores (ids, counts, epoch-millisecond times). Each column has a kind, read from
 * the live schema of either engine. A value of the wrong kind, or an integer a JavaScript number
 * cannot hold exactly, stops the transfer: nothing is ever changed on the way.
 */
import { TransferError } from './dump-format.js'

export type Value = string | number | null
export type ColumnKind = 'integer' | 'text'

const INTEGER_TYPES = new Set(['integer', 'int', 'int4', 'int8', 'bigint'])

/** The kind of a column from its declared type (SQLite) or type name (PostgreSQL); null: unsupported. */
export function kindOfType(type: string): ColumnKind | null {
  const name = type.toLowerCase()
  if (INTEGER_TYPES.has(name)) return 'integer'
  if (name === 'text') return 'text'
  return null
}

function describe(value: unknown): string {
  if (typeof value === 'number') {
    const unsafe = Number.isInteger(value) && !Number.isSafeInteger(value)
    return unsafe ? `${value}, beyond ±(2^53 − 1)` : `the number ${value}`
  }
  if (typeof value === 'bigint') return `${value}, beyond ±(2^53 − 1)`
  if (typeof value === 'string') return 'text'
  if (value instanceof Uint8Array) return 'a blob'
  if (Array.isArray(value)) return 'a list'
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`
}

/** Why `value` does not fit a column of this kind, or null when it fits. */
export function misfit(value: unknown, kind: ColumnKind): string | null {
  if (value === null) return null
  if (kind === 'text')
    return typeof value === 'string' ? null : `text expected, got ${describe(value)}`
  if (typeof value === 'number' && Number.isSafeInteger(value)) return null
  return `an integer expected, got ${describe(value)}`
}

/**
 * Checks that a row has one fitting value per column. `where` names the place for the error
 * (`dump line 12`, `table links`).
 */
export function checkRow(
  row: unknown,
  table: string,
  columns: readonly string[],
  kinds: readonly ColumnKind[],
  where: string,
): asserts row is Value[] {
  if (!Array.isArray(row)) {
    throw new TransferError(`${where}: a row of table ${table} expected, got ${describe(row)}`)
  }
  if (row.length !== columns.length) {
    throw new TransferError(
      `${where}: a row of table ${table} has ${columns.length} values, got ${row.length}`,
    )
  }
  for (let i = 0; i < row.length; i++) {
    const problem = misfit(row[i], kinds[i]!)
    if (problem !== null) throw new TransferError(`${where}: ${table}.${columns[i]}: ${problem}`)
  }
}
