/**
 * Deliveries to a real receiver on 127.0.0.1: every event's payload, Standard Webhooks
 * signatures checked by an independent verifier, order per webhook, retries once the receiver
 * is back, failure after the schedule, re-sending, switching off, batches of clicks, refusals
 * at delivery, and two dispatchers sharing one outbox. The dispatcher runs on an injected
 * clock, so retries are due without waiting.
 */
import { Webhook } from 'standardwebhooks'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { ClickDescriber } from '../../src/clicks/describe.js'
import { clickStoreFor } from '../../src/clicks/store.js'
import { VisitorHasher } from '../../src/clicks/visitor-hash.js'
import { ClickWriter } from '../../src/clicks/writer.js'
import { allowListPolicy, PUBLIC_ONLY } from '../../src/outbound/address-policy.js'
import { isoMicro } from '../../src/shared/time.js'
import { WebhookDispatcher, type DispatcherOptions } from '../../src/webhooks/dispatcher.js'
import { WebhookOutbox } from '../../src/webhooks/outbox.js'
import { createTestApp, KEY_B, type TestApp } from '../support/app.js'
import { startReceiver, type Received, type Receiver } from '../support/receiver.js'
import { API, type Rec } from './helpers.js'

const START = Date.now()
let clock = START
let t: TestApp
let receiver: Receiver
const policy = allowListPolicy(['127.0.0.1', 'localhost'])

beforeAll(async () => {
  t = await createTestApp({}, { webhookPolicy: policy, now: () => clock })
})
afterAll(() => t.close())
beforeEach(async () => {
  receiver = await startReceiver()
  await t.services.db.kysely.deleteFrom('webhooks').execute()
})
afterEach(() => receiver.close())

function dispatcher(options: DispatcherOptions = {}) {
  return new WebhookDispatcher(t.services.db, {
    policy,
    now: () => clock,
    retryDelaysMs: [1000, 2000],
    ...options,
  })
}

async function webhook(events: string[], url = receiver.url, key?: string) {
  const res = await t.call('POST', `${API}/webhooks`, {
    json: { url, events },
    ...(key ? { key } : {}),
  })
  expect(res.statusCode, res.body).toBe(201)
  return (res.json() as { data: { id: number; secret: string } }).data
}

async function api(method: 'POST' | 'PATCH' | 'DELETE', path: string, json?: object) {
  const res = await t.call(method, `${API}${path}`, json ? { json } : {})
  expect(res.statusCode, res.body).toBeLessThan(300)
  return res.json() as { data: Rec }
}

/** Verifies with the standardwebhooks package (not our code) and returns the parsed body. */
function verified(secret: string, request: Received): unknown {
  return new Webhook(secret).verify(request.body, {
    'webhook-id': String(request.headers['webhook-id']),
    'webhook-timestamp': String(request.headers['webhook-timestamp']),
    'webhook-signature': String(request.headers['webhook-signature']),
  })
}

async function deliveries(id: number): Promise<Rec[]> {
  const res = await t.call('GET', `${API}/webhooks/${id}/deliveries?sort=asc&per_page=100`)
  expect(res.statusCode).toBe(200)
  return (res.json() as { data: Rec[] }).data
}

describe('webhook deliveries', () => {
  it('sends every event, signed, with its exact payload, in order, and only its owner’s', async () => {
    clock += 1000
    const hook = await webhook(['*'])
    await webhook(['*'], receiver.url.replace('/hook', '/bob'), KEY_B)
    const at = isoMicro(clock)
    const space = (await api('POST', '/spaces', { name: 'Promo', color: 2 })).data
    const pixel = (await api('POST', '/pixels', { name: 'Ads', type: 'x', value: 'abc123' })).data
    const domain = (await api('POST', '/domains', { name: 'go.example.org' })).data
    const link = (
      await api('POST', '/links', {
        url: 'https://example.com/a',
        alias: 'hooked',
        domain_id: t.defaultDomainId,
        space_id: space.id,
        pixel_ids: [pixel.id],
      })
    ).data
    const updated = (
      await api('PATCH', `/links/${link.id}`, {
        alias: 'hooked2',
        url: 'https://example.com/b',
        password: 'pw',
      })
    ).data
    const pixel2 = (await api('PATCH', `/pixels/${pixel.id}`, { value: 'xyz789' })).data
    const space2 = (await api('PATCH', `/spaces/${space.id}`, { color: 5 })).data
    const domain2 = (
      await api('PATCH', `/domains/${domain.id}`, { index_page: 'https://example.com/' })
    ).data
    await api('DELETE', `/links/${link.id}`)
    const inSpace = (
      await api('POST', '/links', {
        url: 'https://example.com/s',
        domain_id: t.defaultDomainId,
        space_id: space.id,
      })
    ).data
    await api('DELETE', `/spaces/${space.id}`)
    const onDomain = (
      await api('POST', '/links', { url: 'https://example.com/d', domain_id: domain.id })
    ).data
    await api('DELETE', `/domains/${domain.id}`)
    await api('DELETE', `/pixels/${pixel.id}`)
    // Another user's change reaches only that user's webhook.
    await t.call('POST', `${API}/spaces`, { json: { name: 'Bobs' }, key: KEY_B })

    expect(await dispatcher().runUntilIdle()).toBe(17)
    const expected: [string, Record<string, unknown>][] = [
      ['space.created', { space }],
      ['pixel.created', { pixel }],
      ['domain.created', { domain }],
      ['link.created', { link }],
      ['link.updated', { link: updated, changed: ['alias', 'url', 'short_url', 'password'] }],
      ['pixel.updated', { pixel: pixel2, changed: ['value'] }],
      ['space.updated', { space: space2, changed: ['color'] }],
      ['domain.updated', { domain: domain2, changed: ['index_page'] }],
      ['link.deleted', { link: { ...updated, pixels: [pixel2], space: space2 }, cause: 'link' }],
      ['link.created', { link: inSpace }],
      ['link.deleted', { link: inSpace, cause: 'space' }],
      ['space.deleted', { space: space2 }],
      ['link.created', { link: onDomain }],
      ['link.deleted', { link: onDomain, cause: 'domain' }],
      ['domain.deleted', { domain: domain2 }],
      ['pixel.deleted', { pixel: pixel2 }],
    ]
    const alices = receiver.received.filter((r) => r.path === '/hook')
    expect(alices.map((r) => r.json.type)).toEqual(expected.map(([type]) => type))
    alices.forEach((request, i) => {
      const [type, data] = expected[i]!
      expect(verified(hook.secret, request)).toEqual({ type, timestamp: at, data })
      expect(Object.keys(request.json)).toEqual(['type', 'timestamp', 'data'])
      expect(request.headers['webhook-id']).toMatch(/^msg_[0-9a-f]{24}$/)
      expect(request.headers['webhook-timestamp']).toBe(String(Math.floor(clock / 1000)))
      expect(request.headers['content-type']).toBe('application/json')
    })
    const bobs = receiver.received.filter((r) => r.path === '/bob')
    expect(bobs.map((r) => [r.json.type, (r.json.data.space as Rec).name])).toEqual([
      ['space.created', 'Bobs'],
    ])
    const bob = bobs[0]!
    expect(() => verified(hook.secret, bob!)).toThrow()
  })

  it('deleting a pixel raises link.updated (changed: pixels) for each link it was on, then pixel.deleted', async () => {
    clock += 1000
    const hook = await webhook(['link.updated', 'pixel.deleted'])
    const at = isoMicro(clock)
    const gone = (await api('POST', '/pixels', { name: 'Gone', type: 'bing', value: '111' })).data
    const kept = (await api('POST', '/pixels', { name: 'Kept', type: 'bing', value: '222' })).data
    const carrier = async (url: string, pixelIds: number[]) =>
      (
        await api('POST', '/links', {
          url,
          domain_id: t.defaultDomainId,
          pixel_ids: pixelIds,
        })
      ).data
    const both = await carrier('https://example.com/both', [gone.id, kept.id])
    const only = await carrier('https://example.com/only', [gone.id])
    await carrier('https://example.com/none', [kept.id])
    await api('DELETE', `/pixels/${gone.id}`)

    expect(await dispatcher().runUntilIdle()).toBe(3)
    expect(receiver.received.map((r) => verified(hook.secret, r))).toEqual([
      {
        type: 'link.updated',
        timestamp: at,
        data: { link: { ...both, pixels: [kept] }, changed: ['pixels'] },
      },
      {
        type: 'link.updated',
        timestamp: at,
        data: { link: { ...only, pixels: [] }, changed: ['pixels'] },
      },
      { type: 'pixel.deleted', timestamp: at, data: { pixel: gone } },
    ])
    // The records sent are what the API now answers for those links.
    for (const link of [both, only]) {
      const now = (await t.call('GET', `${API}/links/${link.id}`)).json() as { data: Rec }
      expect(now.data.pixels).toEqual(link.id === both.id ? [kept] : [])
    }
  })
})

describe('retries, failures and the delivery log', () => {
  const space = (name: string) => api('POST', '/spaces', { name })

  it('keeps the order per webhook while retrying, and delivers once the receiver is back', async () => {
    const hook = await webhook(['space.created'])
    await space('first')
    await space('second')
    receiver.answer = (n) => (n < 2 ? 503 : 200)
    const d = dispatcher()
    expect(await d.runOnce()).toBe(1)
    expect(await d.runOnce()).toBe(0) // the head is not due yet, and the next waits behind it
    clock += 1000
    expect(await d.runOnce()).toBe(1)
    clock += 2000
    expect(await d.runUntilIdle()).toBe(2)
    const names = receiver.received.map((r) => (r.json.data.space as Rec).name)
    expect(names).toEqual(['first', 'first', 'first', 'second'])
    const ids = receiver.received.map((r) => r.headers['webhook-id'])
    expect(new Set(ids.slice(0, 3)).size).toBe(1)
    for (const r of receiver.received) verified(hook.secret, r)
    const log = await deliveries(hook.id)
    expect(log).toEqual([
      {
        id: log[0]!.id,
        message_id: ids[0],
        event: 'space.created',
        status: 'delivered',
        attempts: 3,
        status_code: 200,
        duration_ms: expect.any(Number),
        error: null,
        attempted_at: isoMicro(clock),
        next_attempt_at: null,
        created_at: isoMicro(clock - 3000),
        attempt_log: [
          { attempted_at: isoMicro(clock - 3000), status_code: 503, error: 'HTTP 503' },
          { attempted_at: isoMicro(clock - 2000), status_code: 503, error: 'HTTP 503' },
          { attempted_at: isoMicro(clock), status_code: 200, error: null },
        ].map((attempt) => ({ ...attempt, duration_ms: expect.any(Number) })),
      },
      expect.objectContaining({ event: 'space.created', status: 'delivered', attempts: 1 }),
    ])
  })

  it('marks an event failed after the schedule, goes on with the next, and sends it again on request', async () => {
    const hook = await webhook(['space.created'])
    await space('doomed')
    await space('after')
    receiver.answer = (_n, r) => ((r.json.data.space as Rec).name === 'doomed' ? 500 : 200)
    const d = dispatcher()
    await d.runUntilIdle()
    clock += 1000
    await d.runUntilIdle()
    clock += 2000
    await d.runUntilIdle()
    const names = receiver.received.map((r) => (r.json.data.space as Rec).name)
    expect(names).toEqual(['doomed', 'doomed', 'doomed', 'after'])
    const [failed, after] = await deliveries(hook.id)
    expect(failed).toMatchObject({
      event: 'space.created',
      status: 'failed',
      attempts: 3,
      status_code: 500,
      error: 'HTTP 500',
      next_attempt_at: null,
    })
    expect(after).toMatchObject({ status: 'delivered', attempts: 1 })
    const onlyFailed = await t.call('GET', `${API}/webhooks/${hook.id}/deliveries?status=failed`)
    expect((onlyFailed.json() as { data: Rec[] }).data.map((r) => r.id)).toEqual([failed!.id])

    receiver.answer = () => 200
    const resent = await t.call(
      'POST',
      `${API}/webhooks/${hook.id}/deliveries/${failed!.id}/resend`,
    )
    expect(resent.statusCode).toBe(200)
    expect((resent.json() as { data: Rec }).data).toMatchObject({ status: 'pending', attempts: 0 })
    await d.runUntilIdle()
    expect(receiver.received.at(-1)!.headers['webhook-id']).toBe(failed!.message_id)
    const [again] = await deliveries(hook.id)
    expect(again).toMatchObject({ status: 'delivered', attempts: 1, status_code: 200 })
    // The log keeps the attempts before the re-send too.
    const log = again!.attempt_log as Rec[]
    expect(log.map((a) => [a.status_code, a.error])).toEqual([
      [500, 'HTTP 500'],
      [500, 'HTTP 500'],
      [500, 'HTTP 500'],
      [200, null],
    ])
  })

  it('logs every attempt with its time and outcome, and keeps only the webhook’s last ones', async () => {
    const hook = await webhook(['space.created'])
    receiver.answer = (n) => (n % 2 === 0 ? 502 : 200)
    const d = dispatcher({ retryDelaysMs: [1000], keepAttempts: 3 })
    const start = clock
    await space('one') // 502 at start, then 200 at start + 1000
    await d.runUntilIdle()
    clock += 1000
    await d.runUntilIdle()
    await space('two') // 502 at start + 1000, 200 at start + 2000
    await d.runUntilIdle()
    clock += 1000
    await d.runUntilIdle()
    expect(receiver.received).toHaveLength(4)
    const [one, two] = await deliveries(hook.id)
    const shown = (row: Rec | undefined) =>
      (row!.attempt_log as Rec[]).map((a) => [a.attempted_at, a.status_code, a.error])
    // Four attempts made, the last three kept: the oldest of `one` is gone.
    expect(shown(one)).toEqual([[isoMicro(start + 1000), 200, null]])
    expect(shown(two)).toEqual([
      [isoMicro(start + 1000), 502, 'HTTP 502'],
      [isoMicro(start + 2000), 200, null],
    ])
    // Its summary still tells the last attempt and how many there were.
    expect(one).toMatchObject({ attempts: 2, status_code: 200, status: 'delivered' })
    const stored = await t.services.db.kysely
      .selectFrom('webhook_attempts')
      .select('id')
      .where('webhook_id', '=', hook.id)
      .execute()
    expect(stored).toHaveLength(3)
  })

  it('switches off a webhook that keeps failing, and says why', async () => {
    const hook = await webhook(['space.created'])
    receiver.answer = () => 503
    const d = dispatcher({ retryDelaysMs: [1000, 1000, 1000, 1000, 1000], switchOffAfterMs: 3000 })
    await space('never')
    for (let i = 0; i < 4; i++) {
      await d.runUntilIdle()
      clock += 1000
    }
    const shown = await t.call('GET', `${API}/webhooks/${hook.id}`)
    const data = (shown.json() as { data: Rec }).data
    expect(data.active).toBe(0)
    expect(data.disabled_reason).toBe(
      `Switched off at ${isoMicro(clock - 1000)}: every delivery attempt since ` +
        `${isoMicro(clock - 4000)} failed (last: HTTP 503).`,
    )
    // Switched off: nothing more is sent, and new events are not queued for it.
    const sent = receiver.received.length
    await space('while off')
    clock += 10_000
    await d.runUntilIdle()
    expect(receiver.received.length).toBe(sent)
    // Its owner switches it on again: the pending delivery goes out, the reason is gone.
    receiver.answer = () => 200
    const on = await t.call('PATCH', `${API}/webhooks/${hook.id}`, { json: { active: 1 } })
    expect((on.json() as { data: Rec }).data).toMatchObject({ active: 1, disabled_reason: null })
    await d.runUntilIdle()
    expect(receiver.received.at(-1)!.json.type).toBe('space.created')
    expect(receiver.received.length).toBe(sent + 1)
  })

  it('forgets finished deliveries after 30 days, never pending ones', async () => {
    const hook = await webhook(['space.created'])
    await space('old')
    receiver.answer = () => 200
    const d = dispatcher()
    await d.runUntilIdle()
    receiver.answer = () => 500
    await space('waiting')
    await d.runUntilIdle()
    const saved = clock
    clock += 30 * 86_400_000
    expect(await d.prune()).toBe(0)
    clock += 1
    expect(await d.prune()).toBe(1)
    expect((await deliveries(hook.id)).map((r) => r.status)).toEqual(['pending'])
    // Back to the present: the signatures of the next tests are checked against real time.
    clock = saved
  })

  it('sends a test event on request', async () => {
    const hook = await webhook(['link.created'])
    const res = await t.call('POST', `${API}/webhooks/${hook.id}/test`)
    expect(res.statusCode).toBe(202)
    await dispatcher().runUntilIdle()
    expect(receiver.received.map((r) => r.json)).toEqual([
      { type: 'webhook.test', timestamp: isoMicro(clock), data: { webhook_id: hook.id } },
    ])
    verified(hook.secret, receiver.received[0]!)
  })

  it('refuses at delivery a host that resolves to an address the policy does not allow', async () => {
    const hook = await webhook(['space.created'], receiver.url.replace('127.0.0.1', 'localhost'))
    await space('nowhere')
    await dispatcher({ policy: PUBLIC_ONLY }).runUntilIdle()
    expect(receiver.received).toEqual([])
    const [delivery] = await deliveries(hook.id)
    expect(delivery).toMatchObject({ status: 'pending', attempts: 1, status_code: null })
    expect(delivery!.error).toBe('localhost is not reachable: private or local address')
  })

  it('delivers clicks in batches of at most 100, only to users whose webhooks hear clicks', async () => {
    const hook = await webhook(['click.recorded'])
    const mine = (
      await api('POST', '/links', { url: 'https://example.com/c', domain_id: t.defaultDomainId })
    ).data
    const bobs = await t.call('POST', `${API}/links`, {
      json: { url: 'https://example.com/b', domain_id: t.defaultDomainId },
      key: KEY_B,
    })
    const bobLink = (bobs.json() as { data: Rec }).data
    const db = t.services.db
    const hasher = new VisitorHasher(db)
    const outbox = new WebhookOutbox(db)
    const writer = new ClickWriter(clickStoreFor(db), hasher, new ClickDescriber(hasher), (rows) =>
      outbox.planClicks(rows, clock),
    )
    const events = Array.from({ length: 260 }, (_, i) => ({
      linkId: i % 13 === 0 ? bobLink.id : mine.id,
      counted: false,
      at: START + i,
      ip: '81.2.69.142',
      userAgent:
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36',
      acceptLanguage: 'de-DE,de;q=0.9',
      referer: 'https://news.example/x',
      query: '',
      destination: 'https://example.com/c',
    }))
    await writer.write({ events, rotations: [] })
    await dispatcher().runUntilIdle()
    const batches = receiver.received.map((r) => r.json.data.clicks as Rec[])
    expect(batches.map((b) => b.length)).toEqual([100, 100, 40])
    expect(batches.flat().every((c) => c.link_id === mine.id)).toBe(true)
    expect(batches[0]![0]).toEqual({
      link_id: mine.id,
      at: isoMicro(START + 1),
      country: 'GB',
      platform: 'Windows',
      browser: 'Chrome',
      device: 'desktop',
      language: 'de',
      referrer: 'news.example',
    })
    for (const r of receiver.received) {
      expect(verified(hook.secret, r)).toMatchObject({
        type: 'click.recorded',
        timestamp: isoMicro(clock),
      })
    }
  })

  it('has two dispatchers on one outbox send each event once, in order', async () => {
    await webhook(['space.created'])
    await webhook(['space.created'], receiver.url.replace('/hook', '/second'))
    for (let i = 0; i < 15; i++) await space(`s${i}`)
    const a = dispatcher()
    const b = dispatcher()
    const counts = await Promise.all([a.runUntilIdle(), b.runUntilIdle(), a.runUntilIdle()])
    expect(counts.reduce((x, y) => x + y, 0)).toBe(30)
    for (const path of ['/hook', '/second']) {
      const names = receiver.received
        .filter((r) => r.path === path)
        .map((r) => (r.json.data.space as Rec).name)
      expect(names).toEqual(Array.from({ length: 15 }, (_, i) => `s${i}`))
    }
  })
})
