/**
 * Waiting for SQLite's write lock (src/db/write-lock.ts): every write of the process's
 * connection waits in SQLite's own busy handler while another connection holds the lock, and
 * then commits; no write is lost. The other connection is another process (a cluster worker,
 * the CLI), which takes the lock, says so, and lets it go on its own a little later.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { sql } from 'kysely'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openDatabase, type Db } from '../../src/db/connect.js'
import { migrate } from '../../src/db/migrate.js'
import { SqlRotationCounter } from '../../src/cluster/rotation.js'
import { SqlRedirectStore } from '../../src/redirects/store.js'
import { SqlUserStore } from '../../src/users/store.js'

const T = 1_700_000_000_000

let dir: string
let path: string
let db: Db

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'slink-lock-'))
  path = join(dir, 'lock.db')
  db = openDatabase({ kind: 'sqlite', path })
  await migrate(db)
})
afterEach(async () => {
  await db.close()
  rmSync(dir, { recursive: true, force: true })
})

const settings = async () =>
  (
    await sql<{
      name: string
    }>`SELECT name FROM settings WHERE name LIKE 'w%' ORDER BY name`.execute(db.kysely)
  ).rows.map((r) => r.name)

/**
 * Another process takes the write lock, writes the setting `name` and says `locked`; it commits
 * `holdMs` later, or never (until killed) when `holdMs` is null. Resolves once it holds the lock.
 */
async function lockHolder(name: string, holdMs: number | null) {
  const script = `
    const SQLite = require('better-sqlite3')
    const db = new SQLite(process.argv[1])
    db.exec('BEGIN IMMEDIATE')
    db.prepare('INSERT INTO settings (name, value) VALUES (?, ?)').run(process.argv[2], '1')
    process.stdout.write('locked\\n')
    const hold = Number(process.argv[3])
    if (hold >= 0) setTimeout(() => db.exec('COMMIT'), hold)
    else setInterval(() => {}, 1000)
  `
  const child = spawn(process.execPath, ['-e', script, path, name, String(holdMs ?? -1)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve))
  const lines = createInterface({ input: child.stdout })
  await new Promise<void>((resolve, reject) => {
    lines.once('line', () => resolve())
    child.once('exit', () => reject(new Error('the lock holder exited before it held the lock')))
  })
  return { exited, kill: () => child.kill() }
}

/** Runs `write` while another process holds the write lock for a while: it waits, then commits. */
async function whileLocked<R>(name: string, write: () => Promise<R> | R): Promise<R> {
  const holder = await lockHolder(name, 150)
  const result = await write()
  expect(await holder.exited).toBe(0)
  return result
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

describe('waiting for the write lock in SQLite’s busy handler', () => {
  it('commits a grouped transaction, a write outside one and a transaction of the query builder once the other lets go', async () => {
    await whileLocked('w0', () =>
      db.transaction(() =>
        sql`INSERT INTO settings (name, value) VALUES ('w1', '1')`.execute(db.kysely),
      ),
    )
    await whileLocked('w2', () =>
      sql`INSERT INTO settings (name, value) VALUES ('w3', '1')`.execute(db.kysely),
    )
    expect(db.sqlite!.inTransaction).toBe(false)
    await whileLocked('w4', () =>
      db.kysely.transaction().execute(async (trx) => {
        await sql`INSERT INTO settings (name, value) VALUES ('w5', '1')`.execute(trx)
        await sql`INSERT INTO settings (name, value) VALUES ('w6', '1')`.execute(trx)
      }),
    )
    // Both sides' writes are stored.
    expect(await settings()).toEqual(['w0', 'w1', 'w2', 'w3', 'w4', 'w5', 'w6'])
    // The busy timeout was set once, when the connection was opened, and is as it was.
    expect(db.sqlite!.pragma('busy_timeout', { simple: true })).toBe(5000)
  })

  it('commits a single write of a store (an API key’s use) the same way', async () => {
    await sql`INSERT INTO users (name, email, timezone, created_at, updated_at)
      VALUES ('A', 'a@example.com', 'UTC', ${T}, ${T})`.execute(db.kysely)
    const users = new SqlUserStore(db)
    const key = await users.addKey(1, { prefix: 'p', hash: 'h', name: 'k' }, T)
    await whileLocked('w7', () => users.markKeyUsed(key.id, T + 1))
    const used = await sql<{ at: number }>`SELECT last_used_at AS at FROM api_keys`.execute(
      db.kysely,
    )
    expect(used.rows).toEqual([{ at: T + 1 }])
  })

  it('takes a counted click of a link limited in clicks, and a rotation, synchronously and after the other lets go', async () => {
    await oneLink('twice', 2)
    const redirects = new SqlRedirectStore(db)
    expect(redirects.takeLimitedClick(1)).toBe('taken')
    expect(await whileLocked('w8', () => redirects.takeLimitedClick(1))).toBe('last')
    expect(redirects.takeLimitedClick(1)).toBe('refused')
    const rotation = new SqlRotationCounter(db)
    expect(rotation.next(1, 3)).toBe(0)
    expect(await whileLocked('w9', () => rotation.next(1, 3))).toBe(1)
    const link = await sql<{
      clicks: number
      last_rotation: number
    }>`SELECT clicks, last_rotation FROM links`.execute(db.kysely)
    expect(link.rows).toEqual([{ clicks: 2, last_rotation: 1 }])
  })

  it('fails with SQLITE_BUSY once the lock has stayed with the other past the busy timeout, and rolls nothing in', async () => {
    const holder = await lockHolder('wa', null)
    try {
      db.sqlite!.pragma('busy_timeout = 100')
      await expect(
        db.transaction(() =>
          sql`INSERT INTO settings (name, value) VALUES ('wb', '1')`.execute(db.kysely),
        ),
      ).rejects.toMatchObject({ code: 'SQLITE_BUSY' })
      await expect(
        sql`INSERT INTO settings (name, value) VALUES ('wc', '1')`.execute(db.kysely),
      ).rejects.toMatchObject({ code: 'SQLITE_BUSY' })
      expect(db.sqlite!.inTransaction).toBe(false)
      // Reads do not wait for the lock (WAL): nothing of the other's is visible yet.
      expect(await settings()).toEqual([])
    } finally {
      holder.kill()
      await holder.exited
    }
    await sql`INSERT INTO settings (name, value) VALUES ('wd', '1')`.execute(db.kysely)
    expect(await settings()).toEqual(['wd'])
  })
})
