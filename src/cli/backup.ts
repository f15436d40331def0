/**
 * `slink backup --to FILE`: a copy of the SQLite database, taken through SQLite's online backup
 * while the service keeps serving and writing. The copy is written to a new file (mode 0600: it
 * holds password hashes and secrets) beside FILE, checked, synced and only then renamed to FILE,
 * so FILE is always either the previous file or a complete backup. PostgreSQL is backed up with
 * its own tools (pg_dump, see docs/deploy.md); the command says so and exits non-zero.
 */
import {
  closeSync,
  existsSync,
  fsyncSync,
  openSync,
  realpathSync,
  renameSync,
  rmSync,
} from 'node:fs'
import { basename, dirname, join, resolve } from 'node:path'
import SQLite from 'better-sqlite3'
import { loadConfig } from '../config.js'
import { parseCommand, UsageError } from './args.js'
import { lines, type CliIo } from './io.js'
import { onInterrupt } from './transfer-setup.js'

export class BackupError extends Error {}

/**
 * Pages to copy in one step: all of them. One step reads one snapshot (a WAL reader does not
 * hold up writers); copying in smaller steps would start over after every write of the
 * service, which under steady traffic may never finish.
 */
const ALL_PAGES = 0x7fffffff
const LOCK_WAIT_MS = 5000

function sameFile(a: string, b: string): boolean {
  try {
    return realpathSync(a) === realpathSync(b)
  } catch {
    return false
  }
}

export async function backupCommand(args: string[], io: CliIo): Promise<void> {
  const { values } = parseCommand(args, { values: ['to'] })
  const to = values.to
  if (to === undefined) throw new UsageError('--to FILE is required')
  const config = loadConfig(io.env).database
  if (config.kind === 'postgres') {
    throw new BackupError(
      'backup copies SQLite databases; back up PostgreSQL with pg_dump (see docs/deploy.md, "Backups")',
    )
  }
  if (config.path === ':memory:' || !existsSync(config.path)) {
    throw new BackupError(`no SQLite database at ${config.path}`)
  }
  const target = resolve(to)
  if (!existsSync(dirname(target))) throw new BackupError(`no directory ${dirname(target)}`)
  if (sameFile(target, config.path)) {
    throw new BackupError('--to names the database itself: give another file')
  }
  const started = performance.now()
  const partial = join(dirname(target), `.${basename(target)}.${process.pid}.partial`)
  // Created empty with mode 0600 before SQLite writes into it, so it is never readable by others.
  closeSync(openSync(partial, 'wx', 0o600))
  const discard = () => {
    for (const suffix of ['', '-journal', '-wal', '-shm'])
      rmSync(`${partial}${suffix}`, { force: true })
  }
  const release = onInterrupt(discard, `no backup was written to ${to}`, io.stderr)
  const source = new SQLite(config.path, { fileMustExist: true })
  try {
    source.pragma(`busy_timeout = ${LOCK_WAIT_MS}`)
    const { totalPages } = await source.backup(partial, { progress: () => ALL_PAGES })
    const copy = new SQLite(partial, { fileMustExist: true })
    try {
      const check = copy.pragma('quick_check', { simple: true })
      if (check !== 'ok') throw new BackupError(`the copy failed its check: ${String(check)}`)
    } finally {
      copy.close()
    }
    const fd = openSync(partial, 'r')
    try {
      fsyncSync(fd)
    } finally {
      closeSync(fd)
    }
    renameSync(partial, target)
    const size = (totalPages * Number(source.pragma('page_size', { simple: true }))) / 1e6
    const seconds = (performance.now() - started) / 1000
    lines(io.stdout)(
      `backed up ${config.path} to ${to}: ${totalPages} pages (${size.toFixed(1)} MB) in ${seconds.toFixed(1)} s`,
    )
  } catch (error) {
    discard()
    throw error
  } finally {
    release()
    source.close()
  }
}
