/**
 * Two connections to one SQLite file (two cluster workers, or a worker and the click writer):
 * a transaction that reads, then writes while the other connection has written meanwhile, must
 * wait its turn, not fail with SQLITE_BUSY (which the API answered as a 503).
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase, type Db } from '../../src/db/connect.js'
import { migrate } from '../../src/db/migrate.js'

let dir: string
let a: Db
let path: string
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'slink-locking-'))
  path = join(dir, 'two.db')
  a = openDatabase({ kind: 'sqlite', path })
  await migrate(a)
})
afterAll(async () => {
  await a.close()
  rmSync(dir, { recursive: true, force: true })
})

const setting = (db: Db, name: string, value: string) =>
  sql`INSERT INTO settings (name, value) VALUES (${name}, ${value})`.execute(db.kysely)

/**
 * Another process, as a worker would be: it first asks for the write lock without waiting and
 * prints what SQLite answered (`SQLITE_BUSY` while another connection holds it), then writes the
 * setting `other`, waiting for the lock: its value is the setting `first` as it saw it then.
 */
function otherProcess(path: string): { answer: Promise<string>; exited: Promise<number | null> } {
  const script = `
    const SQLite = require('better-sqlite3')
    const db = new SQLite(process.argv[1])
    db.pragma('busy_timeout = 0')
    try {
      db.exec('BEGIN IMMEDIATE')
      db.exec('ROLLBACK')
      console.log('free')
    } catch (error) {
      console.log(error.code)
    }
    db.pragma('busy_timeout = 10000')
    db.prepare("INSERT INTO settings (name, value) SELECT 'other', coalesce(max(value), 'none') FROM settings WHERE name = 'first'").run()
  `
  const child = spawn(process.execPath, ['-e', script, path], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const answer = new Promise<string>((resolve) => {
    let out = ''
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      if (out.includes('\n')) resolve(out.slice(0, out.indexOf('\n')))
    })
  })
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve))
  return { answer, exited }
}

describe('SQLite transactions across connections', () => {
  it('a transaction that reads before it writes holds the write lock: another writer waits its turn', async () => {
    let other: ReturnType<typeof otherProcess> | null = null
    await a.transaction(async () => {
      await sql`SELECT count(*) FROM settings`.execute(a.kysely)
      // Another process wants to write while this transaction is open: the lock is taken…
      other = otherProcess(path)
      expect(await other.answer).toBe('SQLITE_BUSY')
      // …so this transaction's write does not fail (a deferred one would: SQLITE_BUSY).
      await setting(a, 'first', '1')
    })
    expect(await other!.exited).toBe(0)
    // The other process wrote once this transaction had committed.
    const rows = await sql<{
      name: string
      value: string
    }>`SELECT name, value FROM settings WHERE name IN ('first', 'other') ORDER BY name`.execute(
      a.kysely,
    )
    expect(rows.rows).toEqual([
      { name: 'first', value: '1' },
      { name: 'other', value: '1' },
    ])
  })
})
