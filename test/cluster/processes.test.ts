import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { redisCheck, startCluster, type Node, type TestCluster } from '../support/cluster.js'
import { slink } from '../support/cli.js'
import { postgresCheck } from '../support/databases.js'
import { BROWSER_UA, eventually } from '../support/server.js'

const services = [await postgresCheck(), await redisCheck()]

describe.skipIf(services.some((s) => !s.ok))(
  'three processes on one PostgreSQL and one Redis',
  () => {
    let c: TestCluster
    let a: Node, b: Node, d: Node
    let n = 0

    beforeAll(async () => {
      c = await startCluster(3, { redis: true, env: { API_RATE_LIMIT: '30' } })
      ;[a, b, d] = c.nodes as [Node, Node, Node]
    }, 60_000)
    afterAll(() => c.drop())

    async function link(form: Record<string, string | number>, via: Node = a) {
      const res = await via.api('POST', '/links', {
        url: 'https://example.com/main',
        domain_id: 1,
        alias: `c${n++}`,
        ...form,
      })
      expect(res.status).toBe(201)
      return (res.json as { data: { id: number; alias: string } }).data
    }
    const visit = (node: Node, alias: string, extra: Record<string, string> = {}) =>
      node.send(`/${alias}`, { headers: { 'user-agent': BROWSER_UA, ...extra } })

    it('lets exactly N visitors through a click limit under concurrent load on every process', async () => {
      const l = await link({ expiration_clicks: 25 })
      const replies = await Promise.all(
        Array.from({ length: 150 }, (_, i) => visit(c.nodes[i % 3]!, l.alias)),
      )
      expect(replies.filter((r) => r.status === 302).length).toBe(25)
      expect(replies.filter((r) => r.status === 410).length).toBe(125)
      const stored = await a.api('GET', `/links/${l.id}`)
      expect((stored.json as { data: { clicks: number } }).data.clicks).toBe(25)
    })

    it('keeps rotation round-robin across processes', async () => {
      const l = await link({
        target_type: 4,
        'rotation[0][value]': 'https://example.com/r1',
        'rotation[1][value]': 'https://example.com/r2',
      })
      const seen: string[] = []
      for (let i = 0; i < 12; i++)
        seen.push(String((await visit(c.nodes[i % 3]!, l.alias)).headers.location))
      const cycle = ['https://example.com/main', 'https://example.com/r1', 'https://example.com/r2']
      expect(seen).toEqual([...cycle, ...cycle, ...cycle, ...cycle])
    })

    it('keeps rotation weights exact in every 100 visits across processes', async () => {
      const l = await link({
        target_type: 4,
        'rotation[0][value]': 'https://example.com/r1',
        'rotation[0][weight]': 30,
        'rotation[1][value]': 'https://example.com/r2',
        'rotation[1][weight]': 10,
      })
      const seen = await Promise.all(
        Array.from({ length: 200 }, async (_, i) =>
          String((await visit(c.nodes[i % 3]!, l.alias)).headers.location),
        ),
      )
      // Concurrent visits take positions 0 to 199 of the shared counter, in any order.
      const count = (url: string) => seen.filter((s) => s === url).length
      expect(count('https://example.com/main')).toBe(120)
      expect(count('https://example.com/r1')).toBe(60)
      expect(count('https://example.com/r2')).toBe(20)
      // Then one at a time, alternating processes: positions 200 to 299, one whole cycle.
      const inTurn: string[] = []
      for (let i = 0; i < 100; i++)
        inTurn.push(String((await visit(c.nodes[i % 2]!, l.alias)).headers.location))
      expect(inTurn.filter((s) => s === 'https://example.com/main')).toHaveLength(60)
      expect(inTurn.filter((s) => s === 'https://example.com/r1')).toHaveLength(30)
      expect(inTurn.filter((s) => s === 'https://example.com/r2')).toHaveLength(10)
      expect(inTurn.slice(0, 5)).toEqual([
        'https://example.com/main',
        'https://example.com/r1',
        'https://example.com/main',
        'https://example.com/main',
        'https://example.com/r1',
      ])
    })

    it('makes every process obey an update or a delete within a second', async () => {
      const l = await link({})
      for (const node of c.nodes)
        expect((await visit(node, l.alias)).headers.location).toBe('https://example.com/main')
      expect(
        (await a.api('PATCH', `/links/${l.id}`, { url: 'https://example.com/moved' })).status,
      ).toBe(200)
      for (const node of [b, d]) {
        const location = await eventually(
          async () => (await visit(node, l.alias)).headers.location,
          (loc) => loc === 'https://example.com/moved',
          1000,
        )
        expect(location).toBe('https://example.com/moved')
      }
      expect((await b.api('DELETE', `/links/${l.id}`)).status).toBe(200)
      const gone = await eventually(
        () => visit(d, l.alias),
        (r) => r.status === 404,
        1000,
      )
      expect(gone.status).toBe(404)
    })

    it('counts API requests made to any process against one limit per key', async () => {
      // A key of its own, so the other tests keep their budget.
      const created = await slink(['key', 'create', '--email', 'admin@localhost'], {
        DATABASE_URL: c.databaseUrl,
      })
      const key = created.stdout.trim()
      const remaining: number[] = []
      const statuses: number[] = []
      for (let i = 0; i < 33; i++) {
        const res = await c.nodes[i % 3]!.send('/api/v1/account', {
          headers: { authorization: `Bearer ${key}` },
        })
        statuses.push(res.status)
        remaining.push(Number(res.headers['x-ratelimit-remaining']))
      }
      expect(statuses).toEqual([...Array<number>(30).fill(200), 429, 429, 429])
      expect(remaining).toEqual([...Array.from({ length: 30 }, (_, i) => 29 - i), 0, 0, 0])
    })

    it('limits wrong passwords across processes', async () => {
      const l = await link({ password: 'right' })
      const attempt = (node: Node, password: string) =>
        node.send(`/${l.alias}`, {
          method: 'POST',
          headers: {
            'user-agent': BROWSER_UA,
            'content-type': 'application/x-www-form-urlencoded',
          },
          body: `password=${password}`,
        })
      for (let i = 0; i < 10; i++)
        expect((await attempt(c.nodes[i % 3]!, 'wrong')).status).toBe(200)
      expect((await attempt(d, 'right')).status).toBe(429)
    })

    it('adds up click counts exactly once every process has flushed', async () => {
      const l = await link({})
      await Promise.all(Array.from({ length: 90 }, (_, i) => visit(c.nodes[i % 3]!, l.alias)))
      expect(await c.stopAll()).toEqual([0, 0, 0])
      const client = new pg.Client({ connectionString: c.databaseUrl })
      await client.connect()
      try {
        const clicks = await client.query('SELECT clicks::int AS clicks FROM links WHERE id = $1', [
          l.id,
        ])
        const rows = await client.query(
          'SELECT count(*)::int AS n FROM clicks WHERE link_id = $1',
          [l.id],
        )
        const total = await client.query(
          "SELECT sum(clicks)::int AS n FROM click_stats WHERE link_id = $1 AND dimension = 'total'",
          [l.id],
        )
        expect([clicks.rows[0].clicks, rows.rows[0].n, total.rows[0].n]).toEqual([90, 90, 90])
      } finally {
        await client.end()
      }
    })
  },
)
