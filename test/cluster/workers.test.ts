import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase } from '../../src/db/connect.js'
import { serve, type ServeProcess } from '../support/cli.js'
import { API_KEY, BROWSER_UA, eventually, HOST, send } from '../support/server.js'

describe('slink serve --workers 2 on SQLite', () => {
  let dir: string
  let server: ServeProcess
  let port: number
  const api = (method: string, path: string, body?: string) =>
    send(port, `/api/v1${path}`, {
      method,
      headers: {
        authorization: `Bearer ${API_KEY}`,
        ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      ...(body ? { body } : {}),
    })
  const visit = (alias: string) =>
    send(port, `/${alias}`, { headers: { 'user-agent': BROWSER_UA } })

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'slink-workers-'))
    server = serve(
      {
        DATABASE_URL: `sqlite:${join(dir, 'w.db')}`,
        PORT: '0',
        PUBLIC_URL: `http://${HOST}`,
        INITIAL_API_KEY: API_KEY,
        API_RATE_LIMIT: '0',
      },
      ['--workers', '2'],
    )
    port = Number((await server.waitFor(/listening on port (\d+) with 2 workers/))[1])
  }, 30_000)
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('serves from both workers, with exact limits, shared rotation and cache invalidation', async () => {
    await api(
      'POST',
      '/links',
      'url=https://example.com/a&domain_id=1&alias=limited&expiration_clicks=20',
    )
    const replies = await Promise.all(Array.from({ length: 80 }, () => visit('limited')))
    expect(replies.filter((r) => r.status === 302).length).toBe(20)

    await api(
      'POST',
      '/links',
      'url=https://example.com/a&domain_id=1&alias=rot&target_type=4&rotation[0][value]=https://example.com/b',
    )
    const seen: string[] = []
    for (let i = 0; i < 6; i++) seen.push(String((await visit('rot')).headers.location))
    expect(seen).toEqual([
      'https://example.com/a',
      'https://example.com/b',
      'https://example.com/a',
      'https://example.com/b',
      'https://example.com/a',
      'https://example.com/b',
    ])

    const created = await api(
      'POST',
      '/links',
      'url=https://example.com/old&domain_id=1&alias=moving',
    )
    const id = (JSON.parse(created.body) as { data: { id: number } }).data.id
    // Both workers cache it (connections are new each time, so the kernel spreads them).
    for (let i = 0; i < 6; i++) await visit('moving')
    await api('PATCH', `/links/${id}`, 'url=https://example.com/new')
    const after = await eventually(
      async () =>
        Promise.all(
          Array.from({ length: 6 }, async () => (await visit('moving')).headers.location),
        ),
      (locations) => locations.every((l) => l === 'https://example.com/new'),
      1000,
    )
    expect(new Set(after)).toEqual(new Set(['https://example.com/new']))
  })

  it('keeps rotation weights exact in every 100 visits across the workers', async () => {
    await api(
      'POST',
      '/links',
      'url=https://example.com/a&domain_id=1&alias=weighted&target_type=4' +
        '&rotation[0][value]=https://example.com/b&rotation[0][weight]=30' +
        '&rotation[1][value]=https://example.com/c&rotation[1][weight]=10',
    )
    // Concurrent visits take positions 0 to 199 of the shared counter, in any order.
    const together = await Promise.all(
      Array.from({ length: 200 }, async () => String((await visit('weighted')).headers.location)),
    )
    const count = (list: string[], url: string) => list.filter((l) => l === url).length
    expect(count(together, 'https://example.com/a')).toBe(120)
    expect(count(together, 'https://example.com/b')).toBe(60)
    expect(count(together, 'https://example.com/c')).toBe(20)
    // Then one at a time (new connections, spread over both workers): one whole cycle, in order.
    const inTurn: string[] = []
    for (let i = 0; i < 100; i++) inTurn.push(String((await visit('weighted')).headers.location))
    expect(count(inTurn, 'https://example.com/a')).toBe(60)
    expect(count(inTurn, 'https://example.com/b')).toBe(30)
    expect(count(inTurn, 'https://example.com/c')).toBe(10)
    expect(inTurn.slice(0, 5)).toEqual([
      'https://example.com/a',
      'https://example.com/b',
      'https://example.com/a',
      'https://example.com/a',
      'https://example.com/b',
    ])
  })

  it('stops every worker gracefully on SIGTERM, with every click written', async () => {
    await api('POST', '/links', 'url=https://example.com/c&domain_id=1&alias=counted')
    await Promise.all(Array.from({ length: 60 }, () => visit('counted')))
    server.kill('SIGTERM')
    expect(await server.exited).toBe(0)
    const db = openDatabase({ kind: 'sqlite', path: join(dir, 'w.db') })
    try {
      const link = await db.kysely
        .selectFrom('links')
        .select('clicks')
        .where('alias', '=', 'counted')
        .executeTakeFirstOrThrow()
      expect(link.clicks).toBe(60)
    } finally {
      await db.close()
    }
  })
})
