import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase } from '../../src/db/connect.js'
import { serve, type ServeProcess } from '../support/cli.js'
import { stream } from '../support/load.js'
import { API_KEY, BROWSER_UA, HOST } from '../support/server.js'

describe('slink serve --workers 2: SIGHUP replaces the workers without a failed request', () => {
  let dir: string
  let server: ServeProcess
  let port: number

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'slink-rollover-'))
    server = serve(
      {
        DATABASE_URL: `sqlite:${join(dir, 'r.db')}`,
        PORT: '0',
        PUBLIC_URL: `http://${HOST}`,
        INITIAL_API_KEY: API_KEY,
        API_RATE_LIMIT: '0',
        TITLE_FETCH: 'false',
      },
      ['--workers', '2'],
    )
    port = Number((await server.waitFor(/listening on port (\d+) with 2 workers/))[1])
  }, 30_000)
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('answers every redirect and API call during the rollover and stores every click', async () => {
    const base = `http://127.0.0.1:${port}`
    const auth = { authorization: `Bearer ${API_KEY}` }
    const created = await fetch(`${base}/api/v1/links`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'url=https://example.com/live&domain_id=1&alias=live',
    })
    expect(created.status).toBe(201)
    const { data } = (await created.json()) as { data: { id: number } }

    const started = Date.now()
    const redirects = stream(port, '/live', { host: HOST, 'user-agent': BROWSER_UA }, 4)
    const calls = stream(port, `/api/v1/links/${data.id}`, auth, 4)
    await Promise.all([redirects.after(200), calls.after(100)])
    server.kill('SIGHUP')
    await server.waitFor(/replaced 2 workers: all run the code on disk/, 60_000)
    // A little traffic reaches the new workers only, then the stream stops.
    const [r0, c0] = [redirects.tally.requests, calls.tally.requests]
    await Promise.all([redirects.after(r0 + 100), calls.after(c0 + 50)])
    const [r, c] = await Promise.all([redirects.stop(), calls.stop()])
    const seconds = (Date.now() - started) / 1000

    expect(r.failures).toEqual([])
    expect(c.failures).toEqual([])
    expect([...r.byStatus.keys()]).toEqual([302])
    expect([...c.byStatus.keys()]).toEqual([200])
    const answered = r.byStatus.get(302)!
    console.log(
      `rollover: ${r.requests} redirects + ${c.requests} API calls in ${seconds.toFixed(1)} s, ` +
        `${r.failures.length + c.failures.length} failed`,
    )

    server.kill('SIGTERM')
    expect(await server.exited).toBe(0)
    const db = openDatabase({ kind: 'sqlite', path: join(dir, 'r.db') })
    try {
      const link = await db.kysely
        .selectFrom('links')
        .select('clicks')
        .where('id', '=', data.id)
        .executeTakeFirstOrThrow()
      const logged = await db.kysely
        .selectFrom('clicks')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('link_id', '=', data.id)
        .executeTakeFirstOrThrow()
      console.log(`rollover: ${answered} redirects answered, ${link.clicks} clicks stored`)
      expect(link.clicks).toBe(answered)
      expect(Number(logged.n)).toBe(answered)
    } finally {
      await db.close()
    }
  }, 120_000)
})
