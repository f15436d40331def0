/**
 * Rows of SQLite as objects built by one object literal per shape of result (its column names),
 * from the statement's raw arrays. better-sqlite3 builds each row key by key; for a link's 25
 * columns that cost about 3.4 µs a row, more than reading the row: 25 links by id took 152 µs
 * as the driver's objects, 66 µs as arrays, and 66 µs as arrays turned into objects here.
 * A later column of the same name wins, as in the driver's
 * objects; a column named `__proto__` is a field like any other (see `field`).
 */
import type SQLite from 'better-sqlite3'

type Build = (values: unknown[]) => Record<string, unknown>

/** One builder per list of column names; results have few shapes (one per query). */
const byNames = new Map<string, Build>()
const MAX_SHAPES = 1000

/** The builder of each statement's rows, once its columns have been read. */
const byStatement = new WeakMap<SQLite.Statement, Build>()

/**
 * A field of the literal. `__proto__` is written as a computed key, which makes it a field of
 * its own: as a plain key it would set the row's prototype to the column's value (better-sqlite3's
 * own objects do that: a NULL gives a row without a prototype, a blob one that is a Buffer).
 */
function field(name: string, i: number): string {
  const key = JSON.stringify(name)
  return `${name === '__proto__' ? `[${key}]` : key}: r[${i}]`
}

function builderOf(statement: SQLite.Statement): Build {
  let build = byStatement.get(statement)
  if (build !== undefined) return build
  const names = statement.columns().map((column) => column.name)
  const key = JSON.stringify(names)
  build = byNames.get(key)
  if (build === undefined) {
    build = new Function('r', `return { ${names.map(field).join(', ')} }`) as Build
    if (byNames.size >= MAX_SHAPES) byNames.delete(byNames.keys().next().value!)
    byNames.set(key, build)
  }
  statement.raw(true)
  byStatement.set(statement, build)
  return build
}

/** Every row of a statement that returns rows, as objects. */
export function allRows<R>(statement: SQLite.Statement, parameters: readonly unknown[]): R[] {
  const build = builderOf(statement)
  const rows = statement.all(parameters) as unknown[][]
  const objects = new Array<R>(rows.length)
  for (let i = 0; i < rows.length; i++) objects[i] = build(rows[i]!) as R
  return objects
}

/** The rows of a statement that returns rows, one at a time, as objects. */
export function* iterateRows<R>(
  statement: SQLite.Statement,
  parameters: readonly unknown[],
): Generator<R> {
  const build = builderOf(statement)
  for (const row of statement.iterate(parameters as unknown[])) {
    yield build(row as unknown[]) as R
  }
}
