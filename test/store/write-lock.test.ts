/**
 * Waiting for SQLite's write lock (src/db/write-lock.ts): while another connection holds it, a
 * commit group and the search indexer wait on timers, and the process's event loop goes on
 * (SQLite's busy handler would sleep inside the call). Another connection of the same file
 * stands for a second cluster worker; two more, sharing their turns, for the request thread and
 * the click-writing thread of one process.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import SQLite from 'better-sqlite3'
import { sql } from 'kysely'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openDatabase, type Db } from '../../src/db/connect.js'
import { migrate } from '../../src/db/migrate.js'
import {
  beginImmediate,
  shareWriteLock,
  writeTransaction,
  WriteLockTurns,
} from '../../src/db/write-lock.js'
import { SqlImportStore } from '../../src/imports/store.js'
import { SqlRotationCounter } from '../../src/cluster/rotation.js'
import { SearchIndexer } from '../../src/links/search-indexer.js'
import { SqlLinkStore } from '../../src/links/store.js'
import { SqlRedirectStore } from '../../src/redirects/store.js'
import { SqlSessionStore } from '../../src/sessions/sql-store.js'
import { SqlUserStore } from '../../src/users/store.js'

const T = 1_700_000_000_000

let dir: string
let path: string
let db: Db
let other: SQLite.Database

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'slink-lock-'))
  path = join(dir, 'lock.db')
  db = openDatabase({ kind: 'sqlite', path })
  await migrate(db)
  other = new SQLite(path)
  other.pragma('busy_timeout = 5000')
})
afterEach(async () => {
  other.close()
  await db.close()
  rmSync(dir, { recursive: true, force: true })
})

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const settings = () =>
  (
    other.prepare("SELECT name FROM settings WHERE name LIKE 'w%' ORDER BY name").all() as {
      name: string
    }[]
  ).map((r) => r.name)

/** Counts the event loop's turns (timer callbacks) until stopped. */
function turns(): { stop(): number } {
  let count = 0
  const timer = setInterval(() => count++, 1)
  return {
    stop() {
      clearInterval(timer)
      return count
    },
  }
}

/**
 * Starts `work` while another connection holds the write lock, checks after 60 ms that it is
 * still waiting and that the event loop turned meanwhile (in SQLite's busy handler the thread
 * would sleep and no timer would run until the lock came free), then lets the lock go and
 * returns what the work resolves with.
 */
async function whileLocked<T>(work: () => Promise<T>): Promise<T> {
  other.exec('BEGIN IMMEDIATE')
  const ticking = turns()
  let settled = false
  const done = work().finally(() => (settled = true))
  await sleep(60)
  expect(settled).toBe(false)
  expect(ticking.stop()).toBeGreaterThan(2)
  other.exec('COMMIT')
  return done
}

/** A user, the default domain and one link of the user's (link 1). */
async function oneLink(alias: string, expirationClicks: number | null = null): Promise<void> {
  await sql`INSERT INTO users (name, email, timezone, created_at, updated_at)
    VALUES ('A', 'a@example.com', 'UTC', ${T}, ${T})`.execute(db.kysely)
  await sql`INSERT INTO domains (user_id, name, url, created_at, updated_at)
    VALUES (NULL, 'short.test', 'https://short.test', ${T}, ${T})`.execute(db.kysely)
  await sql`INSERT INTO links (user_id, domain_id, alias, url, title_locked, target_type,
      disabled, privacy, clicks, expiration_clicks, created_at, updated_at)
    VALUES (1, 1, ${alias}, 'https://a.example/', 0, 0, 0, 0, 0, ${expirationClicks}, ${T}, ${T})`.execute(
    db.kysely,
  )
}

describe('waiting for the write lock', () => {
  it('runs a transaction once another connection lets the lock go, serving timers meanwhile', async () => {
    await whileLocked(() =>
      db.transaction(() =>
        sql`INSERT INTO settings (name, value) VALUES ('w1', '1')`.execute(db.kysely),
      ),
    )
    expect(settings()).toEqual(['w1'])
  })

  it('lets a write outside a transaction wait the same way, in a transaction of its own', async () => {
    await whileLocked(() =>
      sql`INSERT INTO settings (name, value) VALUES ('w2', '1')`.execute(db.kysely),
    )
    expect(settings()).toEqual(['w2'])
    expect(db.sqlite!.inTransaction).toBe(false)
  })

  it('lets a transaction of the query builder itself wait the same way', async () => {
    await whileLocked(() =>
      db.kysely.transaction().execute(async (trx) => {
        await sql`INSERT INTO settings (name, value) VALUES ('w3', '1')`.execute(trx)
        await sql`INSERT INTO settings (name, value) VALUES ('w4', '1')`.execute(trx)
      }),
    )
    expect(settings()).toEqual(['w3', 'w4'])
  })

  it('rolls a failed write outside a transaction back and lets the lock go', async () => {
    await sql`INSERT INTO settings (name, value) VALUES ('w5', '1')`.execute(db.kysely)
    await expect(
      whileLocked(() =>
        sql`INSERT INTO settings (name, value) VALUES ('w5', '2')`.execute(db.kysely),
      ),
    ).rejects.toMatchObject({ code: 'SQLITE_CONSTRAINT_PRIMARYKEY' })
    expect(db.sqlite!.inTransaction).toBe(false)
    // Another connection can write at once: the lock was let go.
    other.pragma('busy_timeout = 0')
    other.exec("INSERT INTO settings (name, value) VALUES ('w6', '1')")
    expect(other.prepare("SELECT value FROM settings WHERE name = 'w5'").pluck().get()).toBe('1')
    expect(settings()).toEqual(['w5', 'w6'])
  })

  it('does not hold a read of the writing connection behind another connection’s lock', async () => {
    other.exec('BEGIN IMMEDIATE')
    other.exec("INSERT INTO settings (name, value) VALUES ('w7', '1')")
    const read = await sql<{
      n: number
    }>`SELECT count(*) AS n FROM settings WHERE name = 'w7'`.execute(db.kysely)
    expect(read.rows).toEqual([{ n: 0 }])
    other.exec('COMMIT')
  })

  it('fails with SQLITE_BUSY once the lock has stayed with another connection past the wait', async () => {
    other.exec('BEGIN IMMEDIATE')
    const handle = db.sqlite!
    const ticking = turns()
    const started = Date.now()
    await expect(beginImmediate(handle, 80)).rejects.toMatchObject({ code: 'SQLITE_BUSY' })
    expect(Date.now() - started).toBeGreaterThanOrEqual(80)
    expect(ticking.stop()).toBeGreaterThan(2)
    expect(handle.inTransaction).toBe(false)
    // The connection's busy timeout is back for the statements that run outside a group.
    expect(handle.pragma('busy_timeout', { simple: true })).toBe(5000)
    other.exec('COMMIT')
    await beginImmediate(handle, 80)
    expect(handle.inTransaction).toBe(true)
    handle.exec('ROLLBACK')
  })

  it('lets the single writes outside transactions wait the same way (sessions, key use, imports)', async () => {
    await sql`INSERT INTO users (name, email, timezone, created_at, updated_at)
      VALUES ('A', 'a@example.com', 'UTC', ${T}, ${T})`.execute(db.kysely)
    const users = new SqlUserStore(db)
    const key = await users.addKey(1, { prefix: 'p', hash: 'h', name: 'k' }, T)
    await whileLocked(() => users.markKeyUsed(key.id, T + 1))
    expect(other.prepare('SELECT last_used_at FROM api_keys').pluck().get()).toBe(T + 1)

    const sessions = new SqlSessionStore(db)
    const session = { idHash: 's1', userId: 1, csrfSecret: 'c', createdAt: T, lastSeenAt: T }
    await whileLocked(() => sessions.create(session))
    await whileLocked(() => sessions.touch('s1', T + 2))
    expect(other.prepare('SELECT last_seen_at FROM sessions').pluck().all()).toEqual([T + 2])
    await whileLocked(() => sessions.sweep(T + 3, T))
    expect(
      await whileLocked(() => users.addKey(1, { prefix: 'q', hash: 'i', name: 'k2' }, T)),
    ).toMatchObject({ name: 'k2' })
    expect(other.prepare('SELECT count(*) FROM sessions').pluck().get()).toBe(0)

    const imports = new SqlImportStore(db, new SqlLinkStore(db))
    const run = await imports.create({
      userId: 1,
      source: 'csv',
      origin: 'upload',
      dryRun: false,
      onConflict: 'skip',
      now: T,
    })
    await whileLocked(() => imports.touch(run.id, T + 4))
    expect(await whileLocked(() => imports.failAbandoned(T + 5, T + 6, 'gone'))).toBe(1)
    expect(other.prepare('SELECT status, updated_at FROM imports').get()).toEqual({
      status: 'failed',
      updated_at: T + 6,
    })
  })

  it('lets a counted click of a link limited in clicks, and a rotation, wait the same way', async () => {
    await oneLink('twice', 2)
    const redirects = new SqlRedirectStore(db)
    // Free lock: taken synchronously, as on the redirect path.
    expect(redirects.takeLimitedClick(1)).toBe('taken')
    expect(await whileLocked(async () => redirects.takeLimitedClick(1))).toBe('last')
    expect(await whileLocked(async () => redirects.takeLimitedClick(1))).toBe('refused')
    expect(other.prepare('SELECT clicks FROM links').pluck().get()).toBe(2)

    const rotation = new SqlRotationCounter(db)
    expect(rotation.next(1, 3)).toBe(0)
    expect(await whileLocked(async () => rotation.next(1, 3))).toBe(1)
    expect(other.prepare('SELECT last_rotation FROM links').pluck().get()).toBe(1)
  })

  it('lets the search indexer wait for the lock the same way', async () => {
    await oneLink('waits')
    expect(await whileLocked(() => new SearchIndexer(db).drain())).toBe(1)
    expect(
      other.prepare('SELECT suffix FROM links_search_suffixes ORDER BY suffix').pluck().all(),
    ).toEqual(['aits', 'its', 'waits'])
  })
})

describe("the request thread's turns before a background thread's (WriteLockTurns)", () => {
  let requests: SQLite.Database
  let background: SQLite.Database
  let turns: WriteLockTurns

  beforeEach(() => {
    requests = new SQLite(path)
    background = new SQLite(path)
    turns = new WriteLockTurns()
    shareWriteLock(requests, turns, 'requests')
    // The background thread's view of the same shared memory.
    shareWriteLock(background, new WriteLockTurns(turns.buffer), 'background')
  })
  afterEach(() => {
    requests.close()
    background.close()
  })

  it("lets the request thread's waiting write take the lock before the background's", async () => {
    other.exec('BEGIN IMMEDIATE')
    const order: string[] = []
    const first = beginImmediate(requests).then(() => {
      order.push('requests')
      requests.exec('COMMIT')
    })
    await sleep(10)
    other.exec('COMMIT')
    // The lock is free now: without the turns, the background would take it at once.
    const second = writeTransaction(background, () => order.push('background'))
    await Promise.all([first, second])
    expect(order).toEqual(['requests', 'background'])
  })

  it('takes the lock at once when the request thread does not wait (any more)', async () => {
    turns.waiting(+1)
    turns.waiting(-1)
    const order: string[] = []
    // A yield to the request thread (50 ms) would let this timer go first.
    const timer = setTimeout(() => order.push('timer'), 20)
    await writeTransaction(background, () => order.push('background'))
    clearTimeout(timer)
    expect(order).toEqual(['background'])
  })

  it('wakes a waiting request thread when the background ends a transaction, not at its timer', async () => {
    const theirs = new WriteLockTurns(turns.buffer)
    const seen = turns.releases()
    const woken = turns.releasedSince(seen, 60_000).then(() => 'woken')
    await sleep(5)
    theirs.released()
    expect(await Promise.race([woken, sleep(2000).then(() => 'timer')])).toBe('woken')
    // A release between the look and the wait is not missed.
    const stale = turns.releases()
    theirs.released()
    const late = turns.releasedSince(stale, 60_000).then(() => 'woken')
    expect(await Promise.race([late, sleep(2000).then(() => 'timer')])).toBe('woken')
  })

  it('counts the end of a background commit group, as of a transaction of its own, as a release', async () => {
    const backgroundDb = openDatabase({ kind: 'sqlite', path })
    shareWriteLock(backgroundDb.sqlite!, new WriteLockTurns(turns.buffer), 'background')
    try {
      const before = turns.releases()
      await backgroundDb.transaction(async () => {
        await sql`INSERT INTO settings (name, value) VALUES ('wgroup', '1')`.execute(
          backgroundDb.kysely,
        )
      })
      expect(turns.releases()).toBe(before + 1)
      await writeTransaction(background, () =>
        background.exec("DELETE FROM settings WHERE name = 'wgroup'"),
      )
      expect(turns.releases()).toBe(before + 2)
      expect(settings()).toEqual([])
    } finally {
      await backgroundDb.close()
    }
  })

  it('lets the background go after a while when the request thread waits on', async () => {
    turns.waiting(+1)
    const started = Date.now()
    await new WriteLockTurns(turns.buffer).afterRequests()
    // YIELD_MAX_MS is 50.
    expect(Date.now() - started).toBeGreaterThanOrEqual(45)
    turns.waiting(-1)
  })
})
