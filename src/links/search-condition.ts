/**
 * The links' substring search: case-insensitive, `%` and `_` literal, the same answer on both
 * engines (docs/adr/0001-search-on-database-indexes.md).
 *
 * The answer is always `containsInsensitive` (db/sql-helpers.ts), with the term a bound
 * parameter. On SQLite a term of TRIGRAM_MIN characters or more first takes its candidates from
 * the FTS5 trigram index (migration 0020), a phrase query that matches the same substrings; on
 * PostgreSQL the pg_trgm indexes serve the comparison itself. Shorter terms scan the user's links.
 */
import { sql, type RawBuilder } from 'kysely'
import type { Dialect } from '../db/connect.js'
import { containsInsensitive } from '../db/sql-helpers.js'

/** The shortest term (in characters) a trigram index serves. */
export const TRIGRAM_MIN = 3

export type SearchColumn = 'alias' | 'url' | 'title'

/** Where a search looks: one column, or `all` of them (a link matches if any contains the term). */
export type SearchIn = SearchColumn | 'all'

const ALL_COLUMNS: readonly SearchColumn[] = ['alias', 'url', 'title']

/**
 * The FTS5 query that finds `term` in `column`: the term as one phrase, in double quotes with
 * each `"` doubled, inside which FTS5 reads nothing as syntax (`*`, `NEAR`, `AND`, parentheses,
 * `:` are plain text). FTS5 cannot read U+0000: such a term is refused here (the caller never
 * sends one, see containsInsensitive).
 */
export function ftsQuery(column: SearchIn, term: string): string {
  if (term.includes('\u0000')) throw new RangeError('an FTS5 query cannot hold U+0000')
  const columns = column === 'all' ? `{${ALL_COLUMNS.join(' ')}}` : column
  return `${columns} : "${term.replaceAll('"', '""')}"`
}

function contains(column: SearchIn, term: string, dialect: Dialect): RawBuilder<boolean> {
  if (column !== 'all') return containsInsensitive(column, term, dialect)
  const each = ALL_COLUMNS.map((c) => containsInsensitive(c, term, dialect))
  return sql<boolean>`(${sql.join(each, sql` or `)})`
}

export function searchCondition(
  column: SearchIn,
  term: string,
  dialect: Dialect,
): RawBuilder<boolean> {
  const answer = contains(column, term, dialect)
  if (dialect === 'postgres' || term.includes('\u0000') || [...term].length < TRIGRAM_MIN) {
    return answer
  }
  const query = ftsQuery(column, term)
  return sql<boolean>`(links.id in (select rowid from links_search where links_search match ${query}) and ${answer})`
}
