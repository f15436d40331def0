/**
 * `slink backup`: the real command copies the database of a real `slink serve` while creates
 * and counted clicks stream in, and a restored copy serves its links.
 */
import { spawn } from 'node:child_process'
import { copyFileSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import SQLite from 'better-sqlite3'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { BIN, serve, slink, type CliResult } from '../support/cli.js'
import { API_KEY, BROWSER_UA, HOST, send } from '../support/server.js'

let dir: string
let dbPath: string
let env: Record<string, string>
const stops: (() => Promise<unknown>)[] = []

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'slink-backup-'))
  dbPath = join(dir, 'live.db')
  env = {
    DATABASE_URL: `sqlite:${dbPath}`,
    PORT: '0',
    PUBLIC_URL: `http://${HOST}`,
    INITIAL_API_KEY: API_KEY,
    API_RATE_LIMIT: '0',
    TITLE_FETCH: 'false',
  }
})
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop()
  rmSync(dir, { recursive: true, force: true })
})

async function startServing(): Promise<number> {
  const child = serve(env)
  stops.push(async () => {
    child.kill('SIGTERM')
    await child.exited
  })
  const [, port] = await child.waitFor(/listening on port (\d+)/)
  return Number(port)
}

/** The real `slink ARGS`, in a process of its own, without blocking this one. */
function slinkRunning(args: string[]): Promise<CliResult> {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'silent', ...env },
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  return new Promise((resolve) =>
    child.on('close', (status) => resolve({ status, stdout, stderr })),
  )
}

async function createLink(port: number, alias: string) {
  return send(port, '/api/v1/links', {
    method: 'POST',
    headers: {
      authorization: `Bearer ${API_KEY}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: `url=${encodeURIComponent(`https://example.com/${alias}`)}&alias=${alias}&domain_id=1`,
  })
}

/** What a backup file holds: its integrity check, its aliases, its click log and totals. */
function readBackup(path: string) {
  // Read-write: closing it removes the -wal and -shm files a WAL database is opened with.
  const copy = new SQLite(path, { fileMustExist: true })
  try {
    return {
      integrity: copy.pragma('integrity_check', { simple: true }),
      aliases: new Set(
        (copy.prepare('SELECT alias FROM links').all() as { alias: string }[]).map((r) => r.alias),
      ),
      logRows: (copy.prepare('SELECT count(*) AS n FROM clicks').get() as { n: number }).n,
      totals: (
        copy
          .prepare(
            "SELECT coalesce(sum(clicks), 0) AS n FROM click_stats WHERE dimension = 'total'",
          )
          .get() as { n: number }
      ).n,
    }
  } finally {
    copy.close()
  }
}

describe('slink backup', () => {
  it('copies a serving database during a stream of creates and counted clicks: the copy is whole and holds every link acknowledged before it began', async () => {
    const port = await startServing()
    const target = join(dir, 'nightly.db')
    const acknowledged: string[] = []
    let beforeBackup: string[] | null = null
    let backup: Promise<CliResult> | null = null
    let startBackup: () => void = () => {}
    const backupStarted = new Promise<void>((resolve) => (startBackup = resolve))
    let streaming = true
    let clicks = 0
    const stopOnFailure = (error: unknown) => {
      streaming = false
      throw error
    }

    // Creates, one after another; after the 40th acknowledged one, the backup starts.
    const creates = (async () => {
      for (let i = 0; streaming; i++) {
        const alias = `bk${i}`
        const reply = await createLink(port, alias)
        expect(reply.status).toBe(201)
        acknowledged.push(alias)
        if (acknowledged.length === 40) {
          beforeBackup = [...acknowledged]
          backup = slinkRunning(['backup', '--to', target])
          startBackup()
          void backup.then(() => (streaming = false))
        }
      }
    })().catch(stopOnFailure)
    // Counted clicks on the links made so far, from the start until the backup has exited.
    const visits = (async () => {
      for (let i = 0; streaming; i++) {
        if (acknowledged.length === 0) {
          await new Promise((resolve) => setImmediate(resolve))
          continue
        }
        const alias = acknowledged[i % acknowledged.length]!
        const reply = await send(port, `/${alias}`, { headers: { 'user-agent': BROWSER_UA } })
        expect(reply.status).toBe(302)
        clicks++
      }
    })().catch(stopOnFailure)
    await Promise.race([backupStarted, creates, visits])
    const result = await backup!
    await Promise.all([creates, visits])

    expect(result.stderr).toBe('')
    expect(result.stdout).toMatch(
      new RegExp(
        `^backed up ${dbPath} to ${target}: \\d+ pages \\(\\d+\\.\\d MB\\) in \\d+\\.\\d s\\n$`,
      ),
    )
    expect(result.status).toBe(0)
    // The service kept writing while the backup ran.
    expect(acknowledged.length).toBeGreaterThan(40)
    expect(clicks).toBeGreaterThan(0)

    expect(statSync(target).mode & 0o777).toBe(0o600)
    expect(readdirSync(dir).filter((name) => name.includes('nightly'))).toEqual(['nightly.db'])
    const copy = readBackup(target)
    expect(copy.integrity).toBe('ok')
    for (const alias of beforeBackup!) expect(copy.aliases.has(alias), alias).toBe(true)
    // One snapshot: every logged click is in the daily totals written in the same transaction.
    expect(copy.totals).toBe(copy.logRows)
  }, 60_000)

  it('restores: stop the service, replace the file, remove the old -wal and -shm, start; the links are served', async () => {
    let port = await startServing()
    const target = join(dir, 'backup.db')
    // Yesterday's backup, then today's under the same name: it replaces yesterday's.
    expect((await createLink(port, 'kept1')).status).toBe(201)
    expect((await slinkRunning(['backup', '--to', target])).status).toBe(0)
    expect(readBackup(target).aliases).toEqual(new Set(['kept1']))
    expect((await createLink(port, 'kept2')).status).toBe(201)
    expect((await slinkRunning(['backup', '--to', target])).status).toBe(0)
    expect(readdirSync(dir).filter((name) => name.includes('backup'))).toEqual(['backup.db'])
    expect((await createLink(port, 'after')).status).toBe(201)
    await stops.pop()!()

    copyFileSync(target, dbPath)
    rmSync(`${dbPath}-wal`, { force: true })
    rmSync(`${dbPath}-shm`, { force: true })
    port = await startServing()
    for (const alias of ['kept1', 'kept2']) {
      const reply = await send(port, `/${alias}`)
      expect(reply.status).toBe(302)
      expect(reply.headers.location).toBe(`https://example.com/${alias}`)
    }
    expect((await send(port, '/after')).status).toBe(404)
  }, 60_000)

  it('refuses, in one line and without writing anything, what it cannot do', async () => {
    const sqliteEnv = { DATABASE_URL: `sqlite:${dbPath}` }
    expect(await slink(['backup'], sqliteEnv)).toEqual({
      status: 2,
      stdout: '',
      stderr: 'slink: --to FILE is required\n',
    })
    expect(await slink(['backup', '--to', join(dir, 'b.db')], sqliteEnv)).toEqual({
      status: 1,
      stdout: '',
      stderr: `slink: no SQLite database at ${dbPath}\n`,
    })
    expect(
      await slink(['backup', '--to', join(dir, 'b.db')], {
        DATABASE_URL: 'postgres://slink@127.0.0.1:5432/slink',
      }),
    ).toEqual({
      status: 1,
      stdout: '',
      stderr:
        'slink: backup copies SQLite databases; back up PostgreSQL with pg_dump (see docs/deploy.md, "Backups")\n',
    })
    writeFileSync(dbPath, '')
    expect(await slink(['backup', '--to', dbPath], sqliteEnv)).toEqual({
      status: 1,
      stdout: '',
      stderr: 'slink: --to names the database itself: give another file\n',
    })
    expect(await slink(['backup', '--to', join(dir, 'no', 'b.db')], sqliteEnv)).toEqual({
      status: 1,
      stdout: '',
      stderr: `slink: no directory ${join(dir, 'no')}\n`,
    })
    expect(readdirSync(dir)).toEqual(['live.db'])
  })
})
