/**
 * Prepared statements of SQLite, kept for reuse: the query builder hands the driver the same
 * SQL text for every call of a query, and preparing it again each time cost about an eighth of
 * the API's time. A statement still being iterated (a streamed read) is busy, so a call that
 * meets it gets a fresh one.
 */
import type SQLite from 'better-sqlite3'
import type { SqliteDatabase } from 'kysely'

const MAX_STATEMENTS = 500

export function cachingStatements(handle: SQLite.Database): SqliteDatabase {
  const statements = new Map<string, SQLite.Statement>()
  return {
    close: () => handle.close(),
    prepare(sql: string) {
      const cached = statements.get(sql)
      if (cached && !cached.busy) {
        // Most recently used last, so the oldest is the first to go.
        statements.delete(sql)
        statements.set(sql, cached)
        return cached
      }
      const statement = handle.prepare(sql)
      if (!cached) {
        statements.set(sql, statement)
        if (statements.size > MAX_STATEMENTS) statements.delete(statements.keys().next().value!)
      }
      return statement
    },
  }
}
