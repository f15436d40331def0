import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase } from '../../src/db/connect.js'
import {
  BROWSER_UA,
  eventually,
  startServer,
  storedClicks,
  type TestServer,
} from '../support/server.js'

/** The server of the counting tests; the shutdown test starts one of its own. */
let shared: TestServer
beforeAll(async () => {
  shared = await startServer()
})
afterAll(() => shared.stop())

let s: TestServer | null = null
afterEach(async () => {
  await s?.stop()
  s = null
})

async function createLink(server: TestServer, form: Record<string, string | number> = {}) {
  const res = await server.api('POST', '/links', {
    url: 'https://example.com/in',
    domain_id: 1,
    ...form,
  })
  expect(res.status).toBe(201)
  return (res.json as { data: { id: number; alias: string } }).data
}

/** The link's counter and log rows, and what its per-day totals add up to. */
async function stored(dbPath: string, linkId: number) {
  const { clicks, rows } = await storedClicks(dbPath, linkId)
  const db = openDatabase({ kind: 'sqlite', path: dbPath })
  try {
    const totals = await db.kysely
      .selectFrom('click_stats')
      .select(['dimension', 'clicks'])
      .where('link_id', '=', linkId)
      .execute()
    const sum = (dimension: string) =>
      totals.filter((t) => t.dimension === dimension).reduce((a, t) => a + t.clicks, 0)
    return {
      clicks,
      rows,
      total: sum('total'),
      country: sum('country'),
      device: sum('device'),
    }
  } finally {
    await db.close()
  }
}

describe('exact click counting', () => {
  it('lets exactly N of 200 concurrent visitors through a link limited to N clicks', async () => {
    const link = await createLink(shared, { expiration_clicks: 37 })
    const results = await Promise.all(
      Array.from({ length: 200 }, () =>
        shared.send(`/${link.alias}`, { headers: { 'user-agent': BROWSER_UA } }),
      ),
    )
    const through = results.filter((r) => r.status === 302).length
    const expired = results.filter((r) => r.status === 410).length
    expect(through).toBe(37)
    expect(expired).toBe(163)
    const after = await eventually(
      () => stored(shared.dbPath, link.id),
      (v) => v.rows === 37,
      // Written within about half a second; the margin is for a loaded machine.
      5000,
    )
    expect(after).toEqual({ clicks: 37, rows: 37, total: 37, country: 37, device: 37 })
  })

  it('counts each click once into clicks, click rows and every per-day aggregate', async () => {
    const link = await createLink(shared)
    await Promise.all(
      Array.from({ length: 50 }, () =>
        shared.send(`/${link.alias}`, { headers: { 'user-agent': BROWSER_UA } }),
      ),
    )
    const after = await eventually(
      () => stored(shared.dbPath, link.id),
      (v) => v.clicks === 50,
      // Written within about half a second; the margin is for a loaded machine.
      5000,
    )
    expect(after).toEqual({ clicks: 50, rows: 50, total: 50, country: 50, device: 50 })
  })

  it('writes every pending click when SIGTERM arrives, then exits 0', async () => {
    s = await startServer()
    const server = s
    const link = await createLink(server)
    const limited = await createLink(server, { expiration_clicks: 1000 })
    for (let round = 0; round < 4; round++) {
      await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          server.send(`/${i % 2 ? link.alias : limited.alias}`, {
            headers: { 'user-agent': BROWSER_UA },
          }),
        ),
      )
    }
    server.process.kill('SIGTERM')
    expect(await server.process.exited).toBe(0)
    expect(await stored(server.dbPath, link.id)).toEqual({
      clicks: 60,
      rows: 60,
      total: 60,
      country: 60,
      device: 60,
    })
    expect(await stored(server.dbPath, limited.id)).toEqual({
      clicks: 60,
      rows: 60,
      total: 60,
      country: 60,
      device: 60,
    })
  })
})
