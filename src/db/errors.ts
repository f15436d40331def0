/** Recognises constraint failures by the driver's error code (never by message text). */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code
  return (
    code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    code === 'SQLITE_CONSTRAINT_PRIMARYKEY' ||
    code === '23505'
  )
}

const UNAVAILABLE = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EPIPE',
  'EHOSTUNREACH',
  '57P01', // admin shutdown
  '57P02', // crash shutdown
  '57P03', // cannot connect now
  '53300', // too many connections
  // A named statement planned before another process changed a column's type (a migration):
  // the transaction it was in fails, and the next try runs it unnamed (db/statement-names.ts).
  // The code's other causes are features that slink's queries do not use.
  '0A000',
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  'SQLITE_BUSY',
  'SQLITE_LOCKED',
])

/**
 * The database cannot be reached or is busy: the answer is 503, not 500. node-postgres gives
 * two such failures no code (a connection lost mid-query, a pool that cannot connect in time);
 * those are recognised by their fixed text.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code
  if (typeof code === 'string' && UNAVAILABLE.has(code)) return true
  const message = error instanceof Error ? error.message : ''
  return /^Connection terminated|^timeout exceeded when trying to connect/.test(message)
}
