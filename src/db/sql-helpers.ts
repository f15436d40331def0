/** Query fragments that must read the same on SQLite and PostgreSQL. */
import { sql, type RawBuilder } from 'kysely'

/**
 * On SQLite, `lower()` is the Unicode-aware one of db/connect.ts: a call into JavaScript for
 * every row. A value whose characters are all ASCII (as many bytes as characters) needs none:
 * SQLite's own LIKE and NOCASE fold ASCII letters exactly as it does, so only the others are
 * lowered. Counting the aliases that hold "b1" among a million took 314 ms with `lower()` on
 * every row and 150 ms so; URLs 478 and 164 ms.
 */
function isAscii(column: string) {
  return sql`length(${sql.ref(column)}) = octet_length(${sql.ref(column)})`
}

/**
 * Case-insensitive substring match in which `%` and `_` are literal; the term is a bound
 * parameter. A term holding U+0000 finds nothing on either engine: PostgreSQL's text cannot hold
 * that character (nor take it as a parameter), and SQLite's LIKE would end the pattern there.
 */
export function containsInsensitive(
  column: string,
  term: string,
  dialect: 'sqlite' | 'postgres',
): RawBuilder<boolean> {
  if (term.includes('\u0000')) return sql<boolean>`1 = 0`
  const pattern = `%${term.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`
  // PostgreSQL's LIKE escapes with a backslash by default; leaving the ESCAPE clause out keeps
  // the pattern a plain parameter, which pg_trgm's indexes can serve.
  if (dialect === 'postgres') return sql<boolean>`lower(${sql.ref(column)}) like ${pattern}`
  // The pattern is lower-case, so SQLite's LIKE matching a value means the lower-cased value
  // matches too; an ASCII value it does not match, the lower-cased one does not match either.
  const ref = sql.ref(column)
  return sql<boolean>`(${ref} like ${pattern} escape '\\' or (not ${isAscii(column)} and lower(${ref}) like ${pattern} escape '\\'))`
}

/** A text sort key that orders the same way on both engines (byte order of the lower-cased text). */
export function textSortKey(column: string, dialect: 'sqlite' | 'postgres'): RawBuilder<string> {
  const value = sql`coalesce(${sql.ref(column)}, '')`
  if (dialect === 'postgres') return sql<string>`lower(${value}) collate "C"`
  // NOCASE compares the bytes with ASCII letters folded: an ASCII value compares as its
  // lower-cased text, and a lower-cased one as itself.
  return sql<string>`(case when ${isAscii(column)} then ${value} else lower(${value}) end) collate nocase`
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
