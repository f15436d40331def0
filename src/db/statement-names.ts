/**
 * The PostgreSQL statement names of the prepared queries (db/prepared.ts), by their SQL text, for
 * the queries a transaction runs: its connection runs a query with a named text as that named
 * statement, which each connection parses and plans once instead of at every call (a write's
 * transaction took about a third less of PostgreSQL's CPU).
 *
 * Only a query that lists its columns is named. PostgreSQL refuses a named statement whose
 * result type has changed since it was planned ("cached plan must not change result type"):
 * outside a transaction the prepared query then runs unnamed, but inside one the refusal has
 * already failed the transaction. A column added by a migration (another process may run it
 * while this one serves) changes the result type of `select *` and `returning *`, not that of a
 * list of columns. A text refused all the same (a column's type changed) is forgotten: the
 * transactions after it run it unnamed.
 */
const names = new Map<string, string>()
const forgotten = new Set<string>()

/** Names `text` for transactions, unless it reads `*` or was forgotten. */
export function nameStatement(text: string, name: string): void {
  if (!text.includes('*') && !forgotten.has(text)) names.set(text, name)
}

export function statementNameOf(text: string): string | undefined {
  return names.get(text)
}

/** How many texts are named: each is a statement on every connection that ran it. */
export function namedStatements(): number {
  return names.size
}

export function forgetStatement(text: string): void {
  names.delete(text)
  forgotten.add(text)
}

/** PostgreSQL's "cached plan must not change result type". */
export function isStalePlan(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === '0A000'
}
