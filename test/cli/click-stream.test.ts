import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Redis } from 'ioredis'
import { connect } from 'nats'
import { afterAll, describe, expect, it } from 'vitest'
import { NATS_STREAM, REDIS_STREAM_KEY } from '../../src/clicks/stream-sinks.js'
import { serve, slinkProcess } from '../support/cli.js'
import { stream } from '../support/load.js'
import {
  binaryCheck,
  NATS_SERVER,
  ownServer,
  REDIS_SERVER,
  type OwnServer,
} from '../support/own-servers.js'
import { emptyPostgres, postgresCheck } from '../support/databases.js'
import { API_KEY, BROWSER_UA, eventually, HOST } from '../support/server.js'

/** Every event the stream holds, in order (JSON parsed). */
async function natsEvents(url: string): Promise<Record<string, unknown>[]> {
  const nc = await connect({ servers: url })
  try {
    const jsm = await nc.jetstreamManager()
    const { state } = await jsm.streams.info(NATS_STREAM)
    const out: Record<string, unknown>[] = []
    for (let seq = state.first_seq; seq <= state.last_seq && state.messages > 0; seq++) {
      const message = await jsm.streams.getMessage(NATS_STREAM, { seq })
      out.push(message.json<Record<string, unknown>>())
    }
    return out
  } catch (error) {
    if (/stream not found/.test(String(error))) return []
    throw error
  } finally {
    await nc.close()
  }
}

async function redisEvents(url: string): Promise<Record<string, unknown>[]> {
  const redis = new Redis(url)
  try {
    const entries = await redis.xrange(REDIS_STREAM_KEY, '-', '+')
    return entries.map(([, fields]) => JSON.parse(fields[1]!) as Record<string, unknown>)
  } finally {
    redis.disconnect()
  }
}

describe('CLICK_STREAM_URL', () => {
  it('refuses a URL that is not nats://, redis:// or rediss:// with a one-line error', () => {
    const dir = mkdtempSync(join(tmpdir(), 'slink-stream-url-'))
    try {
      const result = slinkProcess(['serve'], {
        DATABASE_URL: `sqlite:${join(dir, 'u.db')}`,
        CLICK_STREAM_URL: 'kafka://broker:9092',
      })
      expect(result.status).toBe(1)
      expect(result.stderr).toBe(
        'slink: CLICK_STREAM_URL must start with nats://, redis:// or rediss:// and name a host, got "kafka://broker:9092"\n',
      )
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

const postgres = await postgresCheck()
const kinds = [
  { kind: 'nats' as const, engine: 'sqlite', binary: NATS_SERVER, read: natsEvents },
  { kind: 'redis' as const, engine: 'sqlite', binary: REDIS_SERVER, read: redisEvents },
  { kind: 'nats' as const, engine: 'postgres', binary: NATS_SERVER, read: natsEvents },
]

describe.each(kinds.map((k) => [`CLICK_STREAM_URL=${k.kind}://… on ${k.engine}`, k] as const))(
  '%s',
  (_, { kind, engine, binary, read }) => {
    const check = engine === 'postgres' && !postgres.ok ? postgres : binaryCheck(binary)
    const drops: (() => Promise<void>)[] = []
    const dirs: string[] = []
    const servers: OwnServer[] = []
    afterAll(async () => {
      for (const s of servers) await s.remove()
      for (const d of dirs) rmSync(d, { recursive: true, force: true })
      for (const drop of drops) await drop()
    })

    it.skipIf(!check.ok)(
      'publishes every stored click once the stream is back after a restart under load',
      async () => {
        const own = await ownServer(kind)
        servers.push(own)
        const dir = mkdtempSync(join(tmpdir(), 'slink-stream-'))
        dirs.push(dir)
        const dbPath = join(dir, 's.db')
        const pg = engine === 'postgres' ? await emptyPostgres('stream') : null
        if (pg) drops.push(pg.drop)
        const server = serve({
          DATABASE_URL: pg ? pg.url : `sqlite:${dbPath}`,
          PORT: '0',
          PUBLIC_URL: `http://${HOST}`,
          INITIAL_API_KEY: API_KEY,
          TITLE_FETCH: 'false',
          CLICK_STREAM_URL: own.url,
          LOG_LEVEL: 'error',
        })
        const port = Number((await server.waitFor(/listening on port (\d+)/))[1])
        const created = await fetch(`http://127.0.0.1:${port}/api/v1/links`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${API_KEY}`,
            'content-type': 'application/x-www-form-urlencoded',
          },
          body: 'url=https://example.com/streamed&domain_id=1&alias=streamed',
        })
        expect(created.status).toBe(201)
        const { data } = (await created.json()) as { data: { id: number } }

        const visits = stream(
          port,
          '/streamed',
          { host: HOST, 'user-agent': BROWSER_UA, referer: 'https://news.example.org/a' },
          4,
        )
        await visits.after(300)
        // The first events are out before the stream goes away.
        const before = await eventually(
          () => read(own.url),
          (events) => events.length > 0,
          10_000,
        )
        expect(before.length).toBeGreaterThan(0)
        await own.stop()
        const stoppedAt = visits.tally.requests
        await visits.after(stoppedAt + 300)
        // The stream comes back after the traffic: only the publisher's retries send the backlog.
        const tally = await visits.stop()
        await server.waitFor(/publishing the click stream failed; will retry/, 30_000)
        await own.start()
        expect(tally.failures).toEqual([])
        expect([...tally.byStatus.keys()]).toEqual([302])
        const answered = tally.byStatus.get(302)!

        const events = await eventually(
          () => read(own.url),
          (got) => new Set(got.map((e) => e.id)).size >= answered,
          30_000,
        )
        const ids = new Set(events.map((e) => e.id))
        // Every event is out, so every click is stored (each batch's events commit with it).
        const shown = await fetch(`http://127.0.0.1:${port}/api/v1/links/${data.id}`, {
          headers: { authorization: `Bearer ${API_KEY}` },
        })
        const stored = ((await shown.json()) as { data: { clicks: number } }).data
        server.kill('SIGTERM')
        expect(await server.exited).toBe(0)
        console.log(
          `click stream (${kind}, ${engine}): ${answered} redirects, ${stored.clicks} clicks stored, ` +
            `${ids.size} distinct events (${events.length} messages), stream stopped after ${stoppedAt}`,
        )
        expect(stored.clicks).toBe(answered)
        expect(ids.size).toBe(answered)
        const first = events[0]!
        expect(Object.keys(first)).toEqual([
          'id',
          'time',
          'link',
          'domain',
          'alias',
          'destination',
          'country',
          'platform',
          'device',
          'browser',
          'language',
          'referrer',
          'visitor',
          'source',
          'bot',
        ])
        expect(first).toMatchObject({
          link: data.id,
          domain: HOST,
          alias: 'streamed',
          destination: 'https://example.com/streamed',
          referrer: 'news.example.org',
          source: 'redirect',
          bot: false,
        })
        expect(typeof first.id).toBe('number')
        expect(first.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
      },
      120_000,
    )
  },
)
