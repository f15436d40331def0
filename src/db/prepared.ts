/**
 * Queries of the request path built and compiled once, then run with new values. Building a
 * query with the query builder and compiling it to SQL costs tens of microseconds a call, more
 * than SQLite takes to answer a point query; a prepared query pays it once per process.
 *
 * The query is built with stand-ins for its parameters; compiling it gives the SQL and the
 * parameter list, in which each stand-in is replaced by the value of its call. So a prepared
 * query must have the same shape for every value: no `in` list whose length depends on it.
 * It runs in the current transaction when there is one, like any query of `db.kysely`.
 *
 * On an SQLite file, a prepared read outside a transaction runs synchronously on the read-only
 * connection (`Db.reader`): it sees what is committed, without the promises of the query
 * builder and without waiting for the writing connection, which is one per process and serves
 * every transaction in turn (a read queued behind them waited for each). Inside a transaction
 * the read goes through the query builder, in that transaction.
 *
 * On PostgreSQL, a prepared read outside a transaction is a named statement of the pool: each
 * connection parses and plans it once, instead of at every call. Inside a transaction, so is a
 * prepared query that lists its columns (db/statement-names.ts).
 */
import { CompiledQuery, type Compilable } from 'kysely'
import type SQLite from 'better-sqlite3'
import type { QueryResultRow } from 'pg'
import type { Db } from './connect.js'
import { allRows } from './row-objects.js'
import { forgetStatement, isStalePlan, nameStatement } from './statement-names.js'

class StandIn {
  constructor(readonly index: number) {}
}

/** A query compiled from stand-ins; `values` puts a call's arguments in their places. */
interface Compiled<R> {
  readonly query: CompiledQuery<R>
  values(args: readonly unknown[]): unknown[]
}

function compileOnce<A extends unknown[], R>(
  arity: A['length'],
  build: (...args: A) => Compilable<R>,
): () => Compiled<R> {
  let compiled: Compiled<R> | null = null
  return () => {
    if (compiled !== null) return compiled
    const standIns = Array.from({ length: arity }, (_, i) => new StandIn(i)) as unknown as A
    const query = build(...standIns).compile()
    compiled = {
      query,
      values: (args) =>
        query.parameters.map((value) => (value instanceof StandIn ? args[value.index] : value)),
    }
    return compiled
  }
}

/** Names the PostgreSQL statements, one per prepared query of the process. */
let count = 0

/** A read of the reader connection, its rows built as db/row-objects.ts builds them. */
function readerOf<R>(sqlite: SQLite.Database, text: string): (parameters: unknown[]) => R[] {
  const statement = sqlite.prepare(text)
  if (!statement.reader) throw new Error(`a prepared query must return rows: ${text}`)
  return (parameters) => allRows<R>(statement, parameters)
}

export function prepared<A extends unknown[], R>(
  /** The database (read at each run: a store builds its prepared queries before its fields are set). */
  db: () => Db,
  arity: A['length'],
  build: (...args: A) => Compilable<R>,
): (...args: A) => Promise<R[]> {
  const compiled = compileOnce(arity, build)
  const name = `slink_prepared_${++count}`
  let read: ((parameters: unknown[]) => R[]) | null = null
  // Given to the transactions' connections once (db/statement-names.ts).
  let named = false
  return (...args: A) => {
    const { query, values } = compiled()
    const parameters = values(args)
    const database = db()
    const reader = database.reader()
    if (reader !== null) {
      try {
        read ??= readerOf<R>(reader, query.sql)
        return Promise.resolve(read(parameters))
      } catch (error) {
        return Promise.reject(error as Error)
      }
    }
    const unnamed = () =>
      database.kysely
        .executeQuery<R>(CompiledQuery.raw(query.sql, parameters))
        .then((result) => result.rows as R[])
    if (!named && database.dialect === 'postgres') {
      nameStatement(query.sql, name)
      named = true
    }
    const pool = database.pool()
    if (pool !== null) {
      return pool.query<R & QueryResultRow>({ name, text: query.sql, values: parameters }).then(
        (result) => result.rows,
        // A connection that planned the statement before the schema changed (another
        // process migrated it) refuses it; the same query unnamed is planned afresh.
        (error: unknown) => {
          if (!isStalePlan(error)) return Promise.reject(error as Error)
          forgetStatement(query.sql)
          return unnamed()
        },
      )
    }
    return unnamed()
  }
}
