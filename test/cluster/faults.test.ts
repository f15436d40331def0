import { spawn, type ChildProcess } from 'node:child_process'
import { createServer, connect, type Server, type Socket } from 'node:net'
import { afterAll, describe, expect, it } from 'vitest'
import { redisCheck, startNode, type Node } from '../support/cluster.js'
import { emptyPostgres, postgresCheck, POSTGRES_ADMIN_URL } from '../support/databases.js'
import { BROWSER_UA, eventually } from '../support/server.js'
import { freePort } from '../support/ports.js'

const services = [await postgresCheck(), await redisCheck()]

/** A TCP proxy in front of PostgreSQL that the test can cut and restore: a real lost connection. */
class CuttableProxy {
  private server: Server | null = null
  private readonly sockets = new Set<Socket>()
  constructor(
    readonly port: number,
    private readonly target: { host: string; port: number },
  ) {}

  async open(): Promise<void> {
    this.server = createServer((client) => {
      const upstream = connect(this.target.port, this.target.host)
      for (const s of [client, upstream]) {
        this.sockets.add(s)
        s.on('close', () => this.sockets.delete(s))
        s.on('error', () => s.destroy())
      }
      client.pipe(upstream).pipe(client)
    })
    await new Promise<void>((resolve) => this.server!.listen(this.port, '127.0.0.1', resolve))
  }

  async cut(): Promise<void> {
    const server = this.server
    this.server = null
    for (const s of this.sockets) s.destroy()
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()))
  }
}

function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: ['ignore', 'pipe', 'ignore'],
    },
  )
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      if (d.toString().includes('Ready to accept connections')) resolve(child)
    })
    child.on('error', reject)
  })
}

const visit = (node: Node, alias: string) =>
  node.send(`/${alias}`, { headers: { 'user-agent': BROWSER_UA } })

describe.skipIf(services.some((s) => !s.ok))('faults', () => {
  const cleanup: (() => Promise<unknown>)[] = []
  afterAll(async () => {
    for (const step of cleanup.reverse()) await step().catch(() => {})
  })

  it('keeps working while Redis is down, and relays changes again once it is back', async () => {
    const redisPort = await freePort()
    let redis = await startRedis(redisPort)
    cleanup.push(async () => redis.kill('SIGKILL'))
    const database = await emptyPostgres()
    cleanup.push(() => database.drop())
    const env = {
      DATABASE_URL: database.url,
      REDIS_URL: `redis://127.0.0.1:${redisPort}`,
      API_RATE_LIMIT: '100',
      // Errors only: the line that says a process has seen Redis go away.
      LOG_LEVEL: 'error',
    }
    const a = await startNode(env)
    const b = await startNode(env)
    cleanup.push(async () => [a, b].forEach((n) => n.process.kill('SIGKILL')))
    const created = await a.api('POST', '/links', {
      url: 'https://example.com/1',
      domain_id: 1,
      alias: 'r',
    })
    const id = (created.json as { data: { id: number } }).data.id
    expect((await visit(b, 'r')).headers.location).toBe('https://example.com/1')

    redis.kill('SIGKILL')
    for (const node of [a, b]) await node.process.waitFor(/"msg":"Redis is unreachable"/, 5000)
    // Cached redirects, the API (its limit falls back per process) and forms go on working.
    expect((await visit(a, 'r')).status).toBe(302)
    expect((await visit(b, 'r')).status).toBe(302)
    const account = await a.api('GET', '/account')
    expect(account.status).toBe(200)
    expect((await b.api('GET', `/links/${id}`)).status).toBe(200)

    redis = await startRedis(redisPort)
    // Reconnected by themselves: an update on one process reaches the other within a second.
    const relayed = await eventually(
      async () => {
        await a.api('PATCH', `/links/${id}`, { url: `https://example.com/${Date.now()}` })
        const expected = ((await a.api('GET', `/links/${id}`)).json as { data: { url: string } })
          .data.url
        const seen = await eventually(
          async () => (await visit(b, 'r')).headers.location,
          (location) => location === expected,
          1000,
        )
        return seen === expected
      },
      (ok) => ok,
      15_000,
    )
    expect(relayed).toBe(true)
    const latest = `https://example.com/final`
    await a.api('PATCH', `/links/${id}`, { url: latest })
    const seen = await eventually(
      async () => (await visit(b, 'r')).headers.location,
      (l) => l === latest,
      1000,
    )
    expect(seen).toBe(latest)
  }, 40_000)

  it('answers 503 while PostgreSQL is unreachable, keeps cached redirects, and recovers by itself', async () => {
    const database = await emptyPostgres()
    cleanup.push(() => database.drop())
    const admin = new URL(POSTGRES_ADMIN_URL)
    const proxy = new CuttableProxy(await freePort(), {
      host: admin.hostname,
      port: Number(admin.port || 5432),
    })
    await proxy.open()
    cleanup.push(() => proxy.cut())
    const viaProxy = new URL(database.url)
    viaProxy.hostname = '127.0.0.1'
    viaProxy.port = String(proxy.port)
    const node = await startNode({ DATABASE_URL: viaProxy.toString(), API_RATE_LIMIT: '0' })
    cleanup.push(async () => node.process.kill('SIGKILL'))
    const created = await node.api('POST', '/links', {
      url: 'https://example.com/cached',
      domain_id: 1,
      alias: 'p',
    })
    const id = (created.json as { data: { id: number } }).data.id
    expect((await visit(node, 'p')).status).toBe(302)

    await proxy.cut()
    expect((await visit(node, 'p')).headers.location).toBe('https://example.com/cached')
    const write = await node.api('POST', '/spaces', { name: 'during outage' })
    expect(write.status).toBe(503)
    expect(write.json).toEqual({ message: 'Service Unavailable.', status: 503 })
    expect(write.headers['retry-after']).toBe('5')
    const unknown = await visit(node, 'never-seen')
    expect(unknown.status).toBe(503)
    expect(unknown.headers['content-type']).toBe('text/html; charset=utf-8')

    await proxy.open()
    const back = await eventually(
      () => node.api('POST', '/spaces', { name: 'after outage' }),
      (r) => r.status === 201,
      10_000,
    )
    expect(back.status).toBe(201)
    // The clicks made during the outage were kept and written once the database came back.
    const clicks = await eventually(
      async () =>
        ((await node.api('GET', `/links/${id}`)).json as { data: { clicks: number } }).data.clicks,
      (n) => n === 2,
      5000,
    )
    expect(clicks).toBe(2)
  }, 40_000)
})
