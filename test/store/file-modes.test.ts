/**
 * The SQLite database holds every secret the service keeps: its file, -wal and -shm are made
 * readable by the service's user only (0600), in a folder made 0700, whatever the umask lets
 * through; a looser existing file is made 0600, and the notice says so.
 */
import { chmodSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openDatabase } from '../../src/db/connect.js'
import { migrate } from '../../src/db/migrate.js'

const modeOf = (path: string) => statSync(path).mode & 0o777

let dir: string
let umask: number
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'slink-modes-'))
  // What most systems run with: files 0644 and folders 0755 unless asked otherwise.
  umask = process.umask(0o022)
})
afterEach(() => {
  process.umask(umask)
  rmSync(dir, { recursive: true, force: true })
})

describe('SQLite file modes', () => {
  it('creates the folder 0700 and the database, its -wal and -shm 0600', async () => {
    const path = join(dir, 'data', 'nested', 'slink.db')
    const notices: string[] = []
    const db = openDatabase({ kind: 'sqlite', path }, (line) => notices.push(line))
    try {
      await migrate(db)
      expect(modeOf(join(dir, 'data'))).toBe(0o700)
      expect(modeOf(join(dir, 'data', 'nested'))).toBe(0o700)
      for (const file of [path, `${path}-wal`, `${path}-shm`])
        expect(modeOf(file), file).toBe(0o600)
    } finally {
      await db.close()
    }
    expect(notices).toEqual([])
  })

  it('makes an existing database, -wal and -shm that others may read 0600, and says so', async () => {
    const path = join(dir, 'slink.db')
    const first = openDatabase({ kind: 'sqlite', path }, () => {})
    await migrate(first)
    // A second connection keeps the -wal and -shm files in place when the first one closes.
    const keeper = openDatabase({ kind: 'sqlite', path }, () => {})
    await first.close()
    chmodSync(path, 0o644)
    chmodSync(`${path}-wal`, 0o640)
    chmodSync(`${path}-shm`, 0o666)
    const notices: string[] = []
    const db = openDatabase({ kind: 'sqlite', path }, (line) => notices.push(line))
    try {
      for (const file of [path, `${path}-wal`, `${path}-shm`])
        expect(modeOf(file), file).toBe(0o600)
      expect(notices).toEqual([
        `${path} could be read by other users (mode 644); it is now 600`,
        `${path}-wal could be read by other users (mode 640); it is now 600`,
        `${path}-shm could be read by other users (mode 666); it is now 600`,
      ])
      expect(await db.kysely.selectFrom('users').select('id').execute()).toEqual([])
    } finally {
      await db.close()
      await keeper.close()
    }
  })

  it('leaves an owner-only file as it is, without a notice', async () => {
    const path = join(dir, 'slink.db')
    writeFileSync(path, '')
    chmodSync(path, 0o600)
    const notices: string[] = []
    const db = openDatabase({ kind: 'sqlite', path }, (line) => notices.push(line))
    await migrate(db)
    await db.close()
    expect(modeOf(path)).toBe(0o600)
    expect(notices).toEqual([])
  })
})
