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

/** Another process writing one setting to the file, waiting for the lock as a worker would. */
function otherProcess(path: string): { exited: Promise<number | null>; done: () => boolean } {
  const script = `
    const SQLite = require('better-sqlite3')
    const db = new SQLite(process.argv[1])
    db.pragma('busy_timeout = 5000')
    db.prepare("INSERT INTO settings (name, value) VALUES ('other', '1')").run()
  `
  const child = spawn(process.execPath, ['-e', script, path], { stdio: 'ignore' })
  let finished = false
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => {
      finished = true
      resolve(code)
    }),
  )
  return { exited, done: () => finished }
}

describe('SQLite transactions across connections', () => {
  it('a transaction that reads before it writes waits for the other writer instead of failing', async () => {
    let other: ReturnType<typeof otherProcess> | null = null
    await a.transaction(async () => {
      await sql`SELECT count(*) FROM settings`.execute(a.kysely)
      // Another process writes while this transaction is open: it has to wait…
      other = otherProcess(path)
      await new Promise((resolve) => setTimeout(resolve, 500))
      expect(other.done()).toBe(false)
      // …and this transaction's write does not fail (a deferred one would: SQLITE_BUSY).
      await setting(a, 'first', '1')
    })
    expect(await other!.exited).toBe(0)
    const names = await sql<{
      name: string
    }>`SELECT name FROM settings WHERE name IN ('first', 'other') ORDER BY name`.execute(a.kysely)
    expect(names.rows.map((r) => r.name)).toEqual(['first', 'other'])
  })
})
