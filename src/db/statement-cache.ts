/**
 * Prepared statements of SQLite, kept for reuse: the query builder hands the driver the same
 * SQL text for every call of a query, and preparing it again each time cost about an eighth of
 * the API's time. A statement still being iterated (a streamed read) is busy, so a call that
 * meets it gets a fresh one.
 */
import type SQLite from 'better-sqlite3'
import type { SqliteDatabase } from 'kysely'

const MAX_STATEMENTS = 500

/** `onWrite`: told before a statement that writes runs (it runs right after, synchronously). */
export function cachingStatements(
  handle: SQLite.Database,
  onWrite: () => void = () => {},
): SqliteDatabase {
  const statements = new Map<string, SQLite.Statement>()
  return {
    close: () => handle.close(),
    prepare(text: string) {
      // The query builder opens every transaction with a plain (deferred) `begin`. One that
      // reads before it writes then cannot take the write lock when another connection (a
      // cluster worker, the click writer) has written meanwhile: SQLite answers SQLITE_BUSY at
      // once, without waiting. Taking the write lock at the start waits its turn instead
      // (busy_timeout). Every transaction of the query builder writes.
      const sql = text === 'begin' ? 'begin immediate' : text
      const cached = statements.get(sql)
      if (cached && !cached.busy) {
        // Most recently used last, so the oldest is the first to go.
        statements.delete(sql)
        statements.set(sql, cached)
        if (!cached.readonly) onWrite()
        return cached
      }
      const statement = handle.prepare(sql)
      if (!statement.readonly) onWrite()
      if (!cached) {
        statements.set(sql, statement)
        if (statements.size > MAX_STATEMENTS) statements.delete(statements.keys().next().value!)
      }
      return statement
    },
  }
}
