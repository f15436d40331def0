/**
 * The prepared reads of one turn of the event loop share a read snapshot (src/db/read-snapshot.ts):
 * another connection's commit (another process) is seen from the next turn, or once the snapshot
 * is MAX_AGE_MS old; a write of this process is seen by the very next read, however it was made.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Worker } from 'node:worker_threads'
import SQLite from 'better-sqlite3'
import { sql } from 'kysely'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { openDatabase, type Db } from '../../src/db/connect.js'
import { migrate } from '../../src/db/migrate.js'
import { prepared } from '../../src/db/prepared.js'
import { MAX_AGE_MS } from '../../src/db/read-snapshot.js'

let dir: string
let path: string
let db: Db
let other: SQLite.Database
let read: (name: string) => Promise<{ value: string }[]>

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'slink-snapshot-'))
  path = join(dir, 'snapshot.db')
  db = openDatabase({ kind: 'sqlite', path })
  await migrate(db)
  other = new SQLite(path)
  other.pragma('busy_timeout = 0')
  read = prepared(
    () => db,
    1,
    (name: string) => db.kysely.selectFrom('settings').select('value').where('name', '=', name),
  )
})
afterEach(async () => {
  other.close()
  await db.close()
  rmSync(dir, { recursive: true, force: true })
})

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve))
const value = async (name: string) => (await read(name))[0]?.value ?? null
/** A checkpoint that waits for no reader: busy 1 while a reader holds an older snapshot. */
const restart = () => (other.pragma('wal_checkpoint(RESTART)') as { busy: number }[])[0]!
const elsewhere = (name: string, v: string) =>
  other.prepare('INSERT OR REPLACE INTO settings (name, value) VALUES (?, ?)').run(name, v)

it("sees another process's commit from the next turn on, not within the turn", async () => {
  await nextTurn()
  expect(await value('a')).toBeNull()
  elsewhere('a', '1')
  expect(await value('a')).toBeNull()
  // The snapshot holds the log: a checkpoint cannot start it over.
  expect(restart().busy).toBe(1)
  await nextTurn()
  // It ended with its turn: nothing holds the log any more.
  expect(restart().busy).toBe(0)
  expect(await value('a')).toBe('1')
})

it('starts a new snapshot once the old one is MAX_AGE_MS old, even within one turn', async () => {
  await nextTurn()
  expect(await value('b')).toBeNull()
  elsewhere('b', '1')
  const until = performance.now() + MAX_AGE_MS + 2
  while (performance.now() < until);
  expect(await value('b')).toBe('1')
})

it('sees the writes of this process at once: a transaction, the query builder’s, a query, the raw handle', async () => {
  await nextTurn()
  expect(await value('c')).toBeNull()
  elsewhere('other', '1')
  // Each write below also brings in what another process committed before it.
  await db.transaction(() =>
    sql`INSERT INTO settings (name, value) VALUES ('c', '1')`.execute(db.kysely),
  )
  expect(await value('c')).toBe('1')
  expect(await value('other')).toBe('1')
  await db.kysely
    .transaction()
    .execute((trx) => sql`UPDATE settings SET value = '2' WHERE name = 'c'`.execute(trx))
  expect(await value('c')).toBe('2')
  await sql`UPDATE settings SET value = '3' WHERE name = 'c'`.execute(db.kysely)
  expect(await value('c')).toBe('3')
  db.sqlite!.prepare("UPDATE settings SET value = '4' WHERE name = 'c'").run()
  expect(await value('c')).toBe('4')
})

it('ends the snapshot when a transaction of this process commits, before the transaction resolves', async () => {
  await nextTurn()
  let inserted!: () => void
  const insertedYet = new Promise<void>((resolve) => (inserted = resolve))
  let finish!: () => void
  const finished = new Promise<void>((resolve) => (finish = resolve))
  const tx = db.transaction(async () => {
    await sql`INSERT INTO settings (name, value) VALUES ('d', '1')`.execute(db.kysely)
    inserted()
    await finished
  })
  await insertedYet
  // Another request reads while the transaction is open; then, with no turn of the event loop
  // between (the snapshot would end with it), the transaction commits and resolves.
  expect(await value('d')).toBeNull()
  finish()
  await tx
  expect(await value('d')).toBe('1')
})

/** A restart checkpoint in another thread, as the click-writing thread runs it: its result. */
const CHECKPOINTER = `
  const { parentPort, workerData } = require('node:worker_threads')
  const SQLite = require(workerData.driver)
  const handle = new SQLite(workerData.path)
  handle.pragma('busy_timeout = 2000')
  parentPort.on('message', () => parentPort.postMessage(handle.pragma('wal_checkpoint(RESTART)')[0]))
`

it('ends the snapshot before a transaction waits for the write lock, which a restart checkpoint holding it waits on no more', async () => {
  const checkpointer = new Worker(CHECKPOINTER, {
    eval: true,
    workerData: { path, driver: createRequire(import.meta.url).resolve('better-sqlite3') },
  })
  try {
    const result = new Promise<{ busy: number }>((resolve) => checkpointer.once('message', resolve))
    await nextTurn()
    elsewhere('e', '1')
    // The group is asked for first, so it begins before the snapshot's turn ends.
    const tx = db.transaction(() =>
      sql`INSERT INTO settings (name, value) VALUES ('f', '1')`.execute(db.kysely),
    )
    expect(await value('e')).toBe('1')
    checkpointer.postMessage('go')
    // The checkpoint holds the write lock once another connection cannot have it. Asked
    // without leaving this turn, so the snapshot stays open.
    other.pragma('busy_timeout = 0')
    const deadline = performance.now() + 10_000
    for (;;) {
      try {
        other.prepare('BEGIN IMMEDIATE').run()
        other.prepare('ROLLBACK').run()
      } catch {
        break
      }
      if (performance.now() > deadline) throw new Error('the checkpoint never took the write lock')
    }
    await tx
    // It copied the log and found no reader left: it did not give up after its 2 s.
    expect(await result).toEqual({
      busy: 0,
      log: expect.any(Number),
      checkpointed: expect.any(Number),
    })
    expect(await value('f')).toBe('1')
  } finally {
    await checkpointer.terminate()
  }
})
