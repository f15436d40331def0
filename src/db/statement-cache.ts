/**
 * Prepared statements of SQLite, kept for reuse: the query builder hands the driver the same
 * SQL text for every call of a query, and preparing it again each time cost about an eighth of
 * the API's time. A statement still being iterated (a streamed read) is busy, so a call that
 * meets it gets a fresh one.
 */
import type SQLite from 'better-sqlite3'
import type { SqliteDatabase } from 'kysely'

const MAX_STATEMENTS = 500

/** `onWrite`: told when a statement that writes is handed out, before it runs. */
export function cachingStatements(
  handle: SQLite.Database,
  onWrite: () => void = () => {},
): SqliteDatabase {
  const statements = new Map<string, SQLite.Statement>()
  return {
    close: () => handle.close(),
    prepare(text: string) {
      const cached = statements.get(text)
      if (cached && !cached.busy) {
        // Most recently used last, so the oldest is the first to go.
        statements.delete(text)
        statements.set(text, cached)
        if (!cached.readonly) onWrite()
        return cached
      }
      const statement = handle.prepare(text)
      if (!statement.readonly) onWrite()
      if (!cached) {
        statements.set(text, statement)
        if (statements.size > MAX_STATEMENTS) statements.delete(statements.keys().next().value!)
      }
      return statement
    },
  }
}
