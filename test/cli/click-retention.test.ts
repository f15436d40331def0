/**
 * CLICK_LOG_DAYS with the real `slink serve`: the process (one, or a cluster's primary) removes
 * the old click-log rows as it starts and says so; the public stats page and every API answer
 * are the same afterwards. A bad value stops the command with one line naming the variable.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'kysely'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openDatabase } from '../../src/db/connect.js'
import { serve, slink } from '../support/cli.js'
import { click, clicks, writeClicks } from '../support/clicks.js'
import { withoutNonce } from '../support/dashboard.js'
import { API_KEY, HOST, send } from '../support/server.js'

const DAY = 86_400_000
const NAMES = [
  'clicks',
  'clicks_hour',
  'country',
  'platform',
  'browser',
  'device',
  'language',
  'referrer',
]

let dir: string
let dbPath: string
let env: Record<string, string>

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'slink-retention-'))
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
afterEach(() => rmSync(dir, { recursive: true, force: true }))

/** Runs `slink serve ARGS` with `extra` in its environment until `work` is done. */
async function serving<T>(
  extra: Record<string, string>,
  args: string[],
  work: (port: number, output: (pattern: RegExp) => Promise<RegExpMatchArray>) => Promise<T>,
): Promise<T> {
  const child = serve({ ...env, ...extra }, args)
  try {
    const [, port] = await child.waitFor(/listening on port (\d+)/)
    return await work(Number(port), (pattern) => child.waitFor(pattern))
  } finally {
    child.kill('SIGTERM')
    await child.exited
  }
}

async function withDb<T>(work: (db: ReturnType<typeof openDatabase>) => Promise<T>): Promise<T> {
  const db = openDatabase({ kind: 'sqlite', path: dbPath })
  try {
    return await work(db)
  } finally {
    await db.close()
  }
}

const logRows = () =>
  withDb(async (db) =>
    Number(
      (await sql<{ n: number }>`SELECT count(*) AS n FROM clicks`.execute(db.kysely)).rows[0]!.n,
    ),
  )

/** A link with `old` clicks 40 days ago and 3 yesterday, in the order a writer writes them. */
async function linkWithClicks(port: number, alias: string, old: number): Promise<number> {
  const made = await send(port, '/api/v1/links', {
    method: 'POST',
    headers: {
      authorization: `Bearer ${API_KEY}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: `url=https%3A%2F%2Fexample.com%2F${alias}&alias=${alias}&domain_id=1`,
  })
  expect(made.status).toBe(201)
  const id = (JSON.parse(made.body) as { data: { id: number } }).data.id
  const day = (n: number) => new Date(Date.now() - n * DAY).toISOString()
  await withDb(async (db) => {
    await writeClicks(db, clicks(old, id, day(40), { referrer: 'news.example.org' }))
    await writeClicks(db, [
      click(id, day(1), { country: 'FR', platform: 'Android', device: 'mobile' }),
      ...clicks(2, id, day(1)),
    ])
  })
  return id
}

/** The public stats page of the last 60 days and every API statistic of the link. */
async function answers(port: number, alias: string, id: number): Promise<Map<string, string>> {
  const seen = new Map<string, string>()
  const to = new Date().toISOString().slice(0, 10)
  const from = new Date(Date.now() - 60 * DAY).toISOString().slice(0, 10)
  const page = await send(port, `/${alias}/stats?from=${from}&to=${to}`)
  expect(page.status).toBe(200)
  seen.set('page', withoutNonce(page.body))
  for (const name of NAMES) {
    for (const format of ['json', 'csv']) {
      const url = `/api/v1/stats/${id}?name=${name}&from=${from}&to=${to}&format=${format}`
      const reply = await send(port, url, { headers: { authorization: `Bearer ${API_KEY}` } })
      expect(reply.status, url).toBe(200)
      seen.set(url, reply.body)
    }
  }
  return seen
}

describe('CLICK_LOG_DAYS with slink serve', () => {
  it('removes the old raw clicks as the service starts; the stats page and the API answer as before', async () => {
    const [id, before] = await serving({}, ['--workers', '1'], async (port) => {
      const made = await linkWithClicks(port, 'kept', 1200)
      return [made, await answers(port, 'kept', made)] as const
    })
    expect(before.get('page')).toContain('1,203')
    expect(await logRows()).toBe(1203)

    const after = await serving(
      { CLICK_LOG_DAYS: '30', LOG_LEVEL: 'info' },
      ['--workers', '1'],
      async (port, output) => {
        const [, removed] = await output(
          /"removed":(\d+),"days":30,"msg":"removed old click-log rows"/,
        )
        expect(Number(removed)).toBe(1200)
        return answers(port, 'kept', id)
      },
    )
    expect(await logRows()).toBe(3)
    expect([...after.keys()]).toEqual([...before.keys()])
    for (const [where, body] of before) expect(after.get(where), where).toBe(body)
  }, 60_000)

  it('runs in the primary of a cluster', async () => {
    await serving({}, ['--workers', '1'], (port) => linkWithClicks(port, 'many', 25))
    await serving({ CLICK_LOG_DAYS: '30' }, ['--workers', '2'], async (_port, output) => {
      await output(/^removed 25 click-log rows older than 30 days$/m)
    })
    expect(await logRows()).toBe(3)
  }, 60_000)

  it('refuses a bad CLICK_LOG_DAYS in one line naming it', async () => {
    for (const bad of ['0', '36501', '7d', '-1']) {
      expect(await slink(['serve', '--workers', '1'], { ...env, CLICK_LOG_DAYS: bad })).toEqual({
        status: 1,
        stdout: '',
        stderr: `slink: CLICK_LOG_DAYS must be an integer from 1 to 36500, got "${bad}"\n`,
      })
    }
  })
})
