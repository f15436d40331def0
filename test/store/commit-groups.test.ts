/**
 * Group commit on SQLite (src/db/commit-groups.ts): transactions started together are committed
 * together, none is answered before that commit, and one that fails takes only its own changes
 * with it.
 */
import { AsyncLocalStorage } from 'node:async_hooks'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import SQLite from 'better-sqlite3'
import { sql } from 'kysely'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase, type Db } from '../../src/db/connect.js'
import { migrate } from '../../src/db/migrate.js'

let dir: string
let db: Db
let other: SQLite.Database
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'slink-groups-'))
  const path = join(dir, 'groups.db')
  db = openDatabase({ kind: 'sqlite', path })
  await migrate(db)
  // Another process's view of the file: it sees what is committed, nothing else.
  other = new SQLite(path, { readonly: true })
})
afterAll(async () => {
  other.close()
  await db.close()
  rmSync(dir, { recursive: true, force: true })
})
afterEach(async () => {
  await sql`DELETE FROM settings WHERE name LIKE 'g%'`.execute(db.kysely)
})

const write = (name: string) =>
  sql`INSERT INTO settings (name, value) VALUES (${name}, '1')`.execute(db.kysely)
const committed = () =>
  (
    other.prepare("SELECT name FROM settings WHERE name LIKE 'g%' ORDER BY name").all() as {
      name: string
    }[]
  ).map((r) => r.name)
const seenHere = async () =>
  (
    await sql<{
      name: string
    }>`SELECT name FROM settings WHERE name LIKE 'g%' ORDER BY name`.execute(db.kysely)
  ).rows.map((r) => r.name)

describe('SQLite group commit', () => {
  it('commits transactions started together once, and answers none before that commit', async () => {
    const answered: string[] = []
    const inside: { here: string[]; committed: string[]; answered: string[] }[] = []
    const transaction = (name: string) =>
      db
        .transaction(async () => {
          await write(name)
          // What this transaction sees on its connection, what another connection sees, and
          // which transactions have been answered, while it is still open.
          inside.push({ here: await seenHere(), committed: committed(), answered: [...answered] })
        })
        .then(() => answered.push(name))
    await Promise.all([transaction('g1'), transaction('g2'), transaction('g3')])
    // The third saw the first two's rows on its connection, uncommitted, and unanswered.
    expect(inside).toEqual([
      { here: ['g1'], committed: [], answered: [] },
      { here: ['g1', 'g2'], committed: [], answered: [] },
      { here: ['g1', 'g2', 'g3'], committed: [], answered: [] },
    ])
    expect(answered).toEqual(['g1', 'g2', 'g3'])
    expect(committed()).toEqual(['g1', 'g2', 'g3'])
  })

  it('gathers the transactions requested in one turn of the event loop, from separate callbacks', async () => {
    const seen: string[][] = []
    // Two timers due together run in the same turn, one callback after the other, as the
    // requests read from several connections in one turn do.
    const later = (name: string) =>
      new Promise<void>((resolve, reject) =>
        setTimeout(() => {
          db.transaction(async () => {
            await write(name)
            seen.push(await seenHere())
          }).then(resolve, reject)
        }, 0),
      )
    await Promise.all([later('g1'), later('g2')])
    expect(seen).toEqual([['g1'], ['g1', 'g2']])
    expect(committed()).toEqual(['g1', 'g2'])
  })

  it('commits a group before it takes the transactions of a later turn', async () => {
    const seen: string[][] = []
    await db.transaction(() => write('g1'))
    // Requested after g1 was answered: g1 is committed, and g2 is a group of its own.
    await db.transaction(async () => {
      await write('g2')
      seen.push(committed())
    })
    expect(seen).toEqual([['g1']])
    expect(committed()).toEqual(['g1', 'g2'])
  })

  it('rolls back a failing transaction alone: the others of its group are stored', async () => {
    const results = await Promise.allSettled([
      db.transaction(() => write('g1')),
      db.transaction(async () => {
        await write('g2')
        // The same name again: the unique key refuses it, and this transaction fails.
        await write('g1')
      }),
      db.transaction(() => write('g3')),
    ])
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled'])
    expect(String((results[1] as PromiseRejectedResult).reason)).toMatch(/UNIQUE constraint/)
    // g2 was written by the failing transaction before its failure: rolled back with it.
    expect(committed()).toEqual(['g1', 'g3'])
  })

  it('fails every transaction of a group that SQLite abandoned, and stores none of them', async () => {
    const results = await Promise.allSettled([
      db.transaction(() => write('g1')),
      db.transaction(async () => {
        await write('g2')
        // What SQLite does on a full disk or an I/O error: the whole transaction is gone.
        db.sqlite!.exec('ROLLBACK')
        throw new Error('the disk is full')
      }),
      db.transaction(() => write('g3')),
    ])
    expect(results.map((r) => (r.status === 'rejected' ? String(r.reason) : 'stored'))).toEqual([
      'Error: the disk is full',
      'Error: the disk is full',
      'stored',
    ])
    expect(committed()).toEqual(['g3'])
    expect(await seenHere()).toEqual(['g3'])
  })

  it('runs each transaction in the async context of its caller', async () => {
    const request = new AsyncLocalStorage<string>()
    const seen: (string | undefined)[] = []
    await Promise.all(
      ['a', 'b', 'c'].map((id) =>
        request.run(id, () =>
          db.transaction(async () => {
            await write(`g${id}`)
            seen.push(request.getStore())
          }),
        ),
      ),
    )
    expect(seen).toEqual(['a', 'b', 'c'])
  })

  it('leaves no trace of a finished transaction in what its work left running', async () => {
    const root = db.kysely
    let during: unknown
    let resume!: () => void
    const committedNow = new Promise<void>((resolve) => (resume = resolve))
    let later: Promise<unknown> | undefined
    await db.transaction(async () => {
      during = db.kysely
      // Work started inside the transaction, in its async context, that goes on after it has
      // committed.
      later = committedNow.then(() => db.kysely)
      await write('g1')
    })
    expect(during).not.toBe(root)
    // The unit of work lets its async context go in the turn after it ended (db/connect.ts,
    // a setImmediate queued before the transaction resolved): the work resumes after that.
    await new Promise((resolve) => setImmediate(resolve))
    resume()
    expect(await later).toBe(root)
    // The next transaction has its own connection again, and commits.
    await db.transaction(async () => {
      expect(db.kysely).not.toBe(root)
      await write('g2')
    })
    expect(committed()).toEqual(['g1', 'g2'])
  })

  it('joins the open transaction when one is started inside another', async () => {
    await Promise.all([
      db.transaction(async () => {
        await write('g1')
        await db.transaction(() => write('g2'))
        expect(committed()).toEqual([])
      }),
    ])
    expect(committed()).toEqual(['g1', 'g2'])
  })
})
