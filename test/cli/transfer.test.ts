/**
 * `slink export` and `slink import`, in-process except for a real standard input, a real pipe
 * and the real service: the dump's shape, files, usage errors, and a full round trip SQLite →
 * dump file → PostgreSQL → pipe → SQLite in which every row of every table is compared on all
 * three, the service then runs on the copy, and new rows get fresh ids. Refusals of bad dumps
 * and targets are in transfer-refusals.test.ts.
 */
import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { get } from 'node:http'
import { join } from 'node:path'
import { gunzipSync } from 'node:zlib'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { migrateTo, migrationNames } from '../../src/db/migrate.js'
import { liveTables } from '../../src/transfer/catalog.js'
import { TABLE_ORDER } from '../../src/transfer/tables.js'
import { KEY_A } from '../support/app.js'
import { serve, slink, slinkPipe, slinkProcess } from '../support/cli.js'
import { emptyPostgres, postgresCheck } from '../support/databases.js'
import {
  contents,
  EXPORTED,
  IMPORTED,
  rowCount,
  signed,
  transferSource,
  withDatabase,
  type TransferSource,
} from '../support/transfer-fixture.js'

const postgres = await postgresCheck()

let src: TransferSource
let dir: string
let dump: string
const dumpLines = () => src.lines()
const target = (name = 'target.db') => src.target(name)

function httpGet(
  port: number,
  path: string,
  host: string,
): Promise<{ status: number; location: string }> {
  return new Promise((resolve, reject) => {
    get({ host: '127.0.0.1', port, path, headers: { host } }, (res) => {
      res.resume()
      resolve({ status: res.statusCode ?? 0, location: String(res.headers.location ?? '') })
    }).on('error', reject)
  })
}

beforeAll(async () => {
  src = await transferSource()
  dir = src.dir
  dump = src.dump
})
afterAll(() => src?.close())

describe('slink export', () => {
  it('writes a header, every listed table in order with its rows, and a checksummed end line', async () => {
    const lines = dumpLines()
    const header = JSON.parse(lines[0]!) as {
      format: string
      version: number
      source: string
      migrations: string[]
      tables: { name: string; rows: number; last_id: number | null }[]
    }
    expect(header).toMatchObject({ format: 'slink-dump', version: 1, source: 'sqlite' })
    expect(header.migrations).toEqual(migrationNames())
    expect(header.tables.map((t) => t.name)).toEqual(TABLE_ORDER)
    for (const table of header.tables) expect(table.rows, table.name).toBeGreaterThan(0)
    expect(header.tables.find((t) => t.name === 'links')?.last_id).toBe(src.deletedLinkId)
    expect(lines.filter((l) => l.startsWith('{"table":')).map((l) => JSON.parse(l).table)).toEqual(
      TABLE_ORDER,
    )
    const body = lines
      .slice(0, -1)
      .map((l) => `${l}\n`)
      .join('')
    expect(JSON.parse(lines[lines.length - 1]!)).toEqual({
      end: true,
      rows: header.tables.reduce((n, t) => n + t.rows, 0),
      sha256: createHash('sha256').update(body).digest('hex'),
    })
  })

  it('writes a file only when complete, readable by its owner only, gzip-compressed for .gz', async () => {
    const plain = join(dir, 'out', 'dump.jsonl')
    expect(await slink(['export', '--to', plain], { DATABASE_URL: src.url })).toEqual({
      status: 1,
      stdout: '',
      stderr: `slink: cannot write ${plain}: no such file or directory\n`,
    })
    const gz = join(dir, 'dump.jsonl.gz')
    // An existing file others may read is replaced by one they may not.
    writeFileSync(gz, 'old', { mode: 0o644 })
    expect(statSync(gz).mode & 0o777).toBe(0o644)
    const result = await slink(['export', '--to', gz], { DATABASE_URL: src.url })
    expect(result.stdout).toBe('')
    expect(result.stderr).toMatch(EXPORTED)
    expect(statSync(gz).mode & 0o777).toBe(0o600)
    expect(readdirSync(dir).filter((f) => f.includes('partial'))).toEqual([])
    const lines = gunzipSync(readFileSync(gz)).toString().split('\n')
    expect(lines.slice(1, -2)).toEqual(dumpLines().slice(1, -1))

    const into = target('from-gz.db')
    expect((await slink(['import', '--from', gz], { DATABASE_URL: into })).status).toBe(0)
    // A gzip-compressed dump on the real process's standard input.
    const piped = slinkProcess(
      ['import'],
      { DATABASE_URL: target('from-gz-stdin.db') },
      { input: readFileSync(gz) },
    )
    expect(piped.stderr).toMatch(IMPORTED)
  })
})

describe('slink export and slink import', () => {
  it.each([
    [['export', '--bogus'], 'unknown option --bogus'],
    [['export', '--to'], '--to needs a value'],
    [['export', '--progress=yes'], '--progress takes no value'],
    [
      ['export', '--from-database', 'mysql://x'],
      '--from-database must start with sqlite: or postgres://, got "mysql://x"',
    ],
    [['import', '--to-database', 'sqlite:'], '--to-database needs a file path after "sqlite:"'],
    [['import', 'extra'], 'unexpected argument "extra"'],
  ])('refuses %j as a usage error (exit 2)', async (args, message) => {
    expect(await slink(args, { DATABASE_URL: target() }, { input: '' })).toEqual({
      status: 2,
      stdout: '',
      stderr: `slink: ${message}\n`,
    })
    expect(existsSync(join(dir, 'target.db'))).toBe(false)
  })
})

describe('slink export and slink import on a terminal', () => {
  it('refuse a terminal as the dump’s output or input, as a usage error (exit 2)', async () => {
    expect(await slink(['export'], { DATABASE_URL: src.url }, { tty: { stdout: true } })).toEqual({
      status: 2,
      stdout: '',
      stderr: 'slink: refusing to write a dump to a terminal: give --to FILE or redirect it\n',
    })
    expect(await slink(['import'], { DATABASE_URL: target() }, { tty: { stdin: true } })).toEqual({
      status: 2,
      stdout: '',
      stderr: 'slink: no dump on standard input: give --from FILE or pipe a dump in\n',
    })
    expect(existsSync(join(dir, 'target.db'))).toBe(false)
  })

  it('draw a finished bar per table, then the summary; --no-progress leaves the summary', async () => {
    /** The bars as last drawn (each redraw starts with CR and erase-line), one per line. */
    const finalBars = (stderr: string) =>
      stderr
        .split('\n')
        .slice(0, -2)
        .map((line) => line.split('\r\x1b[2K').at(-1)!)
    const file = join(dir, 'on-terminal.jsonl')
    const exported = await slink(
      ['export', '--to', file],
      { DATABASE_URL: src.url },
      { tty: { stderr: true } },
    )
    expect(exported).toMatchObject({ status: 0, stdout: '' })
    expect(exported.stderr.split('\n').at(-2)).toMatch(
      /^exported \d+ rows of \d+ tables in \d+\.\d s$/,
    )
    const bars = finalBars(exported.stderr)
    expect(bars.map((bar) => bar.split('[')[0]!.trim())).toEqual(TABLE_ORDER)
    for (const bar of bars) expect(bar).toMatch(/^\S+ +\[█+\] 100% +([\d,]+)\/\1( |$)/)

    const imported = await slink(
      ['import', '--from', file],
      { DATABASE_URL: target('from-terminal.db') },
      { tty: { stderr: true } },
    )
    expect(imported).toMatchObject({ status: 0, stdout: '' })
    expect(imported.stderr.split('\n').at(-2)).toMatch(
      /^imported \d+ rows into \d+ tables in \d+\.\d s$/,
    )
    expect(finalBars(imported.stderr).map((bar) => bar.split('[')[0]!.trim())).toEqual(TABLE_ORDER)

    const quiet = await slink(
      ['export', '--to', join(dir, 'quiet.jsonl'), '--no-progress'],
      { DATABASE_URL: src.url },
      { tty: { stderr: true } },
    )
    expect(quiet).toMatchObject({ status: 0, stdout: '' })
    expect(quiet.stderr).toMatch(EXPORTED)
  })
})

describe('slink export refuses', () => {
  it('a missing SQLite file, without creating it', async () => {
    const missing = join(dir, 'missing.db')
    expect(await slink(['export'], { DATABASE_URL: `sqlite:${missing}` })).toEqual({
      status: 1,
      stdout: '',
      stderr: `slink: no SQLite database at ${missing}\n`,
    })
    expect(existsSync(missing)).toBe(false)
  })

  it('a database whose schema is behind, or that holds a table nobody listed', async () => {
    const old = target('old.db')
    await withDatabase(old, (db) => migrateTo(db, migrationNames()[0]!))
    const behind = await slink(['export'], { DATABASE_URL: old })
    expect(behind.status).toBe(1)
    expect(behind.stderr).toBe(
      `slink: the source database's schema is not up to date (${migrationNames().slice(1).join(', ')} not applied): run slink migrate first\n`,
    )
    const extra = target('extra.db')
    expect((await slink(['migrate'], { DATABASE_URL: extra })).status).toBe(0)
    await withDatabase(extra, (db) => sql`create table notes (body text)`.execute(db.kysely))
    expect(await slink(['export'], { DATABASE_URL: extra })).toEqual({
      status: 1,
      stdout: '',
      stderr:
        "slink: table notes is not in the export's table list (src/transfer/tables.ts): it would be left behind\n",
    })
  })
})

describe.skipIf(!postgres.ok)('SQLite → PostgreSQL → SQLite', () => {
  it('keeps every row of every table, ids, keys and short links, and hands out fresh ids', async () => {
    const pg = await emptyPostgres()
    try {
      const file = join(dir, 'round.jsonl')
      writeFileSync(file, dump)
      const imported = await slink(['import', '--from', file], { DATABASE_URL: pg.url })
      expect(imported.stderr).toMatch(IMPORTED)
      expect(imported).toMatchObject({ status: 0, stdout: '' })

      const back = target('back.db')
      const [left, right] = await slinkPipe(
        { args: ['export'], env: { DATABASE_URL: pg.url } },
        { args: ['import'], env: { DATABASE_URL: back } },
      )
      expect(left.stderr).toMatch(EXPORTED)
      expect(right.stderr).toMatch(IMPORTED)
      expect([left.status, right.status, right.stdout]).toEqual([0, 0, ''])

      const original = await contents(src.app.services.db)
      expect(Object.keys(original).sort()).toEqual([...TABLE_ORDER].sort())
      for (const [table, rows] of Object.entries(original))
        expect(rows.length, table).toBeGreaterThan(0)
      expect(await withDatabase(pg.url, contents)).toEqual(original)
      expect(await withDatabase(back, contents)).toEqual(original)

      // The dump of the PostgreSQL copy is the source's, row for row and in the same order.
      const again = await slink(['export'], { DATABASE_URL: pg.url })
      expect(again.stdout.trimEnd().split('\n').slice(1, -1)).toEqual(dumpLines().slice(1, -1))

      // A second import into the now full database is refused, and changes nothing.
      const before = await rowCount(pg.url)
      const refused = await slink(['import', '--from', file], { DATABASE_URL: pg.url })
      expect(refused.status).toBe(1)
      expect(refused.stderr).toMatch(
        /^slink: the target database is not empty \(users: 3, api_keys: 3, domains: 2, .*, click_visitors: \d+, click_stream: \d+, click_stream_lease: 1, sessions: \d+, password_links: \d+, webhooks: \d+, webhook_outbox: \d+, webhook_attempts: \d+, imports: 1, import_rows: 2, import_keys: 1, utm_templates: 1\): import only into a new or empty database\n$/,
      )
      expect(await rowCount(pg.url)).toBe(before)

      // The service runs on the copy: keys authenticate (the revoked one does not), short
      // links redirect, and new rows get ids above every id ever handed out.
      const server = serve({ DATABASE_URL: pg.url, PORT: '0', PUBLIC_URL: 'http://short.test' })
      try {
        const [, port] = await server.waitFor(/listening on port (\d+)/)
        const base = `http://127.0.0.1:${port}/api/v1`
        const auth = (key: string) => ({ headers: { authorization: `Bearer ${key}` } })
        const account = await fetch(`${base}/account`, auth(KEY_A))
        expect(account.status).toBe(200)
        expect(((await account.json()) as { data: { email: string } }).data.email).toBe(
          'a@example.com',
        )
        expect((await fetch(`${base}/account`, auth(src.carolKey))).status).toBe(401)
        expect(await httpGet(Number(port), '/spring', 'short.test')).toEqual({
          status: 302,
          location: 'https://example.com/spring-sale?utm_source=%C3%BC',
        })
        const created = await fetch(`${base}/links`, {
          method: 'POST',
          headers: { ...auth(KEY_A).headers, 'content-type': 'application/json' },
          body: JSON.stringify({
            url: 'https://example.com/new',
            domain_id: src.app.defaultDomainId,
          }),
        })
        expect(created.status).toBe(201)
        expect(((await created.json()) as { data: { id: number } }).data.id).toBe(
          src.deletedLinkId + 1,
        )
      } finally {
        server.kill()
        await server.exited
      }
      const next = await withDatabase(back, (db) =>
        sql<{ seq: number }>`select seq from sqlite_sequence where name = 'links'`.execute(
          db.kysely,
        ),
      )
      expect(next.rows[0]?.seq).toBe(src.deletedLinkId)
    } finally {
      await pg.drop()
    }
  })

  it('rolls back every table when a row fails late in the dump', async () => {
    const pg = await emptyPostgres()
    try {
      const lines = dumpLines()
      const start = lines.indexOf('{"table":"link_pixels"}')
      lines[start + 1] = lines[start + 1]!.replace(/,\d+\]$/, ',999]')
      const result = await slink(['import'], { DATABASE_URL: pg.url }, { input: signed(lines) })
      expect(result.status).toBe(1)
      expect(result.stderr).toMatch(
        /^slink: table link_pixels, dump lines? [\d–]+: insert or update on table "link_pixels" violates foreign key constraint "\w+"; nothing was imported\n$/,
      )
      expect(await rowCount(pg.url)).toBe(0)
    } finally {
      await pg.drop()
    }
  })
})

describe('slink import of an older schema', () => {
  it('imports it at its own schema, then migrates it forward; a target ahead of it is refused', async () => {
    // A dump as a slink of the first schema made it: that schema's tables, one user, last id 7.
    const first = migrationNames()[0]!
    const tables = await withDatabase(target('probe.db'), async (db) => {
      await migrateTo(db, first)
      return liveTables(db)
    })
    const user: Record<string, unknown> = {
      id: 7,
      name: 'Old',
      email: 'old@example.com',
      timezone: 'UTC',
      created_at: 1,
      updated_at: 2,
    }
    const listed = TABLE_ORDER.flatMap((name) => tables.filter((t) => t.name === name))
    const header = {
      format: 'slink-dump',
      version: 1,
      generator: 'slink 0.0.1',
      created_at: '2026-01-01T00:00:00.000Z',
      source: 'sqlite',
      migrations: [first],
      tables: listed.map((t) => ({
        name: t.name,
        columns: t.columns.map((c) => c.name),
        rows: t.name === 'users' ? 1 : 0,
        last_id: t.name === 'users' ? 9 : null,
      })),
    }
    const lines = [
      JSON.stringify(header),
      ...header.tables.flatMap((t) => [
        JSON.stringify({ table: t.name }),
        ...(t.name === 'users' ? [JSON.stringify(t.columns.map((c) => user[c]))] : []),
      ]),
      JSON.stringify({ end: true, rows: 1, sha256: '' }),
    ]
    const forward = target('forward.db')
    const result = await slink(['import'], { DATABASE_URL: forward }, { input: signed(lines) })
    expect(result.stderr).toMatch(
      new RegExp(
        `^imported 1 rows into ${listed.length} tables in \\d+\\.\\d s, then applied ${migrationNames().slice(1).join(', ')}\\n$`,
      ),
    )
    expect(result.status).toBe(0)
    expect((await slink(['migrate'], { DATABASE_URL: forward })).stdout).toBe(
      'the schema is up to date\n',
    )
    const next = await withDatabase(forward, (db) =>
      sql<{ seq: number }>`select seq from sqlite_sequence where name = 'users'`.execute(db.kysely),
    )
    expect(next.rows[0]?.seq).toBe(9)

    const ahead = target('ahead.db')
    expect((await slink(['migrate'], { DATABASE_URL: ahead })).status).toBe(0)
    expect(await slink(['import'], { DATABASE_URL: ahead }, { input: signed(lines) })).toEqual({
      status: 1,
      stdout: '',
      stderr: `slink: the target database's schema (${migrationNames().at(-1)}) is ahead of the dump's (${first}): import into a new database\n`,
    })
  })
})
