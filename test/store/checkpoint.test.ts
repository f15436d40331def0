/**
 * Checkpoints of the SQLite log (src/db/checkpoint.ts). A reader in another thread holds an old
 * snapshot, as the request thread's reads and writes do while the click-writing thread
 * checkpoints: a passive checkpoint cannot copy past it and the log is not started over; once
 * the log is long, `checkpoint` waits for the reader and the next write starts the log over.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Worker } from 'node:worker_threads'
import SQLite from 'better-sqlite3'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { checkpoint, type CheckpointResult } from '../../src/db/checkpoint.js'
import { openDatabase, type Db } from '../../src/db/connect.js'

let dir: string
let path: string
let db: Db
let writer: SQLite.Database
let checker: SQLite.Database
let reader: Worker

/** A connection in another thread: holds a read snapshot, and lets it go `afterMs` after "go". */
const READER = `
  const { parentPort, workerData } = require('node:worker_threads')
  const SQLite = require(workerData.driver)
  const handle = new SQLite(workerData.path, { readonly: true })
  handle.prepare('BEGIN').run()
  handle.prepare('SELECT count(*) FROM t').get()
  parentPort.postMessage('held')
  parentPort.on('message', (afterMs) => setTimeout(() => {
    handle.prepare('COMMIT').run()
    parentPort.postMessage('released')
  }, afterMs))
`

const once = (message: string) =>
  new Promise<void>((resolve) =>
    reader.on('message', (m) => {
      if (m === message) resolve()
    }),
  )

const write = (count: number) => {
  const insert = writer.prepare('INSERT INTO t (x) VALUES (?)')
  for (let i = 0; i < count; i++) insert.run(i)
}
const passive = () => (checker.pragma('wal_checkpoint(PASSIVE)') as CheckpointResult[])[0]!

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'slink-checkpoint-'))
  path = join(dir, 'log.db')
  db = openDatabase({ kind: 'sqlite', path })
  writer = db.sqlite!
  // As in a server: only the checkpointing connection copies the log.
  writer.pragma('wal_autocheckpoint = 0')
  writer.exec('CREATE TABLE t (x INTEGER)')
  checker = new SQLite(path)
  checker.pragma('busy_timeout = 5000')
  write(150)
  reader = new Worker(READER, {
    eval: true,
    workerData: { path, driver: createRequire(import.meta.url).resolve('better-sqlite3') },
  })
  await once('held')
  // The log goes on past the reader's snapshot.
  write(150)
})
afterEach(async () => {
  await reader.terminate()
  checker.close()
  await db.close()
  rmSync(dir, { recursive: true, force: true })
})

it('a passive checkpoint stops at a reader, and the log is not started over', async () => {
  const result = passive()
  expect(result.busy).toBe(0)
  expect(result.log).toBeGreaterThanOrEqual(300)
  expect(result.checkpointed).toBeLessThan(result.log)
  reader.postMessage(0)
  await once('released')
  write(1)
  expect(passive().log).toBe(result.log + 1)
})

it('starts a long log over: it waits for the reader, and the next write begins the log anew', async () => {
  reader.postMessage(50)
  const result = checkpoint(checker, { restartAt: 100, waitMs: 5000 })
  expect(result).toEqual({ busy: 0, log: result.log, checkpointed: result.log })
  expect(result.log).toBeGreaterThanOrEqual(300)
  expect(checker.pragma('busy_timeout', { simple: true })).toBe(5000)
  write(1)
  expect(passive()).toEqual({ busy: 0, log: 1, checkpointed: 1 })
})

it('leaves a short log to passive checkpoints, and gives up on a reader after its wait', async () => {
  const short = checkpoint(checker, { restartAt: 10_000, waitMs: 5000 })
  expect(short.busy).toBe(0)
  expect(short.checkpointed).toBeLessThan(short.log)

  const started = Date.now()
  const gaveUp = checkpoint(checker, { restartAt: 100, waitMs: 50 })
  expect(Date.now() - started).toBeLessThan(2000)
  expect(gaveUp.busy).toBe(1)
  expect(checker.pragma('busy_timeout', { simple: true })).toBe(5000)
  write(1)
  expect(passive().log).toBeGreaterThan(300)
})
