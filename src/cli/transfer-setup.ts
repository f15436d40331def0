/**
 * What both transfer commands need around the work: their flags (`--progress` and
 * `--no-progress` besides the named ones), the database a flag or DATABASE_URL names, a first
 * query that turns an unreachable database into one clear line, and clean-up on SIGINT/SIGTERM.
 */
import type { Writable } from 'node:stream'
import { sql } from 'kysely'
import { ConfigError, loadConfig, parseDatabaseUrl, type DatabaseConfig } from '../config.js'
import { DatabaseUnavailableError, type Db } from '../db/connect.js'
import { parseCommand, UsageError } from './args.js'

export interface Flags {
  values: Record<string, string | undefined>
  /** --progress / --no-progress; undefined: decide by where the output goes. */
  progress: boolean | undefined
}

export function flags(args: string[], names: string[]): Flags {
  const parsed = parseCommand(args, { values: names, switches: ['progress', 'no-progress'] })
  const last = parsed.switches.at(-1)
  return { values: parsed.values, progress: last === undefined ? undefined : last === 'progress' }
}

export function database(
  flag: string | undefined,
  name: string,
  env: Record<string, string | undefined>,
): DatabaseConfig {
  if (flag === undefined) return loadConfig(env).database
  try {
    return parseDatabaseUrl(flag.trim(), name)
  } catch (error) {
    throw error instanceof ConfigError ? new UsageError(error.message) : error
  }
}

export async function reach(db: Db, role: string): Promise<void> {
  try {
    await sql`select 1`.execute(db.kysely)
  } catch (error) {
    const reason = (error as Error).message.split('\n')[0]
    throw new DatabaseUnavailableError(`cannot reach the ${role} database: ${reason}`)
  }
}

/**
 * On SIGINT or SIGTERM: clean up, say on `stderr` what was left, and exit the process (130 or
 * 143): the one place a command ends the process itself, as the signal asks.
 */
export function onInterrupt(cleanup: () => void, outcome: string, stderr: Writable): () => void {
  const handler = (signal: NodeJS.Signals) => {
    cleanup()
    stderr.write(`slink: interrupted: ${outcome}\n`)
    process.exit(signal === 'SIGINT' ? 130 : 143)
  }
  process.once('SIGINT', handler).once('SIGTERM', handler)
  return () => process.off('SIGINT', handler).off('SIGTERM', handler)
}
