/** Query fragments that must read the same on SQLite and PostgreSQL. */
import { sql, type RawBuilder } from 'kysely'

/** Case-insensitive substring match in which `%` and `_` are literal. */
export function containsInsensitive(
  column: string,
  term: string,
  dialect: 'sqlite' | 'postgres',
): RawBuilder<boolean> {
  const escaped = term.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)
  // PostgreSQL's LIKE escapes with a backslash by default; leaving the ESCAPE clause out keeps
  // the pattern a plain parameter, which pg_trgm's indexes can serve.
  return dialect === 'postgres'
    ? sql<boolean>`lower(${sql.ref(column)}) like ${`%${escaped}%`}`
    : sql<boolean>`lower(${sql.ref(column)}) like ${`%${escaped}%`} escape '\\'`
}

/** A text sort key that orders the same way on both engines (byte order of the lower-cased text). */
export function textSortKey(column: string, dialect: 'sqlite' | 'postgres'): RawBuilder<string> {
  return dialect === 'postgres'
    ? sql<string>`lower(coalesce(${sql.ref(column)}, '')) collate "C"`
    : sql<string>`lower(coalesce(${sql.ref(column)}, ''))`
}

/**
 * Ids as one parameter, so that a prepared query has the same shape whatever their number: a
 * JSON array on SQLite (read with json_each), an array on PostgreSQL.
 */
export type IdList = string | number[]

export function idList(ids: number[], dialect: 'sqlite' | 'postgres'): IdList {
  return dialect === 'sqlite' ? JSON.stringify(ids) : ids
}

/** `column` is one of the ids of an IdList parameter. */
export function inIdList(
  column: string,
  ids: IdList,
  dialect: 'sqlite' | 'postgres',
): RawBuilder<boolean> {
  return dialect === 'sqlite'
    ? sql<boolean>`${sql.ref(column)} in (select value from json_each(${ids}))`
    : sql<boolean>`${sql.ref(column)} = any(${ids})`
}

/**
 * A table's columns by name, in one order: `everyColumn<Row>()([...])` does not compile when the
 * list misses a column of `Row` (one added to the table and not to the list) or names another.
 */
export function everyColumn<Row>() {
  return <const List extends readonly (keyof Row)[]>(
    list: List &
      ([Exclude<keyof Row, List[number]>] extends [never]
        ? unknown
        : { missing: Exclude<keyof Row, List[number]> }),
  ): List => list
}
