/**
 * Rows of SQLite as objects built by one object literal per shape of result (its column names),
 * from the statement's raw arrays. better-sqlite3 builds each row key by key; for a link's 25
 * columns that cost about 3.4 µs a row, more than reading the row: 25 links by id took 152 µs
 * as the driver's objects, 66 µs as arrays, and 66 µs as arrays turned into objects here
 * (docs/performance.md, tenth round). A later column of the same name wins, as in the driver's
 * objects.
 */
import type SQLite from 'better-sqlite3'

type Build = (values: unknown[]) => Record<string, unknown>

/** One builder per list of column names; results have few shapes (one per query). */
const byNames = new Map<string, Build>()
const MAX_SHAPES = 1000

/** The statement's builder, or null when its rows stay the driver's (a `__proto__` column). */
const byStatement = new WeakMap<SQLite.Statement, Build | null>()

function builderOf(statement: SQLite.Statement): Build | null {
  let build = byStatement.get(statement)
  if (build !== undefined) return build
  const names = statement.columns().map((column) => column.name)
  // In an object literal this name would set the prototype, not a field.
  if (names.includes('__proto__')) {
    build = null
  } else {
    const key = JSON.stringify(names)
    build = byNames.get(key)
    if (build === undefined) {
      const fields = names.map((name, i) => `${JSON.stringify(name)}: r[${i}]`)
      build = new Function('r', `return { ${fields.join(', ')} }`) as Build
      if (byNames.size >= MAX_SHAPES) byNames.delete(byNames.keys().next().value!)
      byNames.set(key, build)
    }
    statement.raw(true)
  }
  byStatement.set(statement, build)
  return build
}

/** Every row of a statement that returns rows, as objects. */
export function allRows<R>(statement: SQLite.Statement, parameters: readonly unknown[]): R[] {
  const build = builderOf(statement)
  if (build === null) return statement.all(parameters) as R[]
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
    yield (build === null ? row : build(row as unknown[])) as R
  }
}
