/**
 * The SQLite connection of a process: handed out in the order it was asked for, and read
 * around by the prepared reads of the request path, which see only what is committed.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import SQLite from 'better-sqlite3'
import { SqliteDialect, type Driver } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase, type Db } from '../../src/db/connect.js'
import { migrate } from '../../src/db/migrate.js'
import { SqliteFileDialect } from '../../src/db/sqlite-dialect.js'
import { SqlDomainStore } from '../../src/domains/store.js'

/**
 * The holder releases while two requests wait; a third asks in the same turn as the release,
 * before the waiters have run (as a request does whose code was already queued). Returns the
 * order in which the three got the connection.
 */
async function turns(driver: Driver): Promise<string[]> {
  await driver.init()
  const order: string[] = []
  const take = (name: string) =>
    driver.acquireConnection().then(async (connection) => {
      order.push(name)
      await driver.releaseConnection(connection)
    })
  const held = await driver.acquireConnection()
  const first = take('first waiter')
  const second = take('second waiter')
  const released = driver.releaseConnection(held)
  const late = take('asked after the release')
  await Promise.all([released, first, second, late])
  await driver.destroy()
  return order
}

describe('the SQLite connection is handed out in turn', () => {
  it('lets nobody ask past the requests already waiting', async () => {
    const dialect = new SqliteFileDialect({ handle: new SQLite(':memory:') })
    expect(await turns(dialect.createDriver())).toEqual([
      'first waiter',
      'second waiter',
      'asked after the release',
    ])
  })

  it('(the query builder’s own lock lets the late request go first)', async () => {
    const dialect = new SqliteDialect({ database: new SQLite(':memory:') })
    expect(await turns(dialect.createDriver())).toEqual([
      'asked after the release',
      'first waiter',
      'second waiter',
    ])
  })
})

describe('prepared reads on an SQLite file', () => {
  let dir: string
  let db: Db
  let domains: SqlDomainStore
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'slink-reads-'))
    db = openDatabase({ kind: 'sqlite', path: join(dir, 'reads.db') })
    await migrate(db)
    domains = new SqlDomainStore(db)
  })
  afterAll(async () => {
    await db.close()
    rmSync(dir, { recursive: true, force: true })
  })

  const fields = { name: 'reads.example', url: 'https://reads.example', index_page: null }

  it('see a change once committed, never while its transaction is open', async () => {
    let release!: () => void
    const gate = new Promise<void>((resolve) => (release = resolve))
    let created!: number
    let inside: unknown
    const writing = db.transaction(async () => {
      created = (await domains.create(null, { ...fields, not_found_page: null }, 1)).id
      // Inside the transaction the read is the transaction's own.
      inside = (await domains.findMany([created]))[0]?.name
      await gate
    })
    // Let the transaction begin and write.
    while (created === undefined) await new Promise((resolve) => setImmediate(resolve))
    expect(inside).toBe('reads.example')
    expect(db.reader()).not.toBeNull()
    expect(await domains.findMany([created])).toEqual([])
    release()
    await writing
    expect((await domains.findMany([created]))[0]?.name).toBe('reads.example')
  })

  it('have no read connection inside a transaction, nor for an in-memory database', async () => {
    await db.transaction(async () => {
      expect(db.reader()).toBeNull()
    })
    const memory = openDatabase({ kind: 'sqlite', path: ':memory:' })
    expect(memory.reader()).toBeNull()
    await memory.close()
  })
})
