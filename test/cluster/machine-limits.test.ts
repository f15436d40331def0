/**
 * The default run mode (`slink serve` with one worker per core, no Redis) enforces every limit
 * once per machine, whichever worker answers. Two keep-alive connections pinned to the two
 * workers (each asks /health which worker holds it) take turns, so every limit below is
 * reached with attempts split over both workers.
 */
import { Agent, request } from 'node:http'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { serve, type ServeProcess } from '../support/cli.js'
import { API_KEY, BROWSER_UA, eventually, HOST, send, type Reply } from '../support/server.js'

const RATE_LIMIT = 20

describe('slink serve --workers 2 without Redis: one set of limits per machine', () => {
  let dir: string
  let server: ServeProcess
  let port: number
  /** One connection to each worker. */
  let pinned: [Agent, Agent]
  let apiCalls = 0

  /** The local port of each pinned connection: a request on another connection fails the test. */
  const ports: number[] = []
  const on = (worker: 0 | 1, path: string, options: Parameters<typeof send>[2] = {}) =>
    new Promise<Reply>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port,
          path,
          method: options.method ?? 'GET',
          headers: { host: HOST, ...options.headers },
          agent: pinned[worker],
        },
        (res) => {
          const local = res.socket.localPort
          const chunks: Buffer[] = []
          res.on('data', (c: Buffer) => chunks.push(c))
          res.on('end', () => {
            if (local !== ports[worker])
              reject(
                new Error(`worker ${worker}'s connection changed: ${ports[worker]} → ${local}`),
              )
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers,
              body: Buffer.concat(chunks).toString('utf8'),
            })
          })
        },
      )
      req.on('error', reject)
      req.end(options.body)
    })
  const api = (worker: 0 | 1, method: string, path: string, body?: string) => {
    apiCalls++
    return on(worker, `/api/v1${path}`, {
      method,
      headers: {
        authorization: `Bearer ${API_KEY}`,
        ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      ...(body ? { body } : {}),
    })
  }
  const workerOf = (agent: Agent) =>
    new Promise<{ worker: number; port: number }>((resolve, reject) => {
      request({ host: '127.0.0.1', port, path: '/health', agent }, (res) => {
        const local = res.socket.localPort!
        let body = ''
        res.on('data', (c: Buffer) => (body += c.toString()))
        res.on('end', () =>
          resolve({
            worker: (JSON.parse(body) as { worker: number }).worker,
            port: local,
          }),
        )
      })
        .on('error', reject)
        .end()
    })

  async function pinBoth(): Promise<[Agent, Agent]> {
    const first = new Agent({ keepAlive: true, maxSockets: 1 })
    const a = await workerOf(first)
    expect(a.worker).toBeGreaterThan(0)
    for (let attempt = 0; attempt < 200; attempt++) {
      const other = new Agent({ keepAlive: true, maxSockets: 1 })
      const b = await workerOf(other)
      if (b.worker !== a.worker) {
        // Still on the same connections, still the same workers.
        expect(await workerOf(first)).toEqual(a)
        expect(await workerOf(other)).toEqual(b)
        ports.push(a.port, b.port)
        return [first, other]
      }
      other.destroy()
    }
    throw new Error('every connection went to one worker')
  }

  const form = (password: string) => ({
    method: 'POST',
    headers: {
      'user-agent': BROWSER_UA,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: `password=${encodeURIComponent(password)}`,
  })

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'slink-machine-'))
    server = serve(
      {
        DATABASE_URL: `sqlite:${join(dir, 'm.db')}`,
        PORT: '0',
        PUBLIC_URL: `http://${HOST}`,
        INITIAL_API_KEY: API_KEY,
        API_RATE_LIMIT: String(RATE_LIMIT),
      },
      ['--workers', '2'],
    )
    port = Number((await server.waitFor(/listening on port (\d+) with 2 workers/, 75_000))[1])
    pinned = await pinBoth()
    const created = await Promise.all([
      api(0, 'POST', '/links', 'url=https://example.com/p&alias=guarded&password=right-one'),
      api(
        1,
        'POST',
        '/links',
        'url=https://example.com/s&alias=private-stats&privacy=2&privacy_password=stats-pw',
      ),
      api(0, 'POST', '/links', 'url=https://example.com/once&alias=once&expiration_clicks=1'),
    ])
    expect(created.map((r) => r.status)).toEqual([201, 201, 201])
  }, 60_000)

  afterAll(async () => {
    pinned?.forEach((agent) => agent.destroy())
    server?.kill('SIGTERM')
    await server?.exited
    rmSync(dir, { recursive: true, force: true })
  }, 90_000)

  it('counts 10 wrong link passwords per visitor and link across both workers, then checks none', async () => {
    const replies: Reply[] = []
    for (let i = 0; i < 10; i++) replies.push(await on((i % 2) as 0 | 1, '/guarded', form('wrong')))
    expect(replies.map((r) => r.status)).toEqual(Array(10).fill(200))
    expect(replies.every((r) => r.body.includes('The password is not correct.'))).toBe(true)
    for (const worker of [0, 1] as const) {
      const blocked = await on(worker, '/guarded', form('right-one'))
      expect(blocked.status).toBe(429)
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0)
      expect(blocked.headers['set-cookie']).toBeUndefined()
    }
  })

  it('counts 10 wrong stats passwords per visitor and link across both workers', async () => {
    const statuses: number[] = []
    for (let i = 0; i < 10; i++)
      statuses.push((await on((i % 2) as 0 | 1, '/private-stats/stats', form('nope'))).status)
    expect(statuses).toEqual(Array(10).fill(200))
    for (const worker of [0, 1] as const) {
      const blocked = await on(worker, '/private-stats/stats', form('stats-pw'))
      expect(blocked.status).toBe(429)
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0)
    }
  })

  it('allows 100 unknown-alias lookups per visitor a minute across both workers', async () => {
    const statuses: number[] = []
    for (let i = 0; i < 100; i++)
      statuses.push((await on((i % 2) as 0 | 1, `/missing-${i}`)).status)
    expect(statuses).toEqual(Array(100).fill(404))
    for (const worker of [0, 1] as const) {
      const blocked = await on(worker, '/missing-again')
      expect(blocked.status).toBe(429)
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0)
    }
  })

  it('answers a link that ran out of clicks on one worker as expired on the other within a second, bots and HEAD included', async () => {
    // The other worker has the link cached, with its click left.
    const before = await on(1, '/once', { method: 'HEAD' })
    expect(before.status).toBe(302)
    expect(before.headers.location).toBe('https://example.com/once')
    const taken = await on(0, '/once', { headers: { 'user-agent': BROWSER_UA } })
    expect(taken.status).toBe(302)
    const start = Date.now()
    const head = await eventually(
      () => on(1, '/once', { method: 'HEAD' }),
      (r) => r.status === 410,
      1000,
    )
    expect(head.status).toBe(410)
    expect(Date.now() - start).toBeLessThan(1000)
    const bot = await on(1, '/once', { headers: { 'user-agent': 'Googlebot/2.1' } })
    expect(bot.status).toBe(410)
    const sameWorkerBot = await on(0, '/once', { method: 'HEAD' })
    expect(sameWorkerBot.status).toBe(410)
  })

  it(`lets exactly ${RATE_LIMIT} API requests per key through across both workers, then 429 with Retry-After, whatever X-Forwarded-For says`, async () => {
    const statuses: number[] = []
    const remaining: string[] = []
    for (let i = apiCalls; i < RATE_LIMIT; i++) {
      const res = await api((i % 2) as 0 | 1, 'GET', '/account')
      statuses.push(res.status)
      remaining.push(String(res.headers['x-ratelimit-remaining']))
    }
    expect(statuses).toEqual(Array(RATE_LIMIT - 3).fill(200))
    expect(remaining.at(-1)).toBe('0')
    for (const worker of [0, 1] as const) {
      const over = await on(worker, '/api/v1/account', {
        headers: { authorization: `Bearer ${API_KEY}`, 'x-forwarded-for': `198.51.100.${worker}` },
      })
      expect(over.status).toBe(429)
      expect(JSON.parse(over.body)).toEqual({ message: 'Too Many Attempts.', status: 429 })
      expect(Number(over.headers['retry-after'])).toBeGreaterThan(0)
    }
  })
})
