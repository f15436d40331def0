import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startCluster, type Node, type TestCluster } from '../support/cluster.js'
import { postgresCheck } from '../support/databases.js'
import { BROWSER_UA, eventually } from '../support/server.js'

const postgres = await postgresCheck()

describe.skipIf(!postgres.ok)('two processes on PostgreSQL without Redis', () => {
  let c: TestCluster
  let a: Node, b: Node

  beforeAll(async () => {
    c = await startCluster(2, { redis: false, env: { CACHE_TTL: '2' } })
    ;[a, b] = c.nodes as [Node, Node]
  }, 60_000)
  afterAll(() => c.drop())

  const visit = (node: Node, alias: string) =>
    node.send(`/${alias}`, { headers: { 'user-agent': BROWSER_UA } })

  it('obeys a change made on the other process within CACHE_TTL', async () => {
    const created = await a.api('POST', '/links', {
      url: 'https://example.com/one',
      domain_id: 1,
      alias: 'ttl',
    })
    const id = (created.json as { data: { id: number } }).data.id
    expect((await visit(b, 'ttl')).headers.location).toBe('https://example.com/one')
    const changedAt = Date.now()
    await a.api('PATCH', `/links/${id}`, { url: 'https://example.com/two' })
    // The process that made the change knows at once; the other one within the 2 s time to live.
    expect((await visit(a, 'ttl')).headers.location).toBe('https://example.com/two')
    const seen = await eventually(
      async () => (await visit(b, 'ttl')).headers.location,
      (location) => location === 'https://example.com/two',
      3000,
    )
    expect(seen).toBe('https://example.com/two')
    expect(Date.now() - changedAt).toBeLessThan(3000)
  })

  it('keeps rotation round-robin across processes through the database', async () => {
    await a.api('POST', '/links', {
      url: 'https://example.com/main',
      domain_id: 1,
      alias: 'rot',
      target_type: 4,
      'rotation[0][value]': 'https://example.com/r1',
    })
    const seen: string[] = []
    for (let i = 0; i < 6; i++)
      seen.push(String((await visit(i % 2 ? b : a, 'rot')).headers.location))
    expect(seen).toEqual([
      'https://example.com/main',
      'https://example.com/r1',
      'https://example.com/main',
      'https://example.com/r1',
      'https://example.com/main',
      'https://example.com/r1',
    ])
  })
})
