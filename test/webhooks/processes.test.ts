/**
 * Webhooks across real `slink serve` processes: nothing is lost when a process is killed with
 * SIGKILL between a change and its delivery (the outbox), clicks counted by the real click
 * thread arrive as click.recorded, and two processes on one PostgreSQL database send each
 * event once.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import SQLite from 'better-sqlite3'
import { Webhook } from 'standardwebhooks'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RETRY_DELAYS_MS } from '../../src/webhooks/schedule.js'
import { serve, type ServeProcess } from '../support/cli.js'
import { startCluster, type TestCluster } from '../support/cluster.js'
import { postgresCheck } from '../support/databases.js'
import { startReceiver, type Received, type Receiver } from '../support/receiver.js'
import { API_KEY, BROWSER_UA, eventually, HOST, send } from '../support/server.js'

async function api(port: number, method: string, path: string, json?: object) {
  const reply = await send(port, `/api/v1${path}`, {
    method,
    headers: {
      authorization: `Bearer ${API_KEY}`,
      ...(json ? { 'content-type': 'application/json' } : {}),
    },
    ...(json ? { body: JSON.stringify(json) } : {}),
  })
  return { status: reply.status, json: JSON.parse(reply.body) as { data: Record<string, unknown> } }
}

function check(secret: string, r: Received): void {
  new Webhook(secret).verify(r.body, {
    'webhook-id': String(r.headers['webhook-id']),
    'webhook-timestamp': String(r.headers['webhook-timestamp']),
    'webhook-signature': String(r.headers['webhook-signature']),
  })
}

describe('a server killed between a change and its delivery', () => {
  let dir: string
  let child: ServeProcess | null = null
  let receiver: Receiver | null = null
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'slink-hooks-'))
  })
  afterAll(async () => {
    child?.kill('SIGKILL')
    await child?.exited
    await receiver?.close()
    rmSync(dir, { recursive: true, force: true })
  })

  const start = async () => {
    child = serve({
      DATABASE_URL: `sqlite:${join(dir, 'hooks.db')}`,
      PORT: '0',
      PUBLIC_URL: `http://${HOST}`,
      INITIAL_API_KEY: API_KEY,
      API_RATE_LIMIT: '0',
      TITLE_FETCH: 'false',
      WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
    })
    return Number((await child.waitFor(/listening on port (\d+)/))[1])
  }

  it('delivers the change after a restart, then the clicks of the real click thread', async () => {
    // The receiver's port, closed for now: the first attempt cannot be delivered.
    const probe = await startReceiver()
    const port = Number(new URL(probe.url).port)
    await probe.close()
    let server = await start()
    const hook = await api(server, 'POST', '/webhooks', {
      url: `http://127.0.0.1:${port}/hook`,
      events: ['link.created', 'click.recorded'],
    })
    expect(hook.status).toBe(201)
    const secret = String(hook.json.data.secret)
    const link = await api(server, 'POST', '/links', {
      url: 'https://example.com/kept',
      alias: 'kept',
      domain_id: 1,
    })
    expect(link.status).toBe(201)
    // The first attempt has failed (nobody listens); the event waits in the outbox.
    const hookId = Number(hook.json.data.id)
    const deliveries = async () =>
      (await api(server, 'GET', `/webhooks/${hookId}/deliveries`)).json.data as unknown as {
        attempts: number
        error: string | null
      }[]
    const [first] = await eventually(deliveries, (rows) => rows[0]?.attempts === 1, 5000)
    expect(first).toMatchObject({ attempts: 1, error: '127.0.0.1: connection refused' })
    child!.kill('SIGKILL')
    await child!.exited
    // Its retry is due RETRY_DELAYS_MS[0] after the first attempt: that wait is written into the
    // record (the delivery made due now), not waited for.
    const file = new SQLite(join(dir, 'hooks.db'))
    try {
      const due = file
        .prepare(
          "UPDATE webhook_outbox SET next_attempt_at = next_attempt_at - ? WHERE status = 'pending'",
        )
        .run(RETRY_DELAYS_MS[0])
      expect(due.changes).toBe(1)
    } finally {
      file.close()
    }

    receiver = await startReceiver('/hook', port)
    server = await start()
    const [created] = await receiver.waitFor(1, 15_000)
    check(secret, created!)
    expect(created!.json).toEqual({
      type: 'link.created',
      timestamp: link.json.data.created_at,
      data: { link: link.json.data },
    })

    // A marker link, visited once the three visits' clicks have arrived: the click thread
    // stores clicks in order and the webhook's deliveries go out in order, so by the time the
    // marker's click arrives, a click delivered twice, or one too many, would have arrived too.
    const marker = await api(server, 'POST', '/links', {
      url: 'https://example.com/marker',
      alias: 'marker',
      domain_id: 1,
    })
    expect(marker.status).toBe(201)
    const clicksOf = (r: Received) =>
      r.json.type === 'click.recorded' ? (r.json.data.clicks as { link_id: number }[]) : []
    /** Waits for webhook requests until `seen` holds of those received. */
    const waitUntil = async (seen: (clicks: { link_id: number }[]) => boolean) => {
      for (let count = receiver!.received.length + 1; ; count++) {
        if (seen(receiver!.received.flatMap(clicksOf))) return
        await receiver!.waitFor(count, 10_000)
      }
    }
    const keptId = Number(link.json.data.id)
    const markerId = Number(marker.json.data.id)
    for (let i = 0; i < 3; i++) {
      const visit = await send(server, '/kept', { headers: { 'user-agent': BROWSER_UA } })
      expect(visit.status).toBe(302)
    }
    await waitUntil((clicks) => clicks.filter((c) => c.link_id === keptId).length >= 3)
    const visit = await send(server, '/marker', { headers: { 'user-agent': BROWSER_UA } })
    expect(visit.status).toBe(302)
    await waitUntil((clicks) => clicks.some((c) => c.link_id === markerId))
    const all = receiver.received
    for (const r of all) check(secret, r)
    expect(all.slice(0, 2).map((r) => r.json.type)).toEqual(['link.created', 'link.created'])
    expect(all.slice(2).every((r) => r.json.type === 'click.recorded')).toBe(true)
    expect(all.flatMap(clicksOf).map((c) => c.link_id)).toEqual([keptId, keptId, keptId, markerId])
  }, 60_000)
})

const postgres = await postgresCheck()

describe.skipIf(!postgres.ok)('two processes on one PostgreSQL database', () => {
  let c: TestCluster
  let receiver: Receiver
  beforeAll(async () => {
    receiver = await startReceiver()
    c = await startCluster(2, { redis: false, env: { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' } })
  }, 60_000)
  afterAll(async () => {
    await c.drop()
    await receiver.close()
  })

  it('sends each event once, in order, whichever process made the change', async () => {
    const [a, b] = [c.nodes[0]!, c.nodes[1]!]
    const hook = await api(a.port, 'POST', '/webhooks', { url: receiver.url, events: ['*'] })
    expect(hook.status).toBe(201)
    const secret = String(hook.json.data.secret)
    for (let i = 0; i < 20; i++) {
      const res = await api(i % 2 ? b.port : a.port, 'POST', '/spaces', { name: `s${i}` })
      expect(res.status).toBe(201)
    }
    await receiver.waitFor(20, 15_000)
    // A marker made after the twenty: the webhook's deliveries go out one after another, in
    // order, so a second copy of any of the twenty would have arrived before it.
    const marker = await api(b.port, 'POST', '/spaces', { name: 'marker' })
    expect(marker.status).toBe(201)
    await receiver.waitFor(21, 15_000)
    expect(receiver.received).toHaveLength(21)
    const names = receiver.received.map((r) => (r.json.data.space as { name: string }).name)
    expect(names).toEqual([...Array.from({ length: 20 }, (_, i) => `s${i}`), 'marker'])
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(21)
    // And each of the twenty was attempted once, by one process.
    const log = await api(a.port, 'GET', `/webhooks/${hook.json.data.id}/deliveries?per_page=50`)
    // Newest first: the marker, then the twenty.
    const rows = log.json.data as unknown as { status: string; attempt_log: unknown[] }[]
    expect(rows).toHaveLength(21)
    expect(rows.slice(1).map((r) => [r.status, r.attempt_log.length])).toEqual(
      Array.from({ length: 20 }, () => ['delivered', 1]),
    )
    for (const r of receiver.received) check(secret, r)
  }, 60_000)
})
