/**
 * Queries of the request path built and compiled once, then run with new values. Building a
 * query with the query builder and compiling it to SQL costs tens of microseconds a call, more
 * than SQLite takes to answer a point query; a prepared query pays it once per process.
 *
 * The query is built with stand-ins for its parameters; compiling it gives the SQL and the
 * parameter list, in which each stand-in is replaced by the value of its call. So a prepared
 * query must have the same shape for every value: no `in` list whose length depends on it.
 * It runs in the current transaction when there is one, like any query of `db.kysely`.
 */
import { CompiledQuery, type Compilable } from 'kysely'
import type { Db } from './connect.js'

class StandIn {
  constructor(readonly index: number) {}
}

export function prepared<A extends unknown[], R>(
  /** The database (read at each run: a store builds its prepared queries before its fields are set). */
  db: () => Db,
  arity: A['length'],
  build: (...args: A) => Compilable<R>,
): (...args: A) => Promise<R[]> {
  let compiled: CompiledQuery<R> | null = null
  return async (...args: A) => {
    if (compiled === null) {
      const standIns = Array.from({ length: arity }, (_, i) => new StandIn(i)) as unknown as A
      compiled = build(...standIns).compile()
    }
    const parameters = compiled.parameters.map((value) =>
      value instanceof StandIn ? args[value.index] : value,
    )
    const result = await db().kysely.executeQuery<R>(CompiledQuery.raw(compiled.sql, parameters))
    return result.rows
  }
}
