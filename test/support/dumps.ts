/** A database's dump as `slink export` writes it, and its import, in process and quietly. */
import { PassThrough, Readable } from 'node:stream'
import type { Db } from '../../src/db/connect.js'
import { dumpLines } from '../../src/transfer/dump-lines.js'
import { exportDatabase } from '../../src/transfer/export-database.js'
import { importDatabase } from '../../src/transfer/import-database.js'
import { createProgress } from '../../src/transfer/progress.js'

const quiet = createProgress({ write: () => true }, false)

export async function dumpOf(db: Db): Promise<string> {
  const out = new PassThrough()
  const chunks: Buffer[] = []
  out.on('data', (chunk: Buffer) => chunks.push(chunk))
  await exportDatabase(db, out, quiet)
  return Buffer.concat(chunks).toString()
}

/** Imports `dump` into `db` (empty, or not yet migrated), as `slink import` does. */
export async function importDump(db: Db, dump: string): Promise<void> {
  await importDatabase(db, dumpLines(Readable.from([Buffer.from(dump)])), quiet)
}
