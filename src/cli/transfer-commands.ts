/**
 * `slink export` and `slink import`: where the dump goes to or comes from, whether progress is
 * drawn, what is cleaned up on failure, and the summary line. The work is in src/transfer/.
 */
import { existsSync, rmSync } from 'node:fs'
import { openDatabase } from '../db/connect.js'
import { fileOutput, openInput, streamOutput } from '../transfer/dump-files.js'
import { TransferError } from '../transfer/dump-format.js'
import { dumpLines } from '../transfer/dump-lines.js'
import { exportDatabase } from '../transfer/export-database.js'
import { importDatabase, SchemaUpdateError } from '../transfer/import-database.js'
import { createProgress, formatCount } from '../transfer/progress.js'
import { UsageError } from './args.js'
import type { CliIo } from './io.js'
import { database, flags, onInterrupt, reach } from './transfer-setup.js'

const seconds = (s: number) => `${s.toFixed(1)} s`

export async function exportCommand(args: string[], io: CliIo): Promise<void> {
  const { values, progress: wanted } = flags(args, ['to', 'from-database'])
  const config = database(values['from-database'], '--from-database', io.env)
  const toStdout = values.to === undefined || values.to === '-'
  if (toStdout && io.isTTY.stdout) {
    throw new UsageError('refusing to write a dump to a terminal: give --to FILE or redirect it')
  }
  if (config.kind === 'sqlite' && (config.path === ':memory:' || !existsSync(config.path)))
    throw new TransferError(`no SQLite database at ${config.path}`)
  const output = toStdout ? streamOutput(io.stdout, io.stdoutPiped()) : fileOutput(values.to!)
  const terminal = io.isTTY.stderr
  // Into a pipe, the reading side (often `slink import`) shows the progress on the terminal.
  const bars = terminal && (wanted ?? !output.piped)
  const progress = createProgress(io.stderr, bars)
  const db = openDatabase(config)
  const release = onInterrupt(
    () => {
      progress.abandon()
      output.discard()
    },
    toStdout ? 'the dump is incomplete' : 'no dump was written',
    io.stderr,
  )
  try {
    await reach(db, 'source')
    const done = await exportDatabase(db, output.stream, progress)
    await output.finish()
    const summary = `exported ${formatCount(done.rows)} rows of ${done.tables} tables in ${seconds(done.seconds)}`
    if (bars || !terminal || !output.piped) progress.done(summary)
  } catch (error) {
    progress.abandon()
    output.discard()
    throw error
  } finally {
    release()
    await db.close()
  }
}

export async function importCommand(args: string[], io: CliIo): Promise<void> {
  const { values, progress: wanted } = flags(args, ['from', 'to-database'])
  const config = database(values['to-database'], '--to-database', io.env)
  const fromStdin = values.from === undefined || values.from === '-'
  if (fromStdin && io.isTTY.stdin) {
    throw new UsageError('no dump on standard input: give --from FILE or pipe a dump in')
  }
  const input = fromStdin ? io.stdin : openInput(values.from!)
  // A new SQLite file that ends up holding nothing is removed again.
  const createdFile =
    config.kind === 'sqlite' && config.path !== ':memory:' && !existsSync(config.path)
      ? config.path
      : null
  const removeCreated = () => {
    if (createdFile === null) return
    for (const suffix of ['', '-wal', '-shm', '-journal'])
      rmSync(`${createdFile}${suffix}`, { force: true })
  }
  const bars = io.isTTY.stderr && (wanted ?? true)
  const progress = createProgress(io.stderr, bars)
  const db = openDatabase(config)
  const release = onInterrupt(
    () => {
      progress.abandon()
      removeCreated()
    },
    'nothing was imported',
    io.stderr,
  )
  let keep = false
  try {
    await reach(db, 'target')
    const done = await importDatabase(db, dumpLines(input), progress)
    keep = true
    const then =
      done.migratedForward.length > 0 ? `, then applied ${done.migratedForward.join(', ')}` : ''
    progress.done(
      `imported ${formatCount(done.rows)} rows into ${done.tables} tables in ${seconds(done.seconds)}${then}`,
    )
  } catch (error) {
    progress.abandon()
    keep = error instanceof SchemaUpdateError
    throw error
  } finally {
    release()
    await db.close()
    if (!keep) removeCreated()
  }
}
