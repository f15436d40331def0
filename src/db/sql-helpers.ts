/** Query fragments that must read the same on SQLite and PostgreSQL. */
import { sql, type RawBuilder } from 'kysely'

/** Case-insensitive substring match in which `%` and `_` are literal. */
export function containsInsensitive(column: string, term: string): RawBuilder<boolean> {
  const escaped = term.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)
  return sql<boolean>`lower(${sql.ref(column)}) like ${`%${escaped}%`} escape '\\'`
}

/** A text sort key that orders the same way on both engines (byte order of the lower-cased text). */
export function textSortKey(column: string, dialect: 'sqlite' | 'postgres'): RawBuilder<string> {
  return dialect === 'postgres'
    ? sql<string>`lower(coalesce(${sql.ref(column)}, '')) collate "C"`
    : sql<string>`lower(coalesce(${sql.ref(column)}, ''))`
}
